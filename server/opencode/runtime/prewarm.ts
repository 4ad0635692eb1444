// Boots the most recently used tool-set instances of each app in the background after OpenCode (re)starts, so the
// first request of a tool set a client keeps using does not pay the instance boot (1–2 s, 4–8 s on a busy machine).
// "Recently used" is the mtime of each folder's `.patchbay/toolset.json`, touched on every lease: it lives in the data
// folder and survives restarts without a file of its own. Owns the choice and the order; booting is the caller's.
import fs from "node:fs/promises";
import path from "node:path";

/** A tool-set folder and when it was last used (epoch ms). */
export interface RecentFolder {
  app: string;
  directory: string;
  usedAt: number;
}

/** Tool-set folders under `<dataDir>/apps`, newest use first. */
export async function listToolsetFolders(appsRoot: string): Promise<RecentFolder[]> {
  const out: RecentFolder[] = [];
  for (const app of await dirs(appsRoot)) {
    for (const hash of await dirs(path.join(appsRoot, app))) {
      const directory = path.join(appsRoot, app, hash);
      const st = await fs.stat(path.join(directory, ".patchbay", "toolset.json")).catch(() => null);
      if (st) out.push({ app, directory, usedAt: st.mtimeMs });
    }
  }
  return out.sort((a, b) => b.usedAt - a.usedAt);
}

/**
 * Which folders to boot (pure): the `perApp` most recent of each app used within `maxAgeMs`, newest first, at most
 * `maxTotal` (keep it ≤ the live-instance cap, or prewarming evicts its own work).
 */
export function planPrewarm(
  folders: readonly RecentFolder[],
  o: { now: number; perApp: number; maxTotal: number; maxAgeMs: number },
): string[] {
  const perApp = new Map<string, number>();
  const picked: string[] = [];
  for (const f of [...folders].sort((a, b) => b.usedAt - a.usedAt)) {
    if (picked.length >= o.maxTotal) break;
    if (o.now - f.usedAt > o.maxAgeMs) continue;
    const n = perApp.get(f.app) ?? 0;
    if (n >= o.perApp) continue;
    perApp.set(f.app, n + 1);
    picked.push(f.directory);
  }
  return picked;
}

async function dirs(dir: string): Promise<string[]> {
  try {
    return (await fs.readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  } catch {
    return [];
  }
}
