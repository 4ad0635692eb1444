// Locates the current user's own OpenCode files (logins and global config), the way OpenCode itself does:
// XDG base directories with the usual fallbacks on every OS (OpenCode uses xdg-basedir everywhere).
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { UserOpenCodePaths } from "./patchbay-types";

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
