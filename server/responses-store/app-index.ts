// Where an app's stored responses are (folder, shard) and its index of them: ids and creation times, oldest first,
// read from the folder names alone (ids carry their creation time); the head of a record file (its `parent`) without
// reading the whole file. Path and list helpers and the reads; the store owns when to use them.
import fsp from "node:fs/promises";
import path from "node:path";
import { removeStaleTemps } from "../stores/stale-temps";
import { errnoCode, storageError } from "../stores/storage-error";
import { AppDataKey } from "../../shared/apps";
import { createdAtOfId } from "./record";

/** The app's response folder under `root`, named by its data key (shared/apps.ts `appDataKey`: no separators). */
export function appDir(root: string, app: string): string {
  if (!AppDataKey.safeParse(app).success) throw new Error(`invalid app data key for the response store: ${app}`);
  return path.join(root, app);
}

/** Shard folder of an id: its last two hex digits (256 folders; ~400 files each at 100,000 responses). */
export function shardOf(id: string): string {
  return id.slice(-2);
}

/** One row of an app's index: id and creation time (epoch ms). */
export interface IndexedResponse {
  id: string;
  createdAt: number;
}

/** Reads an app's shard folders into an index sorted oldest first. A missing folder is an empty index. */
export async function scanApp(dir: string): Promise<IndexedResponse[]> {
  let shards: string[];
  try {
    shards = await fsp.readdir(dir);
  } catch (err) {
    if (errnoCode(err) === "ENOENT") return [];
    throw storageError("list stored responses in", dir, err);
  }
  const out: IndexedResponse[] = [];
  for (const shard of shards) {
    let names: string[];
    try {
      // Writes killed midway left temp files here; they never become records.
      await removeStaleTemps(path.join(dir, shard));
      names = await fsp.readdir(path.join(dir, shard));
    } catch {
      continue;
    }
    for (const name of names) {
      if (!name.endsWith(".json")) continue;
      const id = name.slice(0, -5);
      const createdAt = createdAtOfId(id);
      if (createdAt !== null) out.push({ id, createdAt });
    }
  }
  return out.sort(compareOldestFirst);
}

/** Oldest first; ids break ties. */
function compareOldestFirst(a: IndexedResponse, b: IndexedResponse): number {
  return a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Inserts `row` at its place (nothing when its id is there). */
export function insertSorted(index: IndexedResponse[], row: IndexedResponse): void {
  if (index.some((r) => r.id === row.id)) return;
  let i = index.length;
  while (i > 0 && compareOldestFirst(index[i - 1] as IndexedResponse, row) > 0) i--;
  index.splice(i, 0, row);
}

/** Removes the row of `id`, if any. */
export function removeId(index: IndexedResponse[], id: string): void {
  const i = index.findIndex((r) => r.id === id);
  if (i >= 0) index.splice(i, 1);
}

/** The first bytes of `file` (where a record's `parent` is), or null when it cannot be read. */
export async function readHead(file: string | null): Promise<string | null> {
  if (!file) return null;
  const handle = await fsp.open(file, "r").catch(() => null);
  if (!handle) return null;
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(512), 0, 512, 0);
    return buffer.toString("utf8", 0, bytesRead);
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}
