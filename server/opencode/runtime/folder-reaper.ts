// Removes tool-set folders `<dataDir>/apps/<app>/<hash>/` that nobody used for long (default 7 days) and whose
// sessions are all gone (deleted by the user or by history limits), so folder count does not grow forever with
// client tool churn. Never touches a live instance's folder or one with any session left.
import fs from "node:fs/promises";
import path from "node:path";
import { planFolderReap, type ToolsetFolderView } from "../process/reap-policy";

/** Options of {@link reapToolsetFolders}. */
export interface FolderReapOptions {
  /** `<dataDir>/apps`. */
  appsRoot: string;
  /** Directories with a live OpenCode instance. */
  liveDirectories: () => readonly string[];
  /** True when OpenCode still files at least one session under `directory` (throws when OpenCode is down). */
  hasSessions: (directory: string) => Promise<boolean>;
  now: number;
  /** Unused this long → candidate (ms). */
  maxAgeMs: number;
  /** Folders checked per run at most (each costs an OpenCode call). */
  maxPerRun?: number;
}

/** Removes the stale, session-less tool-set folders; returns the removed directories. Never throws for one folder. */
export async function reapToolsetFolders(o: FolderReapOptions): Promise<string[]> {
  const live = new Set(o.liveDirectories());
  const folders: ToolsetFolderView[] = [];
  for (const app of await readdirSafe(o.appsRoot)) {
    const appDir = path.join(o.appsRoot, app);
    for (const hash of await readdirSafe(appDir)) {
      const directory = path.join(appDir, hash);
      const marker = path.join(directory, ".patchbay", "toolset.json");
      const st = await fs.stat(marker).catch(() => null);
      if (!st) continue; // not a tool-set folder Patchbay made
      folders.push({ directory, lastUsedAt: st.mtimeMs, live: live.has(directory) });
    }
  }
  const removed: string[] = [];
  for (const directory of planFolderReap(folders, o.now, o.maxAgeMs).slice(0, o.maxPerRun ?? 50)) {
    try {
      if (await o.hasSessions(directory)) continue;
      if (o.liveDirectories().includes(directory)) continue; // a request started meanwhile
      await fs.rm(directory, { recursive: true, force: true });
      removed.push(directory);
    } catch {
      // OpenCode down or the folder busy: try again next run.
    }
  }
  return removed;
}

async function readdirSafe(dir: string): Promise<string[]> {
  try {
    return (await fs.readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  } catch {
    return [];
  }
}
