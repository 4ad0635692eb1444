// Test helper: an app deleted the way the admin API and the CLI delete one at their core (keys first, then the app;
// server/http/admin/routes/app-delete.ts and server/cli/app-delete.ts add the sessions and the per-name queue).
import { PatchbayError } from "../../server/core/errors";
import type { AppsStore, KeysStore } from "../../server/stores/types";

/**
 * Deletes app `name` and every key of it. Keys go first, so a half-done delete never leaves working keys
 * for a missing app. Throws `app_not_found` (nothing changed) or `storage_error`.
 */
export async function deleteApp(apps: AppsStore, keys: KeysStore, name: string): Promise<void> {
  if (!apps.get(name)) throw new PatchbayError("app_not_found", `No app named "${name}".`);
  await keys.revokeAll(name);
  await apps.delete(name);
}
