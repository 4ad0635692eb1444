// When to recycle (restart) OpenCode (pure, no clock: `now` is an input). Memory over the limit → recycle at the
// first moment no request is in flight; if it stays busy for `busyGraceMs`, recycle anyway with a drain (new requests
// held, in-flight ones finish). Idle for long and above the low watermark → recycle (a fresh process is smaller).

/** Everything the policy looks at. Times are epoch ms, sizes bytes. */
export interface RecycleInputs {
  now: number;
  /** OpenCode's RSS, null when unknown (then only nothing happens). */
  rssBytes: number | null;
  /** Limit; 0 switches recycling off. */
  limitBytes: number;
  /** Idle recycles only happen above this. */
  lowWatermarkBytes: number;
  /** Requests in flight on OpenCode now. */
  inFlight: number;
  /** Start or end of the most recent request (0 = never). */
  lastActivityAt: number;
  /** When the current OpenCode became ready. */
  readyAt: number;
  /** Since when RSS has been over the limit (null = it is not). */
  overSince: number | null;
  /** Busy this long over the limit → recycle with a drain. */
  busyGraceMs: number;
  /** No requests for this long → idle recycle (if above the watermark). */
  idleRecycleMs: number;
  /** A process younger than this is never recycled (a fresh process can be over a tiny limit at once). */
  minUptimeMs: number;
}

/** What to do now. `drain`: requests are in flight, hold new ones and wait for them before restarting. */
export type RecycleDecision = { action: "none" } | { action: "recycle"; reason: string; drain: boolean };

const MB = 1024 * 1024;

/** Decides whether to recycle OpenCode now. */
export function planRecycle(i: RecycleInputs): RecycleDecision {
  if (i.limitBytes <= 0 || i.rssBytes === null) return { action: "none" };
  if (i.now - i.readyAt < i.minUptimeMs) return { action: "none" };
  const rss = `${Math.round(i.rssBytes / MB)} MB`;
  if (i.rssBytes > i.limitBytes) {
    const reason = `memory ${rss} over the ${Math.round(i.limitBytes / MB)} MB limit`;
    if (i.inFlight === 0) return { action: "recycle", reason, drain: false };
    if (i.overSince !== null && i.now - i.overSince >= i.busyGraceMs) return { action: "recycle", reason, drain: true };
    return { action: "none" };
  }
  // Only after some use since the last start: an untouched process above the watermark would otherwise be
  // restarted every idleRecycleMs for nothing.
  const usedSinceStart = i.lastActivityAt > i.readyAt;
  if (
    i.inFlight === 0 &&
    usedSinceStart &&
    i.now - i.lastActivityAt >= i.idleRecycleMs &&
    i.rssBytes > i.lowWatermarkBytes
  ) {
    return {
      action: "recycle",
      reason: `idle for ${Math.round((i.now - i.lastActivityAt) / 60_000)} min at ${rss}`,
      drain: false,
    };
  }
  return { action: "none" };
}
