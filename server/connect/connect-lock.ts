// One connect or undo at a time per client config file, across processes (the CLI, the dashboard's admin API, the
// tray): a proper-lockfile lock on `<dataDir>/connect-backups/<client>-<path id>`. Without it, two applies at once (a
// double click, or the CLI beside the dashboard) could both find no backup record; the second then took Patchbay's
// own output as "the original", and undo could not restore the user's file. The lock holder reads, backs up and
// writes; the other waits for it and then sees the record.
import { mkdir } from "node:fs/promises";
import lockfile from "proper-lockfile";
import { PatchbayError } from "../core/errors";

/** A lock is stale (its holder died) after this long without an update (ms). */
const STALE_MS = 10_000;
/** How long a second apply waits for the first before giving up (about 15 s of retries). */
const RETRIES = { retries: 60, factor: 1.2, minTimeout: 20, maxTimeout: 500 };

/**
 * Runs `fn` holding the lock named `lockPath` (a path inside `dir`, which is created; no file needs to exist there).
 * Throws PatchbayError `conflict` when another connect holds it for longer than the retries allow.
 */
export async function withConnectLock<T>(dir: string, lockPath: string, fn: () => Promise<T>): Promise<T> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(lockPath, {
      realpath: false,
      stale: STALE_MS,
      update: STALE_MS / 5,
      retries: RETRIES,
      // Default would throw from a timer; the write it guards is atomic, so a lost lock is only reported.
      onCompromised: () => {},
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ELOCKED")
      throw new PatchbayError(
        "conflict",
        "Another connect or undo of this file is still running; try again when it has finished.",
      );
    throw err;
  }
  try {
    return await fn();
  } finally {
    await release().catch(() => {});
  }
}
