// `<dataDir>/launch-keys.json`: the full key `patchbay launch` (and doctor) made for each client's app, kept so the
// next run reuses it instead of minting a key per run (connect keeps its own key in the config file it writes). Mode 0600 (it holds secrets), atomic writes. A missing or unreadable
// file counts as empty: the caller then makes a new key, and the old one (if any) stays revocable in the dashboard.
import { readFile } from "node:fs/promises";
import path from "node:path";
import writeFileAtomic from "write-file-atomic";
import { z } from "zod";

const LaunchKeysFile = z.object({
  version: z.literal(1),
  keys: z.record(z.string(), z.string().startsWith("pb-")),
});

/** Path of the launch keys file of a data folder. */
export function launchKeysPath(dataDir: string): string {
  return path.join(dataDir, "launch-keys.json");
}

/** The saved keys by app name (empty when the file is missing or unreadable). */
export async function readLaunchKeys(dataDir: string): Promise<Record<string, string>> {
  try {
    const parsed = LaunchKeysFile.safeParse(JSON.parse(await readFile(launchKeysPath(dataDir), "utf8")));
    return parsed.success ? parsed.data.keys : {};
  } catch {
    return {};
  }
}

/** Saves `key` as the launch key of `app` (other apps' keys are kept). Throws the file-system error. */
export async function saveLaunchKey(dataDir: string, app: string, key: string): Promise<void> {
  const keys = { ...(await readLaunchKeys(dataDir)), [app]: key };
  await writeFileAtomic(launchKeysPath(dataDir), `${JSON.stringify({ version: 1, keys }, null, 2)}\n`, {
    mode: 0o600,
  });
}
