// Resolves Patchbay's data folder for the CLI. Must not create it (the stores do, with mode 0700).
import path from "node:path";
import envPaths from "env-paths";

/** The OS's usual per-user app-data folder for "Patchbay" (e.g. ~/.local/share/Patchbay on Linux). */
export function defaultDataDir(): string {
  return envPaths("Patchbay", { suffix: "" }).data;
}

/** `--data-dir` if given, else PATCHBAY_DATA_DIR if set and non-empty, else {@link defaultDataDir}; absolute. */
export function resolveDataDir(option: string | undefined, env: Record<string, string | undefined>): string {
  const chosen = option ?? (env.PATCHBAY_DATA_DIR?.trim() ? env.PATCHBAY_DATA_DIR : undefined) ?? defaultDataDir();
  return path.resolve(chosen);
}
