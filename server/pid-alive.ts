// Whether a process id names a live process: the one check the instance lock, the CLI's running-Patchbay probe and
// the leftover-OpenCode cleanup share.

/** True when a process with `pid` exists (EPERM counts: it exists but belongs to another user). Signal 0 checks
 *  without sending anything (kill(2)). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
