// The conversations of the most recently stored responses, in memory: a client continuing the response it just got
// (the usual `previous_response_id` turn) needs no walk of the chain on disk. Least recently used first out, bounded by
// an estimate of bytes. Holds copies; hands out copies.
import type { StoredItem } from "./record";

/** Default bound of the cache: estimated bytes of JSON. */
export const HISTORY_CACHE_BYTES = 16 * 1024 * 1024;

/** A response's history (effective input, then output) by `app/id`. */
export class HistoryCache {
  private readonly entries = new Map<string, { items: StoredItem[]; parent: string | null; bytes: number }>();
  private bytes = 0;

  constructor(private readonly maxBytes = HISTORY_CACHE_BYTES) {}

  /** A copy of the history of `id`, or undefined (also when `parent` is given and is not the one it was kept with:
   *  the record changed since). */
  history(app: string, id: string, parent?: string | null): StoredItem[] | undefined {
    const key = `${app}/${id}`;
    const entry = this.entries.get(key);
    if (!entry || (parent !== undefined && parent !== entry.parent)) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return structuredClone(entry.items);
  }

  /** Keeps a copy of `items` as the history of `id`, whose record has `parent` (not when it alone exceeds a quarter
   *  of the bound). */
  remember(app: string, id: string, parent: string | null, items: readonly StoredItem[]): void {
    const bytes = JSON.stringify(items).length;
    if (bytes > this.maxBytes / 4) return;
    this.forget(app, id);
    this.entries.set(`${app}/${id}`, { items: structuredClone([...items]), parent, bytes });
    this.bytes += bytes;
    for (const [key, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(key);
      this.bytes -= entry.bytes;
    }
  }

  /** Drops the history of `id` (deleted). */
  forget(app: string, id: string): void {
    const key = `${app}/${id}`;
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }

  /** Drops every history of `app` (the app was deleted). */
  forgetApp(app: string): void {
    for (const [key, entry] of this.entries) {
      if (!key.startsWith(`${app}/`)) continue;
      this.entries.delete(key);
      this.bytes -= entry.bytes;
    }
  }
}
