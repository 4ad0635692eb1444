// Resolves Patchbay's data folder for the CLI. Must not create it (the stores do, with mode 0700).
import path from "node:path";
import envPaths from "env-paths";

/** The OS's usual per-user app-data folder for "Patchbay" (e.g. ~/.local/share/Patchbay on Linux). */
export function defaultDataDir(): string {
  return envPaths("Patchbay", { suffix: "" }).data;
}

/** `--data-dir` if given, else PATCHBAY_DATA_DIR (trimmed, as the desktop app reads it) if not blank, else
 *  {@link defaultDataDir}; absolute. */
export function resolveDataDir(option: string | undefined, env: Record<string, string | undefined>): string {
  const chosen = option ?? (env.PATCHBAY_DATA_DIR?.trim() || undefined) ?? defaultDataDir();
  return path.resolve(chosen);
}
