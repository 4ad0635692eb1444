// `DELETE /admin/api/apps/:name`: the app's keys, then its sessions, then the app, one delete per app at a time.
// The request means the app that carried the name when it arrived: a delete that waited behind another, or ran while
// the app was made again under its name, never touches the new app (404 instead).
import type { AppDeleted } from "../../../../shared/admin-api";
import type { App } from "../../../../shared/apps";
import { PatchbayError } from "../../../core/errors";
import { eraseAppSessions, type EraseResult, type SessionEraser } from "../../../history/erase-app";
import type { AdminServices } from "../services";
import type { CliCommand } from "../../../core/cli-command";

/** Deletes in flight per admin service and app name (the next one for a name waits for the last). */
const inFlight = new WeakMap<AdminServices, Map<string, Promise<unknown>>>();

/**
 * Deletes `app` (as looked up when the request arrived) with its keys and, when `withSessions`, its sessions.
 * Throws PatchbayError `app_not_found` when that app is gone by its turn, `backend_unavailable` (503) when its
 * sessions cannot be reached: the keys are revoked then and the app is kept.
 */
export function deleteAppWithSessions(s: AdminServices, app: App, withSessions: boolean): Promise<AppDeleted> {
  let queue = inFlight.get(s);
  if (!queue) inFlight.set(s, (queue = new Map()));
  const before = queue.get(app.name) ?? Promise.resolve();
  const run = before.catch(() => undefined).then(() => deleteNow(s, app, withSessions));
  queue.set(app.name, run);
  void run.finally(() => queue.get(app.name) === run && queue.delete(app.name)).catch(() => undefined);
  return run;
}

async function deleteNow(s: AdminServices, app: App, withSessions: boolean): Promise<AppDeleted> {
  if (s.apps.get(app.name)?.id !== app.id)
    throw new PatchbayError("app_not_found", `There is no app named '${app.name}'.`, { param: "name" });
  // Keys first: a key must never outlive its app, even if the app deletion then fails.
  await s.keys.revokeAll(app.name);
  // Then its sessions (no request can add one now): once the app is gone nothing could reach them.
  const erased = s.history && withSessions ? await eraseOrKeep(s.history.service, app.name, s.cli) : null;
  await s.apps.delete(app.name, app.id);
  return erased ? { ok: true, sessionsDeleted: erased.deleted, sessionsLeft: erased.left } : { ok: true };
}

/**
 * Erases an app's sessions before the app goes. When OpenCode cannot be asked, throws PatchbayError 503 and the app
 * stays (its keys already revoked), so deleting again finishes the job; `?sessions=keep` deletes it without them.
 */
async function eraseOrKeep(history: SessionEraser, app: string, cli: CliCommand): Promise<EraseResult> {
  try {
    return await eraseAppSessions(history, app);
  } catch (err) {
    if (err instanceof PatchbayError && err.code === "app_not_found") throw err;
    const why = err instanceof Error ? err.message : String(err);
    throw new PatchbayError(
      "backend_unavailable",
      `The keys of app '${app}' are revoked, but its sessions could not be deleted (${why}). The app is kept ` +
        "until they can be: delete it again, or delete it and leave its sessions in OpenCode's database " +
        `(\`${cli(`app delete ${app} --keep-sessions`)}\`; admin API: \`?sessions=keep\`).`,
    );
  }
}
