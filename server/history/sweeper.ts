// Automatic history sweeps: after requests (coalesced, at most one per app per minute unless work is left over) and
// on a 10-minute timer, for apps that have history limits. One sweep at a time, always in the background: nothing
// here is ever awaited on the request path. Owns scheduling and the last result per app, not the pruning itself.
import { performance } from "node:perf_hooks";
import type { HistoryLimits } from "../../shared/apps";
import { emptySweepResult, type SweepResult } from "../../shared/admin/history";
import type { PruneOptions } from "./history-service";
import { hasLimits } from "./prune-plan";

/** Dependencies and tunables of {@link Sweeper}. Times in ms. */
export interface SweeperOptions {
  /** Runs one bounded sweep (HistoryService.prune). */
  prune(app: string, opts: PruneOptions): Promise<SweepResult>;
  /** The app's saved history limits; null when the app no longer exists. */
  limitsOf(app: string): HistoryLimits | null;
  /** Every app (for the timer). */
  apps(): string[];
  /** One line per sweep that found work, failed or was asked for. */
  log: (line: string) => void;
  /** Wall clock for results (epoch ms); default Date.now. */
  now?: () => number;
  /** Delay between a request and the sweep it triggers; requests meanwhile share that sweep. Default 5 000. */
  debounceMs?: number;
  /** Minimum gap between automatic sweeps of one app. Default 60 000. */
  minGapMs?: number;
  /** Gap before the next sweep when the last one left work (budget or deadline reached). Default 5 000. */
  continueAfterMs?: number;
  /** Timer period over all apps with limits. Default 600 000 (10 minutes). */
  intervalMs?: number;
  /** False while automatic sweeps must wait (OpenCode sleeps: a sweep would wake it); they are skipped, and the
   *  timer or the next request tries again. Default: always allowed. */
  automaticAllowed?: () => boolean;
  /** Budget, deadline, concurrency and pause of each sweep (defaults: HistoryService's). */
  sweep?: Pick<PruneOptions, "budget" | "deadlineMs" | "concurrency" | "pauseMs">;
}

/** Background sweeper; `start()` arms the timer, `stop()` disarms everything and waits for a running sweep. */
export class Sweeper {
  private readonly o: SweeperOptions;
  private readonly now: () => number;
  private readonly pending = new Map<string, NodeJS.Timeout>();
  private readonly last = new Map<string, SweepResult>();
  private readonly finishedAt = new Map<string, number>();
  private chain: Promise<unknown> = Promise.resolve();
  private current: string | null = null;
  private interval: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(opts: SweeperOptions) {
    this.o = opts;
    this.now = opts.now ?? Date.now;
  }

  /** Arms the periodic timer (idempotent). */
  start(): void {
    this.stopped = false;
    if (this.interval) return;
    this.interval = setInterval(() => this.onTimer(), this.o.intervalMs ?? 600_000);
    this.interval.unref();
  }

  /** Disarms timers and waits for the sweep in progress (it stops at its own deadline). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.interval) clearInterval(this.interval);
    this.interval = null;
    for (const t of this.pending.values()) clearTimeout(t);
    this.pending.clear();
    await this.chain.catch(() => {});
  }

  /** Call after each request of `app`: schedules a background sweep if the app has limits. Never throws or waits. */
  notifyRequest(app: string): void {
    if (this.stopped || this.pending.has(app)) return;
    const limits = this.o.limitsOf(app);
    if (!limits || !hasLimits(limits)) return;
    this.schedule(app, "request", Math.max(this.o.debounceMs ?? 5_000, this.untilAllowed(app)));
  }

  /** Runs a sweep of `app` now (after the one in progress, if any) and returns its result ("Prune now", CLI). A dry
   *  run is not remembered as the last sweep. Unlike automatic sweeps, it also runs when the app has no limits. */
  runNow(app: string, opts: { dryRun?: boolean } = {}): Promise<SweepResult> {
    return this.enqueue(app, "manual", opts.dryRun === true);
  }

  /** The last (non-dry-run) sweep of `app`, or null. */
  lastSweep(app: string): SweepResult | null {
    return this.last.get(app) ?? null;
  }

  /** True while a sweep of `app` runs. */
  isSweeping(app: string): boolean {
    return this.current === app;
  }

  /** Forgets an app (after it was deleted). */
  forget(app: string): void {
    const t = this.pending.get(app);
    if (t) clearTimeout(t);
    this.pending.delete(app);
    this.last.delete(app);
    this.finishedAt.delete(app);
  }

  // ---- internals -------------------------------------------------------------------------------------------------

  /** ms until an automatic sweep of `app` is allowed again. */
  private untilAllowed(app: string): number {
    const finished = this.finishedAt.get(app);
    if (finished === undefined) return 0;
    const last = this.last.get(app);
    // Left-over work continues soon; after a failure (OpenCode down) wait the normal gap instead of hammering it.
    const gap =
      last && last.remaining > 0 && !last.error ? (this.o.continueAfterMs ?? 5_000) : (this.o.minGapMs ?? 60_000);
    return Math.max(0, finished + gap - performance.now());
  }

  private schedule(app: string, trigger: SweepResult["trigger"], delayMs: number): void {
    if (this.stopped || this.pending.has(app)) return;
    const t = setTimeout(() => {
      this.pending.delete(app);
      if (this.o.automaticAllowed?.() === false) return;
      void this.enqueue(app, trigger, false).catch(() => {});
    }, delayMs);
    t.unref();
    this.pending.set(app, t);
  }

  private onTimer(): void {
    if (this.o.automaticAllowed?.() === false) return;
    for (const app of this.o.apps()) {
      const limits = this.o.limitsOf(app);
      if (limits && hasLimits(limits) && !this.pending.has(app)) void this.enqueue(app, "timer", false).catch(() => {});
    }
  }

  private enqueue(app: string, trigger: SweepResult["trigger"], dryRun: boolean): Promise<SweepResult> {
    const run = this.chain.then(() => this.runOne(app, trigger, dryRun));
    this.chain = run.catch(() => {});
    return run;
  }

  private async runOne(app: string, trigger: SweepResult["trigger"], dryRun: boolean): Promise<SweepResult> {
    const limits = this.o.limitsOf(app) ?? { maxSessions: null, maxAgeDays: null };
    const startedAt = this.now();
    this.current = app;
    let result: SweepResult;
    try {
      result = await this.o.prune(app, { ...this.o.sweep, limits, dryRun, trigger });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      result = { ...emptySweepResult(app, trigger, startedAt, { dryRun, error: message }), finishedAt: this.now() };
    } finally {
      this.current = null;
    }
    if (!dryRun) {
      this.last.set(app, result);
      this.finishedAt.set(app, performance.now());
    }
    const worked =
      result.removed + result.alreadyMissing + result.failed + result.remaining + (result.responsesRemoved ?? 0) > 0;
    if (worked || result.error || trigger === "manual") this.o.log(describeSweep(result));
    // Work left over (budget or deadline reached): continue soon, whatever started this sweep.
    if (!dryRun && result.remaining > 0 && hasLimits(limits)) this.schedule(app, trigger, this.untilAllowed(app));
    return result;
  }
}

/** The log line of a sweep. */
export function describeSweep(r: SweepResult): string {
  const counts = `scanned=${r.scanned} removed=${r.removed} alreadyMissing=${r.alreadyMissing} failed=${r.failed} skippedRunning=${r.skippedRunning} remaining=${r.remaining}${r.responsesRemoved === undefined ? "" : ` responsesRemoved=${r.responsesRemoved}`}`;
  const tail = r.error ? ` error=${JSON.stringify(r.error)}` : "";
  return `history: ${r.dryRun ? "dry-run " : ""}sweep app=${r.app} trigger=${r.trigger} ${counts} in ${r.finishedAt - r.startedAt} ms${tail}`;
}
