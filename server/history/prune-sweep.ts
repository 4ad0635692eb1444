// Pruning by an app's history limits: the preview ("what would go now") and one bounded sweep (budget, deadline,
// pacing). Never deletes a running session or another app's; never starts sweeps by itself (see sweeper.ts).
import { performance } from "node:perf_hooks";
import type { HistoryLimits } from "../../shared/apps";
import { emptySweepResult, type PrunePreview, type SweepResult } from "../../shared/admin/history";
import type { RawSession } from "./opencode-port";
import { hasLimits, planPrune, pruneRule, spreadSample, type PruneRule } from "./prune-plan";
import { nthNewest, oldestOverLimits, scanApp } from "./prune-scan";
import { isRecent, looksRunning, runningAmong } from "./running-sessions";
import { isLive, requireApp, scope, type HistoryContext } from "./service-context";
import { toSummary } from "./session-list";
import { compareNewestFirst } from "./session-pager";
import {
  DEFAULT_BUSY_INTERVAL_MS,
  DEFAULT_SWEEP_BUDGET,
  DEFAULT_SWEEP_CONCURRENCY,
  DEFAULT_SWEEP_DEADLINE_MS,
  DEFAULT_SWEEP_PAUSE_MS,
  sleep,
  yieldToRequests,
  type YieldGate,
} from "./sweep-pacing";

/** Options of {@link pruneSessions} (HistoryService.prune). */
export interface PruneOptions {
  limits: HistoryLimits;
  /** Plan and count only. */
  dryRun?: boolean;
  /** Max deletions attempted in this sweep (default {@link DEFAULT_SWEEP_BUDGET}). */
  budget?: number;
  /** No new deletion starts after this many ms (default {@link DEFAULT_SWEEP_DEADLINE_MS}). */
  deadlineMs?: number;
  /** Deletions in flight at once (default {@link DEFAULT_SWEEP_CONCURRENCY}). */
  concurrency?: number;
  /** Pause after each deletion, per worker, ms (default {@link DEFAULT_SWEEP_PAUSE_MS}). */
  pauseMs?: number;
  /** While requests are in flight, at most one deletion per this many ms (default {@link DEFAULT_BUSY_INTERVAL_MS}). */
  busyIntervalMs?: number;
  trigger?: SweepResult["trigger"];
}

/** Re-read a directory's running sessions during a sweep at most this often, ms. */
const STATUS_REFRESH_MS = 1000;
/** A sweep gives up after this many failed deletions in a row (OpenCode down). */
const MAX_CONSECUTIVE_FAILURES = 5;

/** What a prune with `limits` would delete now (count, oldest/newest activity, up to 10 samples newest first).
 *  Cost: one full scan of the app's sessions (≈ one OpenCode list call per 1,000 sessions per directory). */
export async function previewPrune(ctx: HistoryContext, app: string, limits: HistoryLimits): Promise<PrunePreview> {
  requireApp(ctx, app);
  const scan = await scanApp(ctx, app);
  const plan = planPrune(scan.sessions, limits, ctx.now(), scan.running);
  const newestFirst = [...plan.toDelete].reverse();
  return {
    limits: { maxSessions: limits.maxSessions, maxAgeDays: limits.maxAgeDays },
    scanned: scan.sessions.length,
    count: plan.toDelete.length,
    skippedRunning: plan.skippedRunning.length,
    oldest: plan.toDelete.reduce<number | null>((m, s) => (m === null || s.updatedAt < m ? s.updatedAt : m), null),
    newest: plan.toDelete.reduce<number | null>((m, s) => (m === null || s.updatedAt > m ? s.updatedAt : m), null),
    sample: spreadSample(newestFirst, 10).map((s) => toSummary(s, scan.running)),
  };
}

/**
 * One bounded sweep, oldest first. Its cost is bounded too: it never lists the whole app, only the newest
 * `maxSessions` (to find the boundary) and, per directory, the oldest sessions up to the first one neither rule can
 * match or `budget + 1` candidates. Deletes with small concurrency until the budget or the deadline, skipping sessions
 * that are (or become) running, yielding to requests in flight (`activeRequests`). `scanned` counts the sessions
 * looked at; `remaining` is a lower bound (0: nothing left). Throws `backend_unavailable` when listing fails;
 * deletion failures are counted, and the sweep stops after 5 in a row (`error` says why).
 */
export async function pruneSessions(ctx: HistoryContext, app: string, opts: PruneOptions): Promise<SweepResult> {
  requireApp(ctx, app);
  const startedAt = ctx.now();
  const deadline = performance.now() + (opts.deadlineMs ?? DEFAULT_SWEEP_DEADLINE_MS);
  const budget = Math.max(0, Math.trunc(opts.budget ?? DEFAULT_SWEEP_BUDGET));
  const pauseMs = opts.pauseMs ?? DEFAULT_SWEEP_PAUSE_MS;
  const gate: YieldGate = { nextSlot: 0, intervalMs: opts.busyIntervalMs ?? DEFAULT_BUSY_INTERVAL_MS };
  const result: SweepResult = emptySweepResult(app, opts.trigger ?? "manual", startedAt, {
    dryRun: opts.dryRun === true,
  });
  const done = () => ({ ...result, finishedAt: ctx.now() });
  if (!hasLimits(opts.limits)) return done();

  const directories = await ctx.dirs.list(app);
  let boundary: PruneRule["boundary"] = null;
  if (opts.limits.maxSessions !== null) {
    const nth = await nthNewest(ctx, directories, opts.limits.maxSessions, gate);
    result.scanned += nth.seen;
    boundary = nth.key;
  }
  const rule = pruneRule(opts.limits, ctx.now(), boundary);
  const walks = await Promise.all(directories.map((d) => oldestOverLimits(ctx, d, rule, budget + 1, gate)));
  result.scanned += walks.reduce((n, w) => n + w.seen, 0);
  const candidates = walks.flatMap((w) => w.candidates).sort((x, y) => compareNewestFirst(y, x));
  const running = await runningAmong(ctx, candidates);
  const queue = candidates.filter((c) => !running.has(c.id));
  result.skippedRunning = candidates.length - queue.length;
  result.remaining = queue.length;
  if (opts.dryRun || queue.length === 0) return done();

  const work = queue.slice(0, budget);
  const statusAt = new Map<string, { at: number; busy: Set<string> }>();
  const isRunning = async (s: RawSession): Promise<boolean> => {
    if (isRecent(ctx, s) && (await looksRunning(ctx, s))) return true;
    if (!isLive(ctx, s.directory)) return false;
    const cached = statusAt.get(s.directory);
    if (!cached || performance.now() - cached.at > STATUS_REFRESH_MS) {
      statusAt.set(s.directory, { at: performance.now(), busy: await ctx.port.busySessions(s.directory) });
    }
    return statusAt.get(s.directory)?.busy.has(s.id) ?? false;
  };
  let next = 0;
  let handled = 0;
  let consecutiveFailures = 0;
  const worker = async () => {
    while (next < work.length && consecutiveFailures < MAX_CONSECUTIVE_FAILURES) {
      if (!(await yieldToRequests(ctx.activeRequests, gate, deadline)) || next >= work.length) break;
      const s = work[next++] as RawSession;
      try {
        if (await isRunning(s)) {
          result.skippedRunning++;
        } else if ((await ctx.port.deleteSession(s.id, scope(ctx, s.directory))) === "deleted") {
          result.removed++;
        } else {
          result.alreadyMissing++;
        }
        handled++;
        consecutiveFailures = 0;
      } catch (err) {
        result.failed++;
        consecutiveFailures++;
        result.error = `Deleting session ${s.id} failed: ${err instanceof Error ? err.message : String(err)}`;
      }
      if (pauseMs > 0) await sleep(pauseMs);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.concurrency ?? DEFAULT_SWEEP_CONCURRENCY) }, worker));
  result.remaining = queue.length - handled;
  return done();
}
