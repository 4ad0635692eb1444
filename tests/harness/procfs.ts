// The one /proc scan of the tests (Linux): which processes a test left behind, by working directory, command line or
// environment, and whether a pid is still a live (non-zombie) process. Elsewhere (no /proc) scans find nothing.
import fs from "node:fs";

/** The command line of `pid` with its NULs as spaces; "" when it is gone or unreadable. */
export function cmdline(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
  } catch {
    return "";
  }
}

/** True while `pid` exists and is not a zombie (an unreaped zombie has already exited). Linux only. */
export function isLiveProcess(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** The process group of `pid`, null when it is gone or unreadable. Linux only. */
export function processGroup(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
  } catch {
    return null;
  }
}

/** Live processes other than this one whose pid passes `match` (read errors count as no match). */
function scan(match: (pid: number) => boolean): number[] {
  if (!fs.existsSync("/proc")) return [];
  const pids: number[] = [];
  for (const name of fs.readdirSync("/proc")) {
    const pid = Number(name);
    if (!/^\d+$/.test(name) || pid === process.pid) continue;
    try {
      if (isLiveProcess(pid) && match(pid)) pids.push(pid);
    } catch {
      // gone, or not ours to read
    }
  }
  return pids;
}

/** Live processes whose working directory or command line lies in `dir`. */
export function processesUnder(dir: string): number[] {
  return scan((pid) => {
    let cwd = "";
    try {
      cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
    } catch {
      // no cwd to read: the command line decides
    }
    return cwd.startsWith(dir) || cmdline(pid).includes(dir);
  });
}

/** Live processes whose environment mentions `marker` (e.g. a test's data dir: a server and its OpenCode child). */
export function processesMentioning(marker: string): number[] {
  return scan((pid) => fs.readFileSync(`/proc/${pid}/environ`, "latin1").includes(marker));
}
