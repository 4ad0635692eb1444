// Operations spanning several stores (apps and keys). Must not hold state; each store persists its own part.
import { PatchbayError } from "../core/errors";
import type { AppsStore, KeysStore } from "./types";

/**
 * Deletes app `name` and every key of it. Keys go first, so a half-done delete never leaves working keys
 * for a missing app. Throws `app_not_found` (nothing changed) or `storage_error`.
 */
export async function deleteApp(apps: AppsStore, keys: KeysStore, name: string): Promise<void> {
  if (!apps.get(name)) throw new PatchbayError("app_not_found", `No app named "${name}".`);
  await keys.revokeAll(name);
  await apps.delete(name);
}
