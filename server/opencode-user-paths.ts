// Locates the current user's own OpenCode files (logins and global config), the way OpenCode itself does:
// XDG base directories with the usual fallbacks on every OS (OpenCode uses xdg-basedir everywhere).
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** Where Patchbay reads the user's own OpenCode logins and provider definitions (DESIGN §1). */
export interface UserOpenCodePaths {
  /** The user's `auth.json` (linked, never copied); null to use no logins. */
  authFile: string | null;
  /** The user's global `opencode.json` (only provider sections are taken); null for none. */
  configFile: string | null;
}

/** The user's `auth.json` and global `opencode.json[c]` (null where absent). `env` defaults to process.env. */
export function defaultUserOpenCodePaths(env: NodeJS.ProcessEnv = process.env): UserOpenCodePaths {
  const home = env.HOME || os.homedir();
  const dataHome = env.XDG_DATA_HOME || path.join(home, ".local", "share");
  const configHome = env.XDG_CONFIG_HOME || path.join(home, ".config");
  const authFile = path.join(dataHome, "opencode", "auth.json");
  const configFile = ["opencode.json", "opencode.jsonc", "config.json"]
    .map((f) => path.join(configHome, "opencode", f))
    .find((f) => existsSync(f));
  return { authFile: existsSync(authFile) ? authFile : null, configFile: configFile ?? null };
}
