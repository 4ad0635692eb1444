// Admission of requests to OpenCode: counts requests in flight and can hold new ones while OpenCode is swapped
// (recycle), so a planned restart never fails a request. Owns counting and waiting only; never talks to OpenCode.
import { PatchbayError } from "../../core/errors";

/** Options of {@link RequestGate}. */
export interface RequestGateOptions {
  /** Clock (epoch ms). */
  now?: () => number;
  /** Longest a request waits while held before 503 `backend_starting` (ms, default 90 000). */
  holdTimeoutMs?: number;
}

/** What {@link RequestGate.enter} returns: `leave()` (call exactly once) and whether the request was held. */
export interface GateTicket {
  /** True when the request waited for a hold (a recycle) before it was admitted. */
  held: boolean;
  leave(): void;
}

/**
 * Counts requests in flight; `hold()` makes later `enter()` calls wait until `release()`. `drained()` resolves once
 * nothing is in flight.
 */
export class RequestGate {
  private readonly now: () => number;
  private readonly holdTimeoutMs: number;
  private count = 0;
  private lastActivity = 0;
  private holdWaiters = new Set<() => void>();
  private drainWaiters = new Set<() => void>();
  private holding = false;

  constructor(opts: RequestGateOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.holdTimeoutMs = opts.holdTimeoutMs ?? 90_000;
  }

  /** Requests in flight. */
  get inFlight(): number {
    return this.count;
  }

  /** True while new requests are held. */
  get isHolding(): boolean {
    return this.holding;
  }

  /** Start or end of the most recent request (epoch ms; 0 = none yet). */
  get lastActivityAt(): number {
    return this.lastActivity;
  }

  /**
   * Admits a request (waiting while held). Throws PatchbayError `backend_starting` when held longer than
   * `holdTimeoutMs`; an aborted `signal` rejects with the signal's reason.
   */
  async enter(signal?: AbortSignal): Promise<GateTicket> {
    const held = await this.whenOpen(signal);
    this.count++;
    this.lastActivity = this.now();
    let left = false;
    return {
      held,
      leave: () => {
        if (left) return;
        left = true;
        this.count--;
        this.lastActivity = this.now();
        if (this.count === 0) for (const w of [...this.drainWaiters]) w();
      },
    };
  }

  /** Waits while held without being counted (e.g. a model list during a recycle). Resolves true when it had to
   *  wait. Errors as {@link enter}. */
  async whenOpen(signal?: AbortSignal): Promise<boolean> {
    if (!this.holding) return false;
    {
      await new Promise<void>((resolve, reject) => {
        const done = () => {
          clearTimeout(timer);
          this.holdWaiters.delete(done);
          signal?.removeEventListener("abort", onAbort);
          resolve();
        };
        const onAbort = () => {
          clearTimeout(timer);
          this.holdWaiters.delete(done);
          reject(signal?.reason ?? new Error("aborted"));
        };
        const timer = setTimeout(() => {
          this.holdWaiters.delete(done);
          signal?.removeEventListener("abort", onAbort);
          reject(
            new PatchbayError("backend_starting", "OpenCode is being restarted; retry in a few seconds.", {
              retryAfter: 3,
            }),
          );
        }, this.holdTimeoutMs);
        this.holdWaiters.add(done);
        signal?.addEventListener("abort", onAbort, { once: true });
      });
    }
    return true;
  }

  /** Holds new requests until {@link release}. */
  hold(): void {
    this.holding = true;
  }

  /** Lets held and new requests in. */
  release(): void {
    this.holding = false;
    for (const w of [...this.holdWaiters]) w();
  }

  /** Resolves true once nothing is in flight, or false after `timeoutMs`. */
  drained(timeoutMs: number): Promise<boolean> {
    if (this.count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.drainWaiters.delete(done);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.drainWaiters.delete(done);
        resolve(false);
      }, timeoutMs);
      this.drainWaiters.add(done);
    });
  }
}
