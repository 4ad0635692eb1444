// `<dataDir>/runtime.json`: where a running Patchbay can be reached (admin origin and per-launch admin token, API URL),
// so scripts and the CLI on the same data folder can use the admin API. Mode 0600: it holds a secret.
import { rmSync } from "node:fs";
import path from "node:path";
import writeFileAtomic from "write-file-atomic";

/** Contents of runtime.json. `adminToken` is valid until this Patchbay stops. */
export interface RuntimeInfo {
  pid: number;
  adminUrl: string;
  adminToken: string;
  openaiUrl: string | null;
  startedAt: number;
}

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
