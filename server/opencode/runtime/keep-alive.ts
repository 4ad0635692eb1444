// OpenCode keep-alive (issue 26): after the keep-alive period with nothing using OpenCode, stop it ("sleeping"); the
// next request, history call, model list, client probe (`HEAD /`) or dashboard visit starts it again. Owns the timer
// and the count of uses outside the request gate; the decision is keep-alive-policy.ts, the process the supervisor's.
import type { OpenCodeStatus } from "../../../shared/status";
import type { RequestGate } from "../session/request-gate";
import { keepAliveDecision } from "./keep-alive-policy";

/** The supervisor as the keep-alive sees it. */
export interface SleepingProcess {
  status(): OpenCodeStatus;
  onStatus(listener: (s: OpenCodeStatus) => void): () => void;
  readyAt(): number | null;
  readonly stopRequested: boolean;
  /** Stops a ready OpenCode on purpose; resolves true once it exited (false: it was not ready). */
  sleep(reason: string): Promise<boolean>;
  /** Starts a sleeping OpenCode; resolves once ready or failed. */
  wake(): Promise<void>;
}

/** Inputs of {@link KeepAlive}. */
export interface KeepAliveDeps {
  process: SleepingProcess;
  gate: RequestGate;
  /** The keep-alive in effect, ms (null = forever); read at every check, so a Settings change applies at once. */
  keepAliveMs: () => number | null;
  /** Resolves once background work that uses OpenCode (pre-warming after a start) is done; sleep waits for it. */
  quiet?: () => Promise<void>;
  log: (line: string) => void;
  now?: () => number;
  /** Called when the keep-alive's part of the status changes (a sleep). */
  onChange?: () => void;
}

/** The keep-alive part of the runtime status. */
export interface KeepAliveStatus {
  ms: number | null;
  /** When OpenCode sleeps if nothing comes (epoch ms), null when it will not (asleep, busy, forever, not ready). */
  sleepsAt: number | null;
  sleeps: number;
}

/** See the module comment. `start()` arms it, `stop()` disarms it. */
export class KeepAlive {
  private readonly now: () => number;
  private timer: NodeJS.Timeout | null = null;
  private offStatus: (() => void) | null = null;
  private uses = 0;
  private lastUseEnd = 0;
  private sleeping = false;
  private stopped = false;
  private sleepCount = 0;
  private sleepsAt: number | null = null;

  constructor(private readonly d: KeepAliveDeps) {
    this.now = d.now ?? Date.now;
  }

  /** Follows OpenCode's state and arms the timer. */
  start(): void {
    if (this.offStatus) return;
    this.stopped = false;
    this.offStatus = this.d.process.onStatus(() => this.schedule(0));
    this.schedule(0);
  }

  /** Disarms everything (Patchbay stops; the supervisor stops OpenCode itself). */
  stop(): void {
    this.stopped = true;
    this.offStatus?.();
    this.offStatus = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Re-reads the keep-alive (a Settings change) and decides again now. */
  changed(): void {
    this.schedule(0);
  }

  /** Runs `fn`, which uses OpenCode outside the request gate (history), as a use: OpenCode does not sleep under it. */
  async use<T>(fn: () => Promise<T>): Promise<T> {
    this.uses++;
    try {
      return await fn();
    } finally {
      this.uses--;
      this.lastUseEnd = this.now();
      this.schedule(0);
    }
  }

  /** Wraps every method of `port` in {@link use} (the history's OpenCode port). */
  around<T extends object>(port: T): T {
    const wrapped = {} as Record<string, unknown>;
    for (const [name, value] of Object.entries(port))
      wrapped[name] =
        typeof value === "function"
          ? (...args: unknown[]) => this.use(() => Promise.resolve((value as (...a: unknown[]) => unknown)(...args)))
          : value;
    return wrapped as T;
  }

  /** A first sign of a client (`HEAD /`, a model list, a dashboard visit): a sleeping OpenCode starts now, in the
   *  background, so the prompt that follows rarely waits for a whole start. */
  wakeEarly(why: string): void {
    if (this.d.process.status().state !== "sleeping") return;
    this.d.log(`[opencode] waking up early (${why})`);
    void this.d.process.wake();
  }

  status(): KeepAliveStatus {
    return { ms: this.d.keepAliveMs(), sleepsAt: this.sleepsAt, sleeps: this.sleepCount };
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.check();
    }, delayMs);
    this.timer.unref();
  }

  private view() {
    const { process: p, gate } = this.d;
    return {
      keepAliveMs: this.d.keepAliveMs(),
      state: p.stopRequested ? "stopped" : p.status().state,
      inFlight: gate.inFlight,
      otherUses: this.uses + (gate.isHolding ? 1 : 0) + (this.sleeping ? 1 : 0),
      lastUseAt: Math.max(gate.lastActivityAt, this.lastUseEnd, p.readyAt() ?? 0),
      now: this.now(),
    };
  }

  private async check(): Promise<void> {
    const first = keepAliveDecision(this.view());
    if (!first.sleep) return this.arm(first.recheckInMs);
    this.sleeping = true;
    try {
      await this.d.quiet?.(); // pre-warming after a start ends first (its boots are in the new process)
      // Decided again right before the stop, in the same tick: a request that came meanwhile keeps OpenCode up.
      const v = { ...this.view(), otherUses: this.uses + (this.d.gate.isHolding ? 1 : 0) };
      if (this.stopped || !keepAliveDecision(v).sleep) return;
      this.sleepsAt = null;
      const ms = v.keepAliveMs ?? 0;
      const reason = ms === 0 ? "idle" : `no model request for ${Math.round(ms / 1000)} s`;
      this.d.log(`[opencode] going to sleep (${reason}); the next request starts it again`);
      if (await this.d.process.sleep(reason)) {
        this.sleepCount++;
        this.d.onChange?.();
      }
    } finally {
      this.sleeping = false;
      this.schedule(0);
    }
  }

  private arm(recheckInMs: number | null): void {
    const v = this.view();
    this.sleepsAt =
      v.keepAliveMs !== null && v.state === "ready" && v.inFlight === 0 && v.otherUses === 0
        ? v.lastUseAt + v.keepAliveMs
        : null;
    if (recheckInMs !== null) this.schedule(recheckInMs);
  }
}
