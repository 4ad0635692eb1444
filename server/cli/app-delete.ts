// `patchbay app delete NAME [--keep-sessions]`: its keys, then its sessions, then the app, as the dashboard does.
// With a Patchbay serving the data folder, that Patchbay does it (it also ends the app's running requests); without
// one, this command does, starting its own OpenCode for the sessions (server/cli/own-history.ts).
import { PatchbayError } from "../core/errors";
import { eraseAppSessions, type EraseResult } from "../history/erase-app";
import { appDataKey } from "../../shared/apps";
import { withStores, type CliContext } from "./context";
import { withHistory } from "./own-history";
import { noSuchApp } from "./cli-hint";

/** What was removed; `sessionsDeleted` null when the sessions were kept (`--keep-sessions`). */
export interface AppDeleteResult {
  keysRevoked: number;
  sessionsDeleted: number | null;
  /** Sessions still running after a short wait, or refused by OpenCode: they stay. */
  sessionsLeft: number;
}

/**
 * Deletes app `name` with its keys and (unless `keepSessions`) its sessions. Throws PatchbayError `app_not_found`,
 * or `backend_unavailable` when the sessions cannot be reached: the keys are revoked then, the app is kept, and
 * the message says how to finish (again, or with `--keep-sessions`).
 */
export async function deleteAppWithSessions(
  ctx: CliContext,
  name: string,
  keepSessions: boolean,
): Promise<AppDeleteResult> {
  const { findRunningPatchbay } = await import("../connect/running-patchbay");
  const running = await findRunningPatchbay(ctx.dataDir());
  if (running) {
    const keysRevoked = (await running.client.listKeys({ params: { name } })).keys.length;
    const r = await running.client.deleteApp({ params: { name }, query: keepSessions ? { sessions: "keep" } : {} });
    return { keysRevoked, sessionsDeleted: r.sessionsDeleted ?? null, sessionsLeft: r.sessionsLeft ?? 0 };
  }
  // Keys first, as everywhere: a key never outlives its app, even when the rest fails. The app is pinned by id and
  // data key from here on: one made again under its name meanwhile (another process) is never touched.
  const { keysRevoked, app } = await withStores(ctx, async ({ apps, keys }) => {
    const found = apps.get(name);
    if (!found) throw noSuchApp(ctx, name);
    const count = keys.list(name).length;
    await keys.revokeAll(name);
    return { keysRevoked: count, app: found };
  });
  let erased: EraseResult | null = null;
  if (!keepSessions) {
    try {
      // While the app still exists: its data key names the folders its sessions are filed under.
      erased = await withHistory(ctx, {}, (history) => eraseAppSessions(history, name), {
        app: name,
        dataKey: appDataKey(app),
      });
    } catch (err) {
      throw new PatchbayError(
        "backend_unavailable",
        `The keys of app "${name}" are revoked, but its sessions could not be deleted ` +
          `(${err instanceof Error ? err.message : String(err)}). The app is kept until they can be: run this ` +
          "again, or add --keep-sessions to delete the app and leave its sessions in OpenCode's database.",
      );
    }
  }
  await withStores(ctx, ({ apps }) => apps.delete(name, app.id));
  return { keysRevoked, sessionsDeleted: erased?.deleted ?? null, sessionsLeft: erased?.left ?? 0 };
}
