// Where the desktop app keeps Patchbay's data: the same folder as the headless CLI (`patchbay serve`, `patchbay app …`),
// so both see the same apps and keys. Pure; main.ts makes it Electron's userData.
import path from "node:path";

/**
 * PATCHBAY_DATA_DIR when set and non-empty, else the OS's per-user app-data folder for "Patchbay" (env-paths'
 * `data` path, which the CLI uses too: ~/.local/share/Patchbay, ~/Library/Application Support/Patchbay,
 * %LOCALAPPDATA%\Patchbay\Data). Absolute.
 */
export function desktopDataDir(env: Record<string, string | undefined>, osDefault: string): string {
  const fromEnv = env.PATCHBAY_DATA_DIR?.trim();
  return path.resolve(fromEnv ? fromEnv : osDefault);
}

/** Chromium's own session data (cache, local storage) goes to a subfolder, away from Patchbay's files. */
export function sessionDataDir(dataDir: string): string {
  return path.join(dataDir, "electron");
}
