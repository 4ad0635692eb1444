// The replacement OpenCode of a recycle: started beside the current process, warmed, and kept ready until the swap
// (OpenCodeSupervisor.recycle takes it) or discarded (postponed recycle, crash, stop). Only the bookkeeping of that
// one slot; spawning and retiring are the supervisor's.
import type { Running } from "./child-process";
import { clientFactory, type ClientFactory, type OpenCodeConnection } from "./connection";

/** Boots what the first requests after the swap need, with clients of the successor. */
export type WarmSuccessor = (client: ClientFactory) => Promise<void>;

/** What the slot needs from its supervisor. */
export interface SuccessorHost {
  log(line: string): void;
  /** Spawns a process whose guard defers its pid file; null after `onProblem` when it could not be spawned. */
  spawnDeferred(onProblem: (reason: string) => void): Promise<Running | null>;
  /** Stops a process that is not (or no longer) current. */
  retire(run: Running): void;
  /** Asks the current process's guard to (re)write the pid file. */
  recordPid(): void;
  stopping(): boolean;
}

/** A successor being prepared (`run` is set once spawned) or ready to take over. */
interface Successor {
  run: Running | null;
  ready: boolean;
  done: Promise<boolean>;
  warm: WarmSuccessor | null;
  settle(ok: boolean): void;
}

/** At most one successor at a time. */
export class SuccessorSlot {
  private successor: Successor | null = null;

  constructor(private readonly host: SuccessorHost) {}

  /** True for the successor's process (being prepared or ready). */
  holds(run: Running): boolean {
    return this.successor !== null && this.successor.run === run;
  }

  /** Spawns the successor (only when `canStart`: the current process is ready and no stop is under way); resolves
   *  true once it answers and `warm` ran, false when it could not start. Idempotent while one is being prepared. */
  prepare(warm: WarmSuccessor | undefined, canStart: boolean): Promise<boolean> {
    if (this.successor) return this.successor.done;
    if (!canStart) return Promise.resolve(false);
    let settle!: (ok: boolean) => void;
    const done = new Promise<boolean>((r) => (settle = r));
    const successor: Successor = {
      run: null,
      ready: false,
      done,
      warm: warm ?? null,
      settle: (ok) => {
        if (this.successor === successor) {
          successor.ready = ok;
          if (!ok) this.successor = null;
        }
        settle(ok);
      },
    };
    this.successor = successor;
    void this.host
      .spawnDeferred((problem) => {
        this.host.log(`[opencode] could not start a replacement OpenCode: ${problem}`);
        successor.settle(false);
      })
      .then((run) => {
        if (!run) return;
        successor.run = run;
        if (this.successor !== successor || this.host.stopping()) this.host.retire(run);
      });
    return done;
  }

  /** Takes a ready successor's process for the swap (null when none is ready, or it exited); empties the slot. */
  take(): Running | null {
    const run = this.successor?.ready ? this.successor.run : null;
    this.successor = null;
    return run && !run.hasExited && run.url ? run : null;
  }

  /** Stops the successor (its prepare() promise resolves false). No-op without one. */
  discard(): void {
    const successor = this.successor;
    if (!successor) return;
    successor.settle(false);
    this.successor = null;
    // `run` is unset until spawned; the spawn callback retires it then.
    if (successor.run) {
      const run = successor.run;
      this.host.retire(run);
      // Its guard removes the shared pid file on exit: record the current process again.
      void run.exited.then(() => this.host.recordPid());
    }
  }

  /** The successor's process answers health at `conn`: warm it, then it is ready. */
  async answered(run: Running, conn: OpenCodeConnection): Promise<void> {
    const successor = this.successor;
    if (!successor || successor.run !== run) return;
    if (successor.warm)
      await successor
        .warm(clientFactory(conn))
        .catch((err: unknown) => this.host.log(`[opencode] warming the replacement failed: ${String(err)}`));
    successor.settle(!run.hasExited);
  }

  /** The successor's process exited before taking over. */
  exited(run: Running, reason: string): void {
    if (!this.holds(run)) return;
    this.host.log(`[opencode] the replacement OpenCode exited before taking over: ${reason}`);
    this.successor?.settle(false);
  }
}
