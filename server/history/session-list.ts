// Listing an app's sessions: newest-first pages merged across its tool-set directories, and the summary shape the
// admin API shows. Reads only; never deletes.
import path from "node:path";
import type { SessionPage, SessionSummary } from "../../shared/admin/history";
import { InvalidOpenCodeCursorError, type RawSession } from "./opencode-port";
import { runningAmong } from "./running-sessions";
import { requireApp, type HistoryContext } from "./service-context";
import {
  decodeListCursor,
  encodeListCursor,
  mergePage,
  needsMore,
  type DirFetch,
  type ListCursor,
  type SessionKey,
} from "./session-pager";
import { yieldToRequests, type YieldGate } from "./sweep-pacing";

const DEFAULT_PAGE = 50;

/**
 * One page of the app's sessions, newest first by creation, merged across its tool-set directories. `cursor` is
 * `nextCursor` of the previous page (made for the same `search`); pages stay exact while new sessions arrive
 * (those are newer than the cursor, so they appear only when the list is restarted). `limit` 1–200 (default 50).
 * Cost: per directory one OpenCode list call of `limit` (rarely two) plus one status call per directory on the page.
 */
export async function listSessions(
  ctx: HistoryContext,
  app: string,
  q: { cursor?: string; limit?: number; search?: string } = {},
): Promise<SessionPage> {
  requireApp(ctx, app);
  const limit = Math.min(200, Math.max(1, Math.trunc(q.limit ?? DEFAULT_PAGE)));
  const search = q.search?.trim() || null;
  const cursor = q.cursor ? decodeListCursor(q.cursor, search) : null;
  const done = cursor?.done ?? [];
  const directories = (await ctx.dirs.list(app)).filter((d) => !done.includes(path.basename(d)));
  const fetches = await Promise.all(directories.map((d) => fetchForPage(ctx, d, cursor, limit, search)));
  const merged = mergePage(fetches, cursor?.last ?? null, limit, search, done);
  const running = await runningAmong(ctx, merged.page);
  return {
    sessions: merged.page.map((s) => toSummary(s, running)),
    nextCursor: merged.next ? encodeListCursor(merged.next) : null,
  };
}

/** Fetches windows from one directory until a page of `limit` can be merged (see `needsMore`). With `gate`, yields
 *  to requests in flight before each OpenCode call. Rethrows OpenCode errors except a stale cursor (restarts). */
export async function fetchForPage(
  ctx: HistoryContext,
  directory: string,
  cursor: ListCursor | null,
  limit: number,
  search: string | null,
  gate?: YieldGate,
): Promise<DirFetch<RawSession>> {
  const name = path.basename(directory);
  const after: SessionKey | null = cursor?.last ?? null;
  let start = cursor?.dirs[name] ?? null;
  const fetch: DirFetch<RawSession> = { name, windows: [] };
  // OpenCode matches `search` with SQL LIKE, where `%` and `_` are wildcards: pages keep only literal substrings.
  if (search) fetch.keep = (s) => titleContains(s.title, search);
  while (needsMore(fetch, after, limit)) {
    const from = fetch.windows.length ? (fetch.windows.at(-1)?.next ?? null) : start;
    if (gate) await yieldToRequests(ctx.activeRequests, gate, Infinity);
    try {
      const w = await ctx.port.listSessions(directory, {
        limit,
        ...(from ? { cursor: from } : {}),
        ...(search ? { search } : {}),
      });
      fetch.windows.push({ cursorUsed: from, items: w.items, next: w.next });
    } catch (err) {
      // OpenCode no longer accepts its own cursor (e.g. after an upgrade): restart this directory from its newest
      // session; the `after` filter keeps the page exact, only slower.
      if (err instanceof InvalidOpenCodeCursorError && fetch.windows.length === 0 && start !== null) {
        start = null;
        continue;
      }
      throw err;
    }
  }
  return fetch;
}

/** Case-insensitive literal substring match of a session title, the search the admin API promises. */
export function titleContains(title: string, search: string): boolean {
  return title.toLocaleLowerCase().includes(search.toLocaleLowerCase());
}

/** The admin API's view of a session; `running` holds the ids running now. */
export function toSummary(s: RawSession, running: ReadonlySet<string>): SessionSummary {
  return {
    id: s.id,
    title: s.title,
    directory: s.directory,
    toolSet: path.basename(s.directory),
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    model: s.model,
    tokens: s.tokens,
    cost: s.cost,
    running: running.has(s.id),
  };
}
