// When OpenCode may sleep (keep-alive, issue 26): a pure decision over what the runtime sees. The timers and the
// stop itself are keep-alive.ts's.

/** What the decision looks at. Times are epoch ms. */
export interface KeepAliveView {
  /** Keep-alive in ms; null = forever (never sleep). */
  keepAliveMs: number | null;
  /** OpenCode's state (only a `ready` one can sleep). */
  state: string;
  /** Model requests and model lists in flight (the request gate). */
  inFlight: number;
  /** Other users of OpenCode now: history operations, pre-warming, a recycle holding requests. */
  otherUses: number;
  /** The last moment anything used OpenCode (a request's start or end, a history call's end) or it became ready. */
  lastUseAt: number;
  now: number;
}

/** `sleep`, or when to look again (ms; null = only when something changes, e.g. OpenCode becomes ready). */
export type KeepAliveDecision = { sleep: true } | { sleep: false; recheckInMs: number | null };

/** How often a busy OpenCode is looked at again, at most (ms): uses end without telling the timer. */
const BUSY_RECHECK_MS = 5_000;

/** Sleep once nothing has used a ready OpenCode for the keep-alive period, and nothing uses it now. */
export function keepAliveDecision(v: KeepAliveView): KeepAliveDecision {
  if (v.keepAliveMs === null || v.state !== "ready") return { sleep: false, recheckInMs: null };
  if (v.inFlight > 0 || v.otherUses > 0)
    return { sleep: false, recheckInMs: Math.min(BUSY_RECHECK_MS, Math.max(250, v.keepAliveMs)) };
  const left = v.lastUseAt + v.keepAliveMs - v.now;
  return left <= 0 ? { sleep: true } : { sleep: false, recheckInMs: left };
}
