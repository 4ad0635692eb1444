// Finds a client's executable: the override variable (PATCHBAY_CLAUDE_BIN, …) if set, else the first match on PATH
// (with PATHEXT's extensions on Windows), else the copy Patchbay's own install ships (`node_modules/.bin`: the repo
// installs the agent CLIs it tests with, so `launch` works from any folder). Never runs anything.
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** `node_modules/.bin` of Patchbay's own install (this file is `server/connect/find-binary.ts` in it). */
export const BUNDLED_BIN_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../node_modules/.bin");

/** Absolute path of `name` on `env.PATH`, or null. */
export function findOnPath(
  name: string,
  env: Record<string, string | undefined>,
  platform = process.platform,
): string | null {
  const dirs = (env.PATH ?? env.Path ?? "").split(path.delimiter).filter(Boolean);
  const exts = platform === "win32" ? ["", ...(env.PATHEXT ?? ".EXE;.CMD;.BAT").split(";")] : [""];
  for (const dir of dirs)
    for (const ext of exts) {
      const full = path.resolve(dir, name + ext);
      try {
        if (!statSync(full).isFile()) continue;
        if (platform !== "win32") accessSync(full, constants.X_OK);
        return full;
      } catch {}
    }
  return null;
}

/** The executable to run: `env[overrideVar]` when set (used as given), else {@link findOnPath}, else the one in
 *  `bundledBinDir` (default {@link BUNDLED_BIN_DIR}); null when none exists. The user's own install wins over ours. */
export function resolveClientBinary(
  bin: string,
  overrideVar: string,
  env: Record<string, string | undefined>,
  bundledBinDir = BUNDLED_BIN_DIR,
): string | null {
  const override = env[overrideVar]?.trim();
  if (override) return override;
  return findOnPath(bin, env) ?? findOnPath(bin, { PATH: bundledBinDir, PATHEXT: env.PATHEXT });
}
