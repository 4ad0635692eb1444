// Deleting sessions on request (admin API, CLI): only the app's own sessions, never a running one. Bounded sweeps
// live in prune-sweep.ts.
import type { DeleteSessionsResult } from "../../shared/admin/history";
import { PatchbayError } from "../core/errors";
import { mapLimit } from "./map-limit";
import type { RawSession } from "./opencode-port";
import { runningAmong } from "./running-sessions";
import { requireApp, scope, type HistoryContext } from "./service-context";

/**
 * Deletes sessions of `app`. Running sessions are never deleted (`running`); unknown ids and other apps' sessions
 * are `missing`; OpenCode errors per session are `failed`. Throws `app_not_found`.
 */
export async function deleteSessions(
  ctx: HistoryContext,
  app: string,
  ids: readonly string[],
): Promise<DeleteSessionsResult> {
  requireApp(ctx, app);
  const unique = [...new Set(ids)];
  const result: DeleteSessionsResult = { deleted: [], missing: [], running: [], failed: [] };
  const found = await mapLimit(unique, 8, (id) => ctx.port.getSession(id));
  const owned: RawSession[] = [];
  unique.forEach((id, i) => {
    const s = found[i];
    if (!s || !ctx.dirs.owns(app, s.directory)) result.missing.push(id);
    else owned.push(s);
  });
  const running = await runningAmong(ctx, owned);
  const deletable = owned.filter((s) => {
    if (!running.has(s.id)) return true;
    result.running.push(s.id);
    return false;
  });
  await mapLimit(deletable, 4, async (s) => {
    try {
      const r = await ctx.port.deleteSession(s.id, scope(ctx, s.directory));
      (r === "deleted" ? result.deleted : result.missing).push(s.id);
    } catch (err) {
      result.failed.push({ id: s.id, message: err instanceof Error ? err.message : String(err) });
    }
  });
  return result;
}

/** Deletes one session. Throws `session_running` (409) while it runs, `session_not_found` (404) when unknown or
 *  another app's, `backend_unavailable` when OpenCode fails. */
export async function deleteOneSession(ctx: HistoryContext, app: string, sessionId: string): Promise<void> {
  const r = await deleteSessions(ctx, app, [sessionId]);
  if (r.running.length) {
    throw new PatchbayError(
      "session_running",
      `Session ${sessionId} is still running, so it was not deleted. Wait for its request to finish (or cancel it), then delete it.`,
    );
  }
  if (r.missing.length) throw new PatchbayError("session_not_found", `App '${app}' has no session ${sessionId}.`);
  const failure = r.failed[0];
  if (failure)
    throw new PatchbayError(
      "backend_unavailable",
      `OpenCode could not delete session ${sessionId}: ${failure.message}`,
    );
}
