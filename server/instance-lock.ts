// One running Patchbay per data folder: a cross-process lock (`<dataDir>/patchbay.lock`, proper-lockfile) held from
// start to stop. A second start on the same folder is refused with where the first one runs; nothing of the first
// (its runtime.json, its OpenCode) is touched. Must not decide anything else about starting.
import { readFileSync } from "node:fs";
import path from "node:path";
import lockfile from "proper-lockfile";
import { PatchbayError } from "./core/errors";
import { runtimeFilePath } from "./runtime-file";
import { pidAlive } from "./pid-alive";
import { cliCommandFor } from "./connect/patchbay-command";

/** A lock not refreshed for this long belongs to a crashed Patchbay and is taken over (ms). */
const STALE_MS = 10_000;
/** How long a start waits for a lock whose holder cannot be identified (a Patchbay still starting, or a crashed one
 *  whose lock is about to go stale) before giving up (ms). */
const WAIT_MS = STALE_MS + 3_000;

/** Test seams. */
export interface InstanceLockOptions {
  /** Epoch-ms deadline source (default Date.now). */
  now?: () => number;
  /** Reports a lost lock (e.g. the folder vanished); the running Patchbay keeps running. */
  onCompromised?: (message: string) => void;
}

/** Where another Patchbay on the same folder can be reached, from its runtime.json (null fields when unknown). */
interface Holder {
  pid: number;
  adminUrl: string | null;
  openaiUrl: string | null;
}

function readHolder(dataDir: string): Holder | null {
  try {
    const raw = JSON.parse(readFileSync(runtimeFilePath(dataDir), "utf8")) as Record<string, unknown>;
    if (typeof raw.pid !== "number" || !pidAlive(raw.pid) || raw.pid === process.pid) return null;
    return {
      pid: raw.pid,
      adminUrl: typeof raw.adminUrl === "string" ? raw.adminUrl : null,
      openaiUrl: typeof raw.openaiUrl === "string" ? raw.openaiUrl : null,
    };
  } catch {
    return null;
  }
}

/** The message of a refused second start: which instance runs and how to reach it. */
export function describeRunningInstance(dataDir: string, holder: Holder | null): string {
  const where = holder
    ? ` (pid ${holder.pid}${holder.openaiUrl ? `, OpenAI API ${holder.openaiUrl}` : ""}${
        holder.adminUrl ? `, dashboard ${holder.adminUrl}` : ""
      })`
    : "";
  const cli = cliCommandFor(dataDir);
  return (
    `Another Patchbay is already running on the data folder ${dataDir}${where}. Use that one: its API and ` +
    `dashboard stay as they are, and \`${cli("app …")}\` / \`${cli("key …")}\` work alongside ` +
    `it. ` +
    `To run a second one, stop the first or pass another --data-dir.`
  );
}

/**
 * Takes the instance lock of `dataDir` (which must exist). Resolves to the release function. Throws PatchbayError
 * `conflict` (409) naming the running instance (pid, URLs from its runtime.json) when another Patchbay holds it.
 */
export async function acquireInstanceLock(
  dataDir: string,
  options: InstanceLockOptions = {},
): Promise<() => Promise<void>> {
  const now = options.now ?? Date.now;
  const deadline = now() + WAIT_MS;
  for (;;) {
    try {
      return await lockfile.lock(dataDir, {
        lockfilePath: path.join(dataDir, "patchbay.lock"),
        realpath: false,
        stale: STALE_MS,
        update: STALE_MS / 5,
        retries: 0,
        // The default throws from a timer (crashing the process); a lost lock must not take the server down.
        onCompromised: (err) => options.onCompromised?.(`the data folder's instance lock was lost: ${err.message}`),
      });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ELOCKED") throw err;
      const holder = readHolder(dataDir);
      // A live holder that published where it runs: refuse at once. Otherwise it may be starting (no runtime.json
      // yet) or dead (its lock goes stale within STALE_MS): wait a little.
      if (holder || now() > deadline) {
        throw new PatchbayError("conflict", describeRunningInstance(dataDir, holder));
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
