// Pure prune planning: which of an app's sessions its history limits would delete now. Uses session times from
// OpenCode (creation for "newest N", `time.updated` for age), never file times. No I/O, no clock of its own.
import type { HistoryLimits } from "../../shared/apps";
import { compareNewestFirst } from "./session-pager";

/** A day in ms. */
export const DAY_MS = 86_400_000;

/** What planning needs of a session. Times are epoch ms. */
export interface PrunableSession {
  id: string;
  createdAt: number;
  updatedAt: number;
}

/** Sessions the limits would delete (oldest first) and those over the limits that are running (kept). */
export interface PrunePlan<T extends PrunableSession> {
  toDelete: T[];
  skippedRunning: T[];
}

/** True when at least one limit is set (unset limits keep history forever). */
export function hasLimits(limits: HistoryLimits): boolean {
  return limits.maxSessions !== null || limits.maxAgeDays !== null;
}

/**
 * Plans a prune (issue 6): `maxSessions` keeps the newest N in list order (newest creation first, as the Sessions tab
 * shows them: "keep the first N of the list"); `maxAgeDays` deletes sessions whose last activity (`updatedAt`) is more
 * than N days before `now` (exactly N days is kept). With both, a session goes if either rule says so (the stricter
 * wins). Running sessions are never planned for deletion; they still take their place among the newest N.
 * `toDelete` is oldest first (list order reversed), so a bounded sweep removes the oldest first.
 */
export function planPrune<T extends PrunableSession>(
  sessions: readonly T[],
  limits: HistoryLimits,
  now: number,
  running: ReadonlySet<string>,
): PrunePlan<T> {
  if (!hasLimits(limits)) return { toDelete: [], skippedRunning: [] };
  const ranked = [...sessions].sort(compareNewestFirst);
  const cutoff = limits.maxAgeDays === null ? null : now - limits.maxAgeDays * DAY_MS;
  const toDelete: T[] = [];
  const skippedRunning: T[] = [];
  ranked.forEach((s, rank) => {
    const overCount = limits.maxSessions !== null && rank >= limits.maxSessions;
    const tooOld = cutoff !== null && s.updatedAt < cutoff;
    if (!overCount && !tooOld) return;
    (running.has(s.id) ? skippedRunning : toDelete).push(s);
  });
  return { toDelete: toDelete.reverse(), skippedRunning: skippedRunning.reverse() };
}

/** Up to `n` items spread evenly over `items` (first and last included), in the same order. */
export function spreadSample<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  if (n <= 1) return items.slice(0, Math.max(0, n));
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(items[Math.round((i * (items.length - 1)) / (n - 1))] as T);
  return out;
}

/** The limits resolved against the current sessions and clock, for bounded sweeps that never list everything:
 *  `boundary` is the N-th newest session in list order (null: fewer than N sessions, or no `maxSessions`), `cutoff`
 *  the age limit as epoch ms (null: no `maxAgeDays`). */
export interface PruneRule {
  boundary: { createdAt: number; id: string } | null;
  cutoff: number | null;
}

/** Resolves `limits` for a sweep; `boundary` is the N-th newest session (found by the caller). */
export function pruneRule(limits: HistoryLimits, now: number, boundary: PruneRule["boundary"]): PruneRule {
  return {
    boundary: limits.maxSessions === null ? null : boundary,
    cutoff: limits.maxAgeDays === null ? null : now - limits.maxAgeDays * DAY_MS,
  };
}

/** True when `s` is over the limits: listed after the N-th newest, or inactive since before the cutoff (same rules as
 *  {@link planPrune}). */
export function isOverLimits(s: PrunableSession, rule: PruneRule): boolean {
  return (
    (rule.boundary !== null && compareNewestFirst(s, rule.boundary) > 0) ||
    (rule.cutoff !== null && s.updatedAt < rule.cutoff)
  );
}

/** Walking a directory oldest first: once a session was created after this time, neither rule can match it or any
 *  later one (list order needs creation ≤ the boundary's, age needs creation ≤ last activity < cutoff). -Infinity
 *  when no rule applies (nothing is over). */
export function walkEnd(rule: PruneRule): number {
  return Math.max(rule.boundary?.createdAt ?? -Infinity, rule.cutoff ?? -Infinity);
}
