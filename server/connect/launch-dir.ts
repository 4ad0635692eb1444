// The private folder of one `patchbay launch` run: `<dataDir>/launch/<pid>-<random>/`, mode 0700, holding the files
// the client reads for this run only (Claude Code's `--settings` file, Codex's model catalog). They may hold the app
// key, so the folder is removed when the client ends, and folders of runs whose process is gone (killed with -9)
// are removed by the next launch.
import { randomBytes } from "node:crypto";
import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";

/** `<dataDir>/launch`. */
export function launchRoot(dataDir: string): string {
  return path.join(dataDir, "launch");
}

/** True while process `pid` exists (EPERM: it exists, owned by someone else). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes the folders of earlier runs whose process is gone. Never throws (a leftover folder is only untidy). */
export async function sweepLaunchDirs(dataDir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(launchRoot(dataDir));
  } catch {
    return;
  }
  await Promise.all(
    names.map(async (name) => {
      const pid = Number(/^(\d+)-/.exec(name)?.[1]);
      if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || alive(pid)) return;
      await rm(path.join(launchRoot(dataDir), name), { recursive: true, force: true }).catch(() => {});
    }),
  );
}

/** Makes this run's folder (mode 0700) and returns its path. Throws on a file-system error. */
export async function createLaunchDir(dataDir: string): Promise<string> {
  await mkdir(launchRoot(dataDir), { recursive: true, mode: 0o700 });
  const dir = path.join(launchRoot(dataDir), `${process.pid}-${randomBytes(6).toString("hex")}`);
  await mkdir(dir, { mode: 0o700 });
  return dir;
}

/** Writes `files` (absolute path → text), each new with mode 0600. Throws on a file-system error. */
export async function writeLaunchFiles(files: Record<string, string>): Promise<void> {
  for (const [file, text] of Object.entries(files)) await writeFile(file, text, { mode: 0o600, flag: "wx" });
}

/** Removes this run's folder. Never throws. */
export async function removeLaunchDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true }).catch(() => {});
}
