// Fallback chains: the same request sent to the next target when one refuses before its first byte (429, quota,
// overloaded, 5xx). Nothing is retried after the first output event: the client has seen that model's answer begin.
import type { ModelError, ModelEvent, ModelInfo } from "../core/contract";
import { toPatchbayError } from "../core/errors";
import type { Cooldowns } from "./cooldowns";

/** One target of a chain. */
export interface ChainTarget {
  model: ModelInfo;
  variant?: string;
  /** `provider/model[#variant]`: the cooldown key and the name in headers and the log. */
  id: string;
}

/** What a chain did, filled in as it runs: the target that served (null until one answered) and the ones skipped. */
export interface ChainReport {
  served: string | null;
  skipped: { model: string; reason: string }[];
}

/** Errors that say "this target, not this request": worth trying the next one. Patchbay's own states (OpenCode
 *  starting or down) are not: every target shares them. */
export function isFallbackError(e: ModelError): boolean {
  if (["backend_unavailable", "backend_starting", "api_stopped"].includes(e.code)) return false;
  return e.status === 429 || e.status >= 500 || e.code === "upstream_rate_limited" || e.kind === "quota";
}

function thrownAsError(err: unknown): ModelError {
  const e = toPatchbayError(err);
  return {
    code: e.code,
    status: e.status,
    message: e.message,
    param: e.param,
    ...(e.retryAfter !== undefined ? { retryAfter: e.retryAfter } : {}),
  };
}

/**
 * Runs `targets` in order through `run` and yields the events of the first that does not refuse before its first
 * output. Targets cooling down (a 429 with a retry time) are skipped; when every target cools, the answer is one 429
 * with the earliest retry time. A refusal of the last target is passed on as it is. `report` names what served and
 * what was skipped, with why; `signal` stops fallbacks once the client left or a deadline passed.
 */
export async function* runChain(
  targets: readonly ChainTarget[],
  run: (t: ChainTarget) => AsyncIterable<ModelEvent>,
  opts: {
    cooldowns: Cooldowns;
    now: () => number;
    report: ChainReport;
    signal: AbortSignal;
    /** Called once, when a target answers (before its first event is yielded). */
    onServed?: (id: string) => void;
    /** Called once the targets still cooling down are known (before any is tried), with what was skipped so far:
     *  a stream may commit its headers before the first event, so these are set as early as possible. */
    onSkipped?: (skipped: ChainReport["skipped"]) => void;
    /** The request-log entry, named with each refusal noted in `cooldowns`. */
    logId?: string;
  },
): AsyncGenerator<ModelEvent> {
  const { report, cooldowns } = opts;
  const ready = targets.filter((t) => {
    const until = cooldowns.coolingUntil(t.id);
    if (until !== null)
      report.skipped.push({ model: t.id, reason: `rate-limited until ${new Date(until).toISOString()}` });
    return until === null;
  });
  if (report.skipped.length) opts.onSkipped?.(report.skipped);
  if (ready.length === 0) {
    const until = Math.min(...targets.map((t) => cooldowns.coolingUntil(t.id) ?? opts.now()));
    const retryAfter = Math.max(1, Math.ceil((until - opts.now()) / 1000));
    yield {
      type: "error",
      error: {
        code: "upstream_rate_limited",
        status: 429,
        message: `Every model of this request is rate-limited by its provider (${targets.map((t) => t.id).join(", ")}); the first may be tried again after ${new Date(until).toISOString()}.`,
        retryAfter,
      },
    };
    return;
  }
  for (let i = 0; i < ready.length; i++) {
    const target = ready[i]!;
    const last = i === ready.length - 1;
    const it = run(target)[Symbol.asyncIterator]();
    const held: ModelEvent[] = [];
    let first: ModelEvent | undefined;
    try {
      for (;;) {
        const step = await it.next().catch((err: unknown) => ({
          done: false as const,
          value: { type: "error" as const, error: thrownAsError(err) },
        }));
        if (step.done) break;
        if (step.value.type === "start") {
          held.push(step.value);
          continue;
        }
        first = step.value;
        break;
      }
      if (first?.type === "error") {
        const error = first.error;
        // Patchbay's own states (OpenCode starting) carry a retry time too, but say nothing of this target.
        if (error.retryAfter !== undefined && isFallbackError(error))
          cooldowns.note(target.id, opts.now() + error.retryAfter * 1000, {
            ...(opts.logId ? { logId: opts.logId } : {}),
            message: error.message,
          });
        if (!last && isFallbackError(error) && !opts.signal.aborted) {
          report.skipped.push({
            model: target.id,
            reason: `${error.status} ${error.code}: ${error.message}`.slice(0, 300),
          });
          continue;
        }
      }
      report.served = target.id;
      opts.onServed?.(target.id);
      yield* held;
      if (first === undefined) return;
      yield first;
      for (;;) {
        const step = await it.next();
        if (step.done) return;
        yield step.value;
      }
    } finally {
      // The tried target's cleanup (lease, session abort) runs whether it refused or served.
      await it.return?.(undefined)?.catch(() => undefined);
    }
  }
}
