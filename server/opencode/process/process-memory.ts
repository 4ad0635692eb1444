// Reads a process's resident memory (RSS). Linux: `VmRSS` of /proc/<pid>/status (no subprocess, cheap enough to poll
// every few seconds). macOS and other Unixes: `ps -o rss= -p <pid>` (KiB). Windows: not supported (null).
// Owns measurement only; never decides anything.
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";

/** Resident set size of `pid` in bytes, or null when the process is gone or RSS cannot be read on this platform. */
export async function readRssBytes(pid: number, platform: NodeJS.Platform = process.platform): Promise<number | null> {
  if (platform === "linux") {
    try {
      return parseProcStatusRss(await readFile(`/proc/${pid}/status`, "utf8"));
    } catch {
      return null;
    }
  }
  if (platform === "win32") return null;
  return new Promise((resolve) => {
    execFile("ps", ["-o", "rss=", "-p", String(pid)], { timeout: 2000 }, (err, stdout) => {
      const kib = Number(String(stdout).trim());
      resolve(err || !Number.isFinite(kib) || kib <= 0 ? null : kib * 1024);
    });
  });
}

/** `VmRSS` of a /proc/<pid>/status text in bytes, or null when absent (e.g. a zombie). */
export function parseProcStatusRss(text: string): number | null {
  const kib = /^VmRSS:\s+(\d+)\s+kB/m.exec(text)?.[1];
  return kib ? Number(kib) * 1024 : null;
}

/** Scheduler facts of a process (Linux /proc/<pid>/stat): its state letter (R, S, D, T = stopped, Z) and CPU time
 *  used so far in clock ticks (utime + stime, normally 100 per second). */
export interface ProcStat {
  state: string;
  cpuTicks: number;
}

/** Reads /proc/<pid>/stat (Linux only); null elsewhere or when the process is gone. */
export async function readProcStat(
  pid: number,
  platform: NodeJS.Platform = process.platform,
): Promise<ProcStat | null> {
  if (platform !== "linux") return null;
  try {
    return parseProcStat(await readFile(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return null;
  }
}

/** Parses a /proc/<pid>/stat line (the command name may contain spaces and parentheses: split after the last ")"). */
export function parseProcStat(text: string): ProcStat | null {
  const rest = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const state = rest[0];
  const utime = Number(rest[11]);
  const stime = Number(rest[12]);
  if (!state || !Number.isFinite(utime) || !Number.isFinite(stime)) return null;
  return { state, cpuTicks: utime + stime };
}
