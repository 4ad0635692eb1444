// Per-app concurrency gate: over the limit, requests are refused at once (429 + Retry-After), never queued,
// so a client's own retry logic stays in charge and nothing waits invisibly.
import { PatchbayError } from "./errors";

/** Counts in-flight requests per app. */
export class ConcurrencyGate {
  private readonly inFlight = new Map<string, number>();

  /** Takes a slot for `app` or throws PatchbayError `rate_limit_exceeded` (429, Retry-After 1 s).
   *  Returns the release function (idempotent). */
  acquire(app: string, limit: number): () => void {
    const n = this.inFlight.get(app) ?? 0;
    if (n >= limit) {
      throw new PatchbayError(
        "rate_limit_exceeded",
        `Too many simultaneous requests for app '${app}' (limit ${limit}). Retry shortly, or raise the app's concurrency limit in the Patchbay dashboard.`,
        { retryAfter: 1 },
      );
    }
    this.inFlight.set(app, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.inFlight.get(app) ?? 1) - 1;
      if (left <= 0) this.inFlight.delete(app);
      else this.inFlight.set(app, left);
    };
  }

  /** In-flight requests of `app`. */
  count(app: string): number {
    return this.inFlight.get(app) ?? 0;
  }
}
