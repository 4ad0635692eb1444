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
