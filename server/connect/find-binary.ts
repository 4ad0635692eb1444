// Finds a client's executable: the override variable (PATCHBAY_CLAUDE_BIN, …) if set, else the first match on PATH
// (with PATHEXT's extensions on Windows). Never runs anything.
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";

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

/** The executable to run: `env[overrideVar]` when set (used as given), else {@link findOnPath}. */
export function resolveClientBinary(
  bin: string,
  overrideVar: string,
  env: Record<string, string | undefined>,
): string | null {
  const override = env[overrideVar]?.trim();
  if (override) return override;
  return findOnPath(bin, env);
}
