// Samples OpenCode's memory on a timer and carries out what recycle-policy decides: hold new requests, drain the ones
// in flight, restart OpenCode through the supervisor, let the held requests in. Owns timing and the swap; the
// decision is planRecycle's and the process is the supervisor's.
import type { RecycleInfo } from "../../../shared/status";
import { planRecycle } from "./recycle-policy";
import type { RequestGate } from "../session/request-gate";

/** The part of the supervisor the recycler needs. */
export interface RecyclableProcess {
  status(): { state: string; pid: number | null };
  /** When the current process became ready (epoch ms), null when not ready. */
  readyAt(): number | null;
  /** Restarts OpenCode on purpose (no backoff, not counted as a crash); resolves once ready or failed. */
  recycle(reason: string): Promise<void>;
}

/** Options of {@link Recycler}. Times in ms, sizes in bytes. */
export interface RecyclerOptions {
  process: RecyclableProcess;
  gate: RequestGate;
  /** RSS of a pid in bytes (null = unknown). */
  readRss: (pid: number) => Promise<number | null>;
  /** Current limit in bytes (0 = off); read on every check so a settings change applies at once. */
  limitBytes: () => number;
  lowWatermarkBytes: (limit: number) => number;
  now?: () => number;
  /** Period of the memory check (default 10 000). */
  intervalMs?: number;
  /** Period of the memory check once no request ran for `idleAfterMs` (default 60 000): an idle OpenCode barely
   *  grows, and each check wakes both processes. */
  idleIntervalMs?: number;
  /** No request for this long counts as idle (default 60 000). */
  idleAfterMs?: number;
  /** Over the limit while busy this long → drain and recycle (default 30 000). */
  busyGraceMs?: number;
  /** Idle this long (and above the watermark) → recycle (default 30 min). */
  idleRecycleMs?: number;
  /** Never recycle a process younger than this (default 60 000). */
  minUptimeMs?: number;
  /** Longest wait for a moment with no request in flight before this recycle gives up (default 60 000). New
   *  requests are NOT held meanwhile: they go to the current process (issue 21 §4.1: a hold as long as a long stream
   *  held every client for a minute). */
  drainTimeoutMs?: number;
  /** Once that wait is over, new requests are held at most this long for the requests in flight to finish; then the
   *  hold is released and the recycle postponed (default 5 000). The one wait a new request can suffer from a
   *  recycle (plus the swap itself, or a start-up when no replacement could be started). */
  maxHoldMs?: number;
  log?: (line: string) => void;
  /** Starts the replacement beside the current process before requests are held; true once it answers (then
   *  `process.recycle` only swaps). Without it the hold also covers the start-up. */
  prepareSuccessor?: () => Promise<boolean>;
  /** Stops a replacement that will not be swapped in (the recycle is no longer needed, or stopping). A postponed
   *  recycle keeps its ready replacement for the next attempt: discarding it every time churned 0.5 GB processes. */
  discardSuccessor?: () => void;
  /** Called after each completed recycle. */
  onRecycle?: (info: RecycleInfo) => void;
}

/** Periodic memory check + recycle. `tick()` runs one check (tests call it directly). */
export class Recycler {
  private readonly o: RecyclerOptions;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | null = null;
  private overSince: number | null = null;
  private busy: Promise<void> | null = null;
  private checking = false;
  private last: RecycleInfo | null = null;
  private count = 0;
  private lastRss: number | null = null;
  private lastCheckAt = 0;
  private stopped = false;
  /** A ready replacement survives a postponed recycle (see `discardSuccessor`). */
  private keptSuccessor = false;

  constructor(opts: RecyclerOptions) {
    this.o = opts;
    this.now = opts.now ?? Date.now;
  }

  /** The most recent recycle, or null. */
  lastRecycle(): RecycleInfo | null {
    return this.last ? { ...this.last } : null;
  }

  /** Recycles completed since start. */
  get recycles(): number {
    return this.count;
  }

  /** OpenCode's RSS at the last check (bytes), null when unknown. */
  get lastRssBytes(): number | null {
    return this.lastRss;
  }

  /** True while a recycle (drain + restart) runs. */
  get recycling(): boolean {
    return this.busy !== null;
  }

  /** Starts the periodic check. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.o.intervalMs ?? 10_000);
    this.timer.unref();
  }

  /** Stops the check and waits for a recycle in progress (one still preparing its replacement is abandoned). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.o.discardSuccessor?.();
    await this.busy;
  }

  /** One check: sample RSS, ask the policy, recycle if it says so. Resolves after the recycle (if any). */
  async tick(): Promise<void> {
    if (this.busy) return this.busy;
    // One check at a time: reading RSS is async, and on a starved machine it can outlast the timer period; two
    // checks passing the `busy` test together would start two swaps (the second releasing the hold too early).
    if (this.checking) return;
    this.checking = true;
    try {
      await this.check();
    } finally {
      this.checking = false;
    }
    return this.busy ?? undefined;
  }

  private async check(): Promise<void> {
    const st = this.o.process.status();
    const readyAt = this.o.process.readyAt();
    if (st.state !== "ready" || st.pid === null || readyAt === null) {
      this.overSince = null;
      return;
    }
    const { gate } = this.o;
    const idle = gate.inFlight === 0 && this.now() - gate.lastActivityAt >= (this.o.idleAfterMs ?? 60_000);
    if (idle && this.now() - this.lastCheckAt < (this.o.idleIntervalMs ?? 60_000)) return;
    this.lastCheckAt = this.now();
    const rss = await this.o.readRss(st.pid);
    this.lastRss = rss;
    const limit = this.o.limitBytes();
    const now = this.now();
    if (rss !== null && limit > 0 && rss > limit) this.overSince ??= now;
    else this.overSince = null;
    const decision = planRecycle({
      now,
      rssBytes: rss,
      limitBytes: limit,
      lowWatermarkBytes: this.o.lowWatermarkBytes(limit),
      inFlight: this.o.gate.inFlight,
      lastActivityAt: this.o.gate.lastActivityAt,
      readyAt,
      overSince: this.overSince,
      busyGraceMs: this.o.busyGraceMs ?? 30_000,
      idleRecycleMs: this.o.idleRecycleMs ?? 30 * 60_000,
      minUptimeMs: this.o.minUptimeMs ?? 60_000,
    });
    if (decision.action === "none") {
      // A replacement kept from a postponed recycle is not needed any more once memory is back under the limit (a
      // process still over it, within its busy grace, keeps it for the next attempt).
      if (this.keptSuccessor && this.overSince === null) {
        this.keptSuccessor = false;
        this.o.discardSuccessor?.();
      }
      return;
    }
    this.busy = this.swap(decision.reason).finally(() => {
      this.busy = null;
    });
  }

  /** Start the replacement while requests still flow, wait (up to `drainTimeoutMs`, nobody held) for a moment with
   *  no request in flight, then hold new requests at most `maxHoldMs` while the last ones finish, swap, let everyone
   *  in. Held requests wait for that short drain and the swap, never for a long stream nor (with a replacement) a
   *  start-up. When no gap comes, the recycle is postponed: requests keep going to the current process, and the
   *  ready replacement is kept for the next attempt. */
  private async swap(reason: string): Promise<void> {
    const { gate } = this.o;
    const log = this.o.log ?? (() => {});
    let ready = false;
    if (this.o.prepareSuccessor) {
      const p0 = this.now();
      const kept = this.keptSuccessor;
      ready = await this.o.prepareSuccessor();
      if (this.stopped) return;
      this.keptSuccessor = ready;
      log(
        !ready
          ? "[opencode] no replacement could be started beside the current process; stopping it first"
          : kept
            ? "[opencode] replacement kept from the postponed attempt; swapping at the next moment with no request"
            : `[opencode] replacement ready in ${this.now() - p0} ms; swapping at the next moment with no request`,
      );
    }
    // Requests keep flowing to the current process meanwhile.
    await gate.drained(this.o.drainTimeoutMs ?? 60_000);
    if (this.stopped) return;
    gate.hold();
    const t0 = this.now();
    try {
      const drained = await gate.drained(this.o.maxHoldMs ?? 5_000);
      if (!drained) {
        // Failing long requests is worse than a big process for another round: try again later.
        log(
          `[opencode] recycle postponed: ${gate.inFlight} request(s) still running; new requests go to the current ` +
            `process${ready ? " (the replacement stays ready for the next attempt)" : ""}`,
        );
        this.overSince = null;
        return;
      }
      log(`[opencode] recycling: ${reason} (drained in ${this.now() - t0} ms)`);
      this.keptSuccessor = false;
      await this.o.process.recycle(reason);
      this.count++;
      this.overSince = null;
      this.last = { at: this.now(), reason, pauseMs: this.now() - t0 };
      this.o.onRecycle?.({ ...this.last });
      log(`[opencode] recycled in ${this.now() - t0} ms`);
    } finally {
      gate.release();
    }
  }
}
