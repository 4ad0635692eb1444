// `<dataDir>/runtime.json`: where a running Patchbay can be reached (admin origin and per-launch admin token, API URL),
// so scripts and the CLI on the same data folder can use the admin API. Mode 0600: it holds a secret.
import { constants, rmSync } from "node:fs";
import { open } from "node:fs/promises";
import path from "node:path";
import writeFileAtomic from "write-file-atomic";
import { z } from "zod";

/** Contents of runtime.json. `adminToken` is valid until this Patchbay stops. */
export interface RuntimeInfo {
  pid: number;
  adminUrl: string;
  adminToken: string;
  openaiUrl: string | null;
  startedAt: number;
}

/** What a reader needs from runtime.json (the other fields may be missing in files of other versions). */
const RuntimeReach = z.object({
  pid: z.number().int().positive(),
  adminUrl: z.url({ protocol: /^https?$/ }),
  adminToken: z.string().min(1),
});
export type RuntimeReach = z.infer<typeof RuntimeReach>;

/** runtime.json is a few hundred bytes; anything much larger is not Patchbay's. */
const MAX_RUNTIME_FILE_BYTES = 64 * 1024;

/** Path of the runtime file of a data folder. */
export function runtimeFilePath(dataDir: string): string {
  return path.join(dataDir, "runtime.json");
}

/** Writes the runtime file atomically with mode 0600. Throws the file-system error. */
export async function writeRuntimeFile(dataDir: string, info: RuntimeInfo): Promise<void> {
  await writeFileAtomic(runtimeFilePath(dataDir), JSON.stringify(info, null, 2) + "\n", { mode: 0o600 });
}

/** Removes the runtime file (ignores a missing one). */
export function removeRuntimeFile(dataDir: string): void {
  rmSync(runtimeFilePath(dataDir), { force: true });
}

/**
 * Reads the runtime file of `dataDir`: pid, admin origin and token, or null when there is none or it is not a small
 * regular file with those fields (a FIFO or device is never waited on). Does not check that the pid is alive.
 */
export async function readRuntimeFile(dataDir: string): Promise<RuntimeReach | null> {
  try {
    const handle = await open(runtimeFilePath(dataDir), constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const stat = await handle.stat();
      if (!stat.isFile() || stat.size > MAX_RUNTIME_FILE_BYTES) return null;
      return RuntimeReach.parse(JSON.parse(await handle.readFile("utf8")));
    } finally {
      await handle.close();
    }
  } catch {
    return null;
  }
}
