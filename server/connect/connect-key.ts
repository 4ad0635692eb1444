// The key `connect` writes into a client's own config file. It is not launch's key: a connected config lives on after
// Patchbay's data folder changes, and launch replaces its key (revoking its lost ones) whenever launch-keys.json lost
// it, which would break every connected client sharing that key. So each connect gets a key of its own, labelled
// `patchbay connect <client>` in the dashboard, and the config file is where it is kept: connecting again reuses the
// key already in the file while it is live (nothing changes, no new key), else makes a new one.
import { keyPrefixOf } from "../stores/keys-store";
import { readLaunchKeys } from "./launch-keys";
import { LAUNCH_KEY_LABEL, type PatchbayAccess } from "./patchbay-access";

/** Label of the key connect makes for a client, as the user typed the command: `patchbay connect claude`
 *  (`name` is the client's first alias, else its id). */
export function connectKeyLabel(name: string): string {
  return `patchbay connect ${name}`;
}

/**
 * True when `key`, found in a config file, can stay there: a live key of `app` that is not launch's (a config written
 * before connect had keys of its own holds launch's key; it gets its own key the next time it is connected).
 */
export async function isReusableConnectKey(access: PatchbayAccess, app: string, key: string): Promise<boolean> {
  if ((await access.app(app)) === null) return false;
  const prefix = keyPrefixOf(key);
  if (access.keys) {
    const live = (await access.keys(app)).find((k) => k.prefix === prefix);
    return live !== undefined && live.label !== LAUNCH_KEY_LABEL;
  }
  return (await access.keyPrefixes(app)).includes(prefix) && (await readLaunchKeys(access.dataDir))[app] !== key;
}

/** The app named `app` (created on first use) and the key connect writes for the client called `name` in its
 *  command: `current` (the key in the client's config file) while {@link isReusableConnectKey}, else a new one. */
export async function ensureConnectKey(
  access: PatchbayAccess,
  app: string,
  name: string,
  current: string | null,
): Promise<{ key: string; created: boolean }> {
  if (current !== null && (await isReusableConnectKey(access, app, current))) return { key: current, created: false };
  if (!(await access.app(app))) await access.createApp(app);
  return { key: await access.createKey(app, connectKeyLabel(name)), created: true };
}
