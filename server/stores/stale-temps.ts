// Removes the temp files an atomic write leaves when its process is killed mid-write (`kill -9`, power loss):
// write-file-atomic writes `<file>.<number>` and renames it over `<file>`; a killed writer never renames or unlinks it.
// Only files old enough that no live writer can still own them are removed.
import fs from "node:fs/promises";
import path from "node:path";

/** write-file-atomic's temp name: the target's name, a dot, and a decimal murmur hash. */
const TEMP_NAME = /^(.+\.json)\.\d{1,12}$/;

/** A temp file younger than this may belong to a write in flight (another process's included); it is kept (ms). */
export const STALE_TEMP_MS = 60_000;

/**
 * Deletes stale atomic-write temp files (`<name>.json.<digits>`, older than {@link STALE_TEMP_MS}) directly in `dir`.
 * Returns the names removed. Never throws (a folder that cannot be read is skipped).
 */
export async function removeStaleTemps(dir: string, now: number = Date.now()): Promise<string[]> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!TEMP_NAME.test(name)) continue;
    const file = path.join(dir, name);
    try {
      const st = await fs.lstat(file);
      if (!st.isFile() || now - st.mtimeMs < STALE_TEMP_MS) continue;
      await fs.unlink(file);
      removed.push(name);
    } catch {
      // Gone meanwhile, or not ours to remove: leave it.
    }
  }
  return removed;
}
