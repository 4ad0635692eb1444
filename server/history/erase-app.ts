// Erasing an app's sessions as part of deleting the app: once an app is gone, what its clients sent and got stays
// nowhere (no later app can reach those sessions, so they would only sit in OpenCode's database). Used by the admin
// API's app delete and by `patchbay app delete` (through the running Patchbay, or its own OpenCode).
import type { HistoryService } from "./history-service";

/** What erasing needs: listing and deleting one app's sessions (the history service, or the admin view over it). */
export type SessionEraser = Pick<HistoryService, "list" | "delete">;

/** How many sessions went, and how many are left (still running after the wait, or OpenCode failed to delete). */
export interface EraseResult {
  deleted: number;
  left: number;
}

/** Options of {@link eraseAppSessions}; times in ms. */
export interface EraseOptions {
  /** How long sessions still running may hold up the erase (their runs were ended a moment ago; default 5000). */
  waitMs?: number;
  /** Pause between passes while some are running (default 250). */
  retryMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/** Every session id of `app`, all pages. */
async function allSessionIds(history: SessionEraser, app: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await history.list(app, { limit: 200, ...(cursor ? { cursor } : {}) });
    ids.push(...page.sessions.map((s) => s.id));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return ids;
}

/**
 * Deletes every session of `app` (which must still exist). Sessions still running are tried again every `retryMs`
 * for up to `waitMs`, then counted in `left`, like sessions OpenCode failed to delete. Throws what listing throws
 * (PatchbayError `backend_unavailable` / `backend_starting` while OpenCode is down, `app_not_found`).
 */
export async function eraseAppSessions(
  history: SessionEraser,
  app: string,
  opts: EraseOptions = {},
): Promise<EraseResult> {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const deadline = now() + (opts.waitMs ?? 5_000);
  let deleted = 0;
  // Bounded: each pass deletes what it can; only running sessions make another pass worth it.
  for (let pass = 0; pass < 50; pass++) {
    const ids = await allSessionIds(history, app);
    if (ids.length === 0) return { deleted, left: 0 };
    const r = await history.delete(app, ids);
    deleted += r.deleted.length;
    const left = r.running.length + r.failed.length;
    if (left === 0) continue; // a last listing confirms nothing was added meanwhile
    if (r.running.length === 0 || now() >= deadline) return { deleted, left };
    await sleep(opts.retryMs ?? 250);
  }
  return { deleted, left: (await allSessionIds(history, app)).length };
}
