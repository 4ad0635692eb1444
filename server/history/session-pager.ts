// Pure planning for listing an app's sessions across its tool-set directories, newest first: the sort key, our own
// composite cursor (last emitted key + OpenCode's per-directory cursors) and the k-way merge of fetched windows.
// No I/O: the history service fetches the windows this module asks for.
import { z } from "zod";
import { invalidRequest } from "../core/errors";

/** The order key: newest creation first, then id descending (ids are unique, so the order is total). */
export interface SessionKey {
  createdAt: number;
  id: string;
}

/** Negative when `a` is listed before `b`. */
export function compareNewestFirst(a: SessionKey, b: SessionKey): number {
  if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** True when `a` comes strictly after `key` in list order (so it has not been emitted by a page ending at `key`). */
export function isAfter(a: SessionKey, key: SessionKey | null): boolean {
  return key === null || compareNewestFirst(a, key) > 0;
}

/** Decoded list cursor. `dirs[name]`: OpenCode cursor of the window holding that directory's first unlisted session
 *  (null: from its start); `done`: directories with nothing left. Directories in neither start from scratch (new
 *  tool sets; their sessions are newer than `last`, so they are filtered out). */
export interface ListCursor {
  /** The search the cursor was made for (a cursor is only valid with the same search). */
  q: string | null;
  last: SessionKey;
  dirs: Record<string, string | null>;
  done: string[];
}

const ListCursorWire = z.object({
  v: z.literal(1),
  q: z.string().nullable(),
  last: z.tuple([z.number(), z.string()]),
  dirs: z.record(z.string(), z.string().nullable()),
  done: z.array(z.string()),
});

/** Encodes a cursor as base64url JSON (opaque to clients). */
export function encodeListCursor(c: ListCursor): string {
  const wire: z.input<typeof ListCursorWire> = {
    v: 1,
    q: c.q,
    last: [c.last.createdAt, c.last.id],
    dirs: c.dirs,
    done: c.done,
  };
  return Buffer.from(JSON.stringify(wire)).toString("base64url");
}

/** Decodes a cursor; throws PatchbayError 400 (param `cursor`) when it is malformed or made for another search. */
export function decodeListCursor(raw: string, search: string | null): ListCursor {
  let parsed: z.infer<typeof ListCursorWire>;
  try {
    parsed = ListCursorWire.parse(JSON.parse(Buffer.from(raw, "base64url").toString("utf8")));
  } catch {
    throw invalidRequest("The cursor is not valid; start again from the first page.", "cursor");
  }
  if (parsed.q !== search)
    throw invalidRequest("The cursor belongs to a different search; start again from the first page.", "cursor");
  return { q: parsed.q, last: { createdAt: parsed.last[0], id: parsed.last[1] }, dirs: parsed.dirs, done: parsed.done };
}

/** One window fetched from a directory: the cursor it was fetched with, its items, OpenCode's cursor after it. */
export interface DirWindow<T extends SessionKey> {
  cursorUsed: string | null;
  items: T[];
  /** Null when the directory has nothing after this window. */
  next: string | null;
}

/** The windows fetched from one directory for one page, in fetch order. */
export interface DirFetch<T extends SessionKey> {
  /** Directory name as stored in the cursor (the tool-set folder name). */
  name: string;
  windows: DirWindow<T>[];
  /** Keeps only the items that belong on a page (e.g. a literal title search OpenCode matched more loosely). The
   *  windows keep every item OpenCode sent, so cursors and the end of a directory stay exact. */
  keep?: (item: T) => boolean;
}

function candidates<T extends SessionKey>(fetch: DirFetch<T>, after: SessionKey | null): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const w of fetch.windows) {
    for (const item of w.items) {
      if (seen.has(item.id) || !isAfter(item, after) || (fetch.keep && !fetch.keep(item))) continue;
      seen.add(item.id);
      out.push(item);
    }
  }
  return out.sort(compareNewestFirst);
}

/** True when the directory has no more windows to fetch. */
export function isExhausted<T extends SessionKey>(fetch: DirFetch<T>): boolean {
  const last = fetch.windows.at(-1);
  // An empty window with a cursor would loop forever: treat it as the end too.
  return last !== undefined && (last.next === null || last.items.length === 0);
}

/**
 * Whether another window must be fetched from this directory before a page of `need` can be merged safely: unless it
 * is exhausted, it needs `need` unlisted candidates, and the `need`-th must be strictly newer than everything the
 * last window reached (so any unfetched session, tied in creation time or older, ranks below it whatever order
 * OpenCode uses among ties).
 */
export function needsMore<T extends SessionKey>(fetch: DirFetch<T>, after: SessionKey | null, need: number): boolean {
  const last = fetch.windows.at(-1);
  if (!last) return true;
  if (isExhausted(fetch)) return false;
  const cands = candidates(fetch, after);
  if (cands.length < need) return true;
  const reached = last.items.reduce((m, i) => Math.min(m, i.createdAt), Infinity);
  return (cands[need - 1] as T).createdAt <= reached;
}

/** A merged page and the cursor state for the next one (null when nothing is left). */
export interface MergedPage<T extends SessionKey> {
  page: T[];
  next: ListCursor | null;
}

/**
 * Merges the fetched windows of every directory into the next page of `limit` (all directories must satisfy
 * `!needsMore`). `after` is the previous page's last key; `done` the directories already finished.
 */
export function mergePage<T extends SessionKey>(
  fetches: DirFetch<T>[],
  after: SessionKey | null,
  limit: number,
  search: string | null,
  done: readonly string[],
): MergedPage<T> {
  const all = fetches.flatMap((f) => candidates(f, after)).sort(compareNewestFirst);
  const page = all.slice(0, limit);
  const lastKey = page.at(-1);
  if (!lastKey) return { page, next: null };
  const dirs: Record<string, string | null> = {};
  const finished = new Set(done);
  for (const f of fetches) {
    const open = f.windows.find((w) => w.items.some((i) => isAfter(i, lastKey)));
    if (open) dirs[f.name] = open.cursorUsed;
    else if (!isExhausted(f)) dirs[f.name] = (f.windows.at(-1) as DirWindow<T>).next;
    else finished.add(f.name);
  }
  const more = all.length > page.length || Object.keys(dirs).length > 0;
  return {
    page,
    next: more
      ? { q: search, last: { createdAt: lastKey.createdAt, id: lastKey.id }, dirs, done: [...finished] }
      : null,
  };
}
