// The reads a prune needs: a sweep's bounded walks (the `maxSessions` boundary, each directory's oldest sessions over
// the limits) and the preview's full scan. All yield to requests between OpenCode calls; none deletes.
import path from "node:path";
import type { RawSession } from "./opencode-port";
import { isOverLimits, walkEnd, type PruneRule } from "./prune-plan";
import { runningAmong } from "./running-sessions";
import type { HistoryContext } from "./service-context";
import { fetchForPage } from "./session-list";
import { mergePage, type ListCursor, type MergedPage, type SessionKey } from "./session-pager";
import { DEFAULT_BUSY_INTERVAL_MS, yieldToRequests, type YieldGate } from "./sweep-pacing";

/** Window size of full scans: one v2 list call per 500 sessions (≈ 0.1–0.2 s of OpenCode time each). */
const SCAN_WINDOW = 500;

/** Every session of an app plus the ids running now (from one full scan). */
export interface AppScan {
  sessions: RawSession[];
  running: Set<string>;
}

/** The key of the `n`-th newest session of the app in list order (null when it has fewer), and how many sessions
 *  that took to read. Pages of at most 500 through the same merge as the session list. */
export async function nthNewest(
  ctx: HistoryContext,
  directories: readonly string[],
  n: number,
  gate: YieldGate,
): Promise<{ key: SessionKey | null; seen: number }> {
  let cursor: ListCursor | null = null;
  let seen = 0;
  for (;;) {
    const want = Math.min(500, n - seen);
    const done: string[] = cursor?.done ?? [];
    const active = directories.filter((d) => !done.includes(path.basename(d)));
    const fetches = await Promise.all(active.map((d) => fetchForPage(ctx, d, cursor, want, null, gate)));
    const merged: MergedPage<RawSession> = mergePage(fetches, cursor?.last ?? null, want, null, done);
    seen += merged.page.length;
    const last = merged.page.at(-1);
    if (seen >= n && last) return { key: { createdAt: last.createdAt, id: last.id }, seen };
    if (!merged.next) return { key: null, seen };
    cursor = merged.next;
  }
}

/** One directory's sessions over the limits, oldest first, stopping at the first session no rule can match (see
 *  `walkEnd`) or after `max` candidates; `seen` counts the sessions read. */
export async function oldestOverLimits(
  ctx: HistoryContext,
  directory: string,
  rule: PruneRule,
  max: number,
  gate: YieldGate,
): Promise<{ candidates: RawSession[]; seen: number }> {
  const end = walkEnd(rule);
  const candidates: RawSession[] = [];
  let seen = 0;
  let cursor: string | null = null;
  const window = Math.max(1, Math.min(max, SCAN_WINDOW));
  do {
    await yieldToRequests(ctx.activeRequests, gate, Infinity);
    const w = await ctx.port.listSessions(directory, { limit: window, order: "asc", ...(cursor ? { cursor } : {}) });
    for (const s of w.items) {
      seen++;
      if (s.createdAt > end) return { candidates, seen };
      if (isOverLimits(s, rule)) candidates.push(s);
      if (candidates.length >= max) return { candidates, seen };
    }
    cursor = w.next;
  } while (cursor);
  return { candidates, seen };
}

/** Every session of the app (all directories, windows of {@link SCAN_WINDOW}) and the running ones. Yields to
 *  requests between windows. */
export async function scanApp(
  ctx: HistoryContext,
  app: string,
  gate: YieldGate = { nextSlot: 0, intervalMs: DEFAULT_BUSY_INTERVAL_MS },
): Promise<AppScan> {
  const directories = await ctx.dirs.list(app);
  const perDir = await Promise.all(
    directories.map(async (d) => {
      const sessions: RawSession[] = [];
      let cursor: string | null = null;
      do {
        await yieldToRequests(ctx.activeRequests, gate, Infinity);
        const w = await ctx.port.listSessions(d, { limit: SCAN_WINDOW, ...(cursor ? { cursor } : {}) });
        sessions.push(...w.items);
        cursor = w.next;
      } while (cursor);
      return sessions;
    }),
  );
  const seen = new Set<string>();
  const sessions = perDir.flat().filter((s) => !seen.has(s.id) && seen.add(s.id) && ctx.dirs.owns(app, s.directory));
  return { sessions, running: await runningAmong(ctx, sessions) };
}
