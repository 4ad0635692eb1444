// Stops an `opencode serve` that an earlier Patchbay run on this data folder left behind (its guard and server were
// SIGKILLed, the machine slept through a crash…), so two OpenCodes never share one database. Must only ever signal a
// process proven to be ours: the pid recorded by the child guard, whose environment names this very pid file.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { pidAlive } from "../../pid-alive";

/** Environment variable through which the child guard learns where to record OpenCode's pid. */
export const PIDFILE_ENV = "PATCHBAY_OPENCODE_PIDFILE";

/** How long a leftover gets to exit after SIGTERM before SIGKILL (ms). */
const TERM_GRACE_MS = 3000;

/** Where the child guard records the pid of the running OpenCode of `dataDir` (inside its OpenCode home). */
export function openCodePidFile(dataDir: string): string {
  return path.join(dataDir, "opencode", "run", "opencode.pid");
}

/** SIGKILLs OpenCode's process group (the guard starts it as a group leader) and the pid itself. Never throws. */
export function killOpenCodeGroup(pid: number, signal: NodeJS.Signals = "SIGKILL"): void {
  if (process.platform !== "win32") {
    try {
      process.kill(-pid, signal);
    } catch {}
  }
  try {
    process.kill(pid, signal);
  } catch {}
}

/**
 * True when `pid` is an OpenCode started for this pid file: on Linux its environment holds
 * `PATCHBAY_OPENCODE_PIDFILE=<pidFile>`; elsewhere (no /proc) its command line must at least be `… opencode… serve`.
 */
export function isOurOpenCode(pid: number, pidFile: string): boolean {
  if (existsSync("/proc")) {
    try {
      return readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(`${PIDFILE_ENV}=${pidFile}`);
    } catch {
      return false;
    }
  }
  if (process.platform === "win32") return false;
  try {
    const command = execFileSync("ps", ["-p", String(pid), "-o", "command="], { encoding: "utf8" });
    return /opencode/i.test(command) && /\bserve\b/.test(command);
  } catch {
    return false;
  }
}

/**
 * Reads the pid file of `dataDir`; a recorded OpenCode that still runs and is verifiably ours is stopped (its group
 * gets SIGTERM, then SIGKILL after 3 s). The pid file is removed. Returns the pid stopped, else null. Call it only
 * while holding the data folder's instance lock, so it never hits the OpenCode of a running Patchbay.
 */
export async function stopLeftoverOpenCode(dataDir: string, log: (line: string) => void): Promise<number | null> {
  const pidFile = openCodePidFile(dataDir);
  let pid: number;
  let owner: { guard: number; parent: number } | null = null;
  try {
    const parsed: unknown = JSON.parse(readFileSync(pidFile, "utf8"));
    const record = typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
    if (!isPid(record.pid)) throw new Error("no pid");
    pid = record.pid;
    if (isPid(record.guard) && isPid(record.parent)) owner = { guard: record.guard, parent: record.parent };
  } catch {
    rmSync(pidFile, { force: true });
    return null;
  }
  // Started by a Patchbay command that still runs (e.g. `patchbay sessions`, which starts its own OpenCode for a
  // moment): not a leftover. Its guard stops it when that command ends; the file stays for it.
  if (owner && ownerStillRuns(owner, pidFile)) {
    log(
      `an OpenCode (pid ${pid}) started by another Patchbay command (pid ${owner.parent}) is running on this data ` +
        `folder; it is left to finish`,
    );
    return null;
  }
  try {
    if (!pidAlive(pid) || !isOurOpenCode(pid, pidFile)) return null;
    log(`stopping OpenCode (pid ${pid}) left running by an earlier Patchbay on this data folder`);
    killOpenCodeGroup(pid, "SIGTERM");
    const deadline = Date.now() + TERM_GRACE_MS;
    while (pidAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    if (pidAlive(pid)) killOpenCodeGroup(pid, "SIGKILL");
    return pid;
  } finally {
    rmSync(pidFile, { force: true });
  }
}

function isPid(v: unknown): v is number {
  return typeof v === "number" && Number.isInteger(v) && v > 1;
}

/** True when the guard that recorded the pid file still runs (verifiably ours) under a live parent other than us. */
function ownerStillRuns(owner: { guard: number; parent: number }, pidFile: string): boolean {
  if (owner.parent === process.pid || !pidAlive(owner.parent)) return false;
  return pidAlive(owner.guard) && isOurOpenCode(owner.guard, pidFile);
}
