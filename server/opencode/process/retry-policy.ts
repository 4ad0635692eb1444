// When a `failed` OpenCode is tried again (issue 21 §4 item 2), how long a request waits for a wake from sleep, and
// what a request is told while OpenCode is not ready. Pure, but for the retry timer.
import type { OpenCodeStatus } from "../../../shared/status";
import { PatchbayError } from "../../core/errors";

/** Backoff after `failed`, ms: `initialMs` doubling per failed retry up to `maxMs`. */
export interface FailedRetryBackoff {
  initialMs: number;
  maxMs: number;
}

/** 5 s doubling to 5 min: the first retries come quickly (a transient fault such as a killed start-up), and a
 *  lasting fault (binary missing, broken config) costs one start-up attempt every 5 minutes at most. */
export const FAILED_RETRY_BACKOFF: FailedRetryBackoff = { initialMs: 5_000, maxMs: 5 * 60_000 };

/** How long a request waits for OpenCode that is waking from sleep, ms (a start takes 1–3 s on a quiet machine,
 *  20–30 s on a starved one; the startup timeout is 60 s). */
export const WAKE_WAIT_MS = 60_000;

/** Delay before retry number `retry` (0 = the first retry after `failed`), ms. */
export function failedRetryDelayMs(retry: number, backoff: FailedRetryBackoff = FAILED_RETRY_BACKOFF): number {
  const n = Math.max(0, Math.min(retry, 30)); // 2 ** 30 is far past any max; keeps the number finite
  return Math.min(backoff.maxMs, backoff.initialMs * 2 ** n);
}

/** The retries after `failed`: one timer, and the count that sets the next delay (reset once ready). */
export class FailedRetry {
  private count = 0;
  private timer: NodeJS.Timeout | null = null;

  /** Arms the next retry (replacing an armed one); returns its delay, ms. The timer does not keep Node alive. */
  schedule(backoff: FailedRetryBackoff | undefined, retry: () => void): number {
    this.cancel();
    const delay = failedRetryDelayMs(this.count++, backoff);
    this.timer = setTimeout(() => {
      this.timer = null;
      retry();
    }, delay);
    this.timer.unref();
    return delay;
  }

  /** Disarms the armed retry, if any. */
  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Started fine (or restarted by hand): the next failure waits `initialMs` again. */
  reset(): void {
    this.cancel();
    this.count = 0;
  }
}

/** 503 `backend_starting` with Retry-After 3 s: OpenCode is on its way up (starting, restarting or waking). */
export function startingError(): PatchbayError {
  return new PatchbayError("backend_starting", "OpenCode is still starting; retry in a few seconds.", {
    retryAfter: 3,
  });
}

/** The 503 `backend_unavailable` of a `failed` or `stopped` OpenCode (a failed one says when it is tried again, as
 *  Retry-After too); null in the other states. */
export function downError(s: OpenCodeStatus, now: number): PatchbayError | null {
  if (s.state === "stopped") return new PatchbayError("backend_unavailable", "OpenCode is not running.");
  if (s.state !== "failed") return null;
  const retryIn = s.nextRetryAt ? Math.max(1, Math.ceil((s.nextRetryAt - now) / 1000)) : null;
  const next =
    retryIn === null ? "" : ` Patchbay tries again in ${retryIn} s (or use "Restart OpenCode" in the dashboard).`;
  return new PatchbayError(
    "backend_unavailable",
    `OpenCode is not available: ${s.reason ?? "it failed to start"}.${next}`,
    retryIn === null ? {} : { retryAfter: retryIn },
  );
}
