// Settings store (settings.json): global settings validated by shared/settings.ts, persisted through JsonFileStore.
// Must not apply settings (binding listeners etc.); consumers subscribe with onChange.
import { Settings, SettingsPatch } from "../../shared/settings";
import { JsonFileStore } from "./json-file";
import { ensureDataDir, STORE_FILES, storePath, type StoreOptions } from "./store-paths";
import type { SettingsStore, StoreLifecycle } from "./types";
import { parseInput, presentFields } from "./validation";

/** Format version of settings.json. */
export const SETTINGS_VERSION = 1;

/**
 * Opens `<dataDir>/settings.json` (missing → defaults; corrupt → set aside, defaults, notice).
 * `update` throws PatchbayError `invalid_request_error` (bad value, `param` names the field) or `storage_error`.
 */
export async function createSettingsStore(options: StoreOptions): Promise<SettingsStore & StoreLifecycle> {
  await ensureDataDir(options.dataDir);
  const file = await JsonFileStore.open<Settings>({
    file: storePath(options.dataDir, STORE_FILES.settings),
    schema: Settings,
    version: SETTINGS_VERSION,
    defaults: () => Settings.parse({}),
    mode: 0o600,
    watch: options.watch,
    clock: options.clock,
    writeFile: options.writeFile,
    onNotice: options.onNotice,
    onInvalid: options.onInvalid,
  });
  return {
    get: () => file.get(),
    async update(patch) {
      const changes = presentFields(patch, parseInput(SettingsPatch.strict(), patch));
      return file.update((current) => ({ ...current, ...changes }));
    },
    onChange: (listener) => file.onChange(listener),
    notices: () => file.notices(),
    close: () => file.close(),
  };
}
