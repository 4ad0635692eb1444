// The sleeping side of the supervisor (keep-alive, issue 26): the exit of the process put to sleep, and the one wake
// in progress. A wake waits for that exit, so only one OpenCode runs and the pid file always names it. Also the wait
// for the supervisor to settle.
import type { OpenCodeStatus } from "../../../shared/status";

/** Resolves once a status from `onStatus` is ready, failed or stopped, or after `timeoutMs` (default: never). */
export function untilSettled(
  onStatus: (listener: (s: OpenCodeStatus) => void) => () => void,
  timeoutMs = Infinity,
): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = Number.isFinite(timeoutMs) ? setTimeout(done, Math.max(0, timeoutMs)) : null;
    const off = onStatus((s) => {
      if (s.state === "ready" || s.state === "failed" || s.state === "stopped") done();
    });
    function done() {
      if (timer) clearTimeout(timer);
      off();
      resolve();
    }
  });
}

/** What a wake needs of the supervisor. */
export interface WakeHost {
  /** Still sleeping (not woken by another way, not stopped). */
  stillAsleep(): boolean;
  start(): Promise<void>;
  log(line: string): void;
}

/** See the module comment. */
export class WakeSlot {
  constructor(private readonly host: WakeHost) {}

  private asleep: Promise<void> = Promise.resolve();
  private waking: Promise<void> | null = null;
  /** True from a wake until the supervisor reports ready, failed or stopped ({@link settled}). */
  private inProgress = false;

  /** A wake is under way: requests may wait longer for it. */
  get active(): boolean {
    return this.inProgress;
  }

  /** Records the exit of the process put to sleep; resolves once it has exited. */
  slept(exited: Promise<unknown>): Promise<void> {
    this.asleep = exited.then(() => undefined);
    return this.asleep;
  }

  /** Starts OpenCode once the slept process has exited, unless it is no longer asleep by then. Concurrent calls
   *  share one wake. */
  wake(): Promise<void> {
    if (this.waking) return this.waking;
    this.inProgress = true;
    this.waking = (async () => {
      await this.asleep;
      if (!this.host.stillAsleep()) return;
      this.host.log("[opencode] waking up");
      await this.host.start();
    })().finally(() => {
      this.waking = null;
    });
    return this.waking;
  }

  /** The supervisor reached ready, failed or stopped: the wake (if any) is over. */
  settled(): void {
    this.inProgress = false;
  }
}
