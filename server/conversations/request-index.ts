// Patchbay's own record of each request's session, one JSON line per request in `<dataDir>/conversations/<app>.jsonl`:
// when the request came (a pooled session was created earlier), its conversation, the stored response it made, and
// the client tool results it carried (so the session view can show a call's result next to the call). OpenCode's
// session list cannot carry this (its v2 list returns no metadata). Lines of deleted sessions are removed with them.
import fs from "node:fs";
import path from "node:path";
import writeFileAtomic from "write-file-atomic";
import { z } from "zod";

/** The folder of the request records in Patchbay's data folder. */
export function conversationsDir(dataDir: string): string {
  return path.join(dataDir, "conversations");
}

/** One request's record. Times are epoch ms. */
export const RequestRecord = z.object({
  /** The OpenCode session of the request (`ses_…`). */
  session: z.string(),
  /** When the request reached Patchbay. */
  receivedAt: z.number(),
  /** Conversation key (conversation-key.ts). */
  conversation: z.string(),
  /** The conversation's title from its first own words (session-title.ts), null when it has none. */
  conversationTitle: z.string().nullable(),
  /** The stored response the request created (`resp_…`). */
  response: z.string().optional(),
  /** Results of client tool calls this request carried: call id → result text (cut to the index's cap). */
  results: z.record(z.string(), z.string()).optional(),
});
export type RequestRecord = z.infer<typeof RequestRecord>;

/** Options of {@link RequestIndex}. */
export interface RequestIndexOptions {
  /** Folder of the index files (`<dataDir>/conversations`). */
  dir: string;
  /** Longest tool result kept, in characters (default 8 000, the session view's cap). */
  maxResultChars?: number;
  /** Results kept per request at most (default 64; the newest ones). */
  maxResults?: number;
  /** How long an app's records stay in memory after their last read, ms (default {@link CACHE_IDLE_MS}). */
  cacheIdleMs?: number;
}

/** How long an app's records stay in memory after their last read (ms). They grow with every request of the app (one
 *  per session, tool results included) and only the dashboard's session views and a Responses chain read them, in
 *  bursts: an idle server holds none. Recording a request appends to the file without reading it. */
const CACHE_IDLE_MS = 60_000;

interface Loaded {
  /** Size and mtime of the file when read (another process, the CLI, may rewrite it). */
  stamp: string;
  bySession: Map<string, RequestRecord>;
  /** Drops this entry once unused for the index's `cacheIdleMs`. */
  expiry: NodeJS.Timeout;
}

/**
 * The per-app request records. Appends are one `appendFile` of one line; removals rewrite the file atomically.
 * Operations on one app run one at a time (in this process). A damaged line (a crash mid-append) is skipped.
 */
export class RequestIndex {
  private readonly dir: string;
  private readonly maxResultChars: number;
  private readonly maxResults: number;
  private readonly cacheIdleMs: number;
  private readonly cache = new Map<string, Loaded>();
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(opts: RequestIndexOptions) {
    this.dir = opts.dir;
    this.maxResultChars = opts.maxResultChars ?? 8_000;
    this.maxResults = opts.maxResults ?? 64;
    this.cacheIdleMs = opts.cacheIdleMs ?? CACHE_IDLE_MS;
  }

  /** Apps whose records are held in memory now (tests, diagnostics). */
  heldApps(): string[] {
    return [...this.cache.keys()];
  }

  /** The file of `app` (app names are safe file names: shared/apps.ts AppName). */
  file(app: string): string {
    return path.join(this.dir, `${app}.jsonl`);
  }

  private serial<T>(app: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.queues.get(app) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    this.queues.set(
      app,
      next.catch(() => undefined),
    );
    return next;
  }

  private async stamp(app: string): Promise<string> {
    try {
      const st = await fs.promises.stat(this.file(app));
      return `${st.size}:${st.mtimeMs}`;
    } catch {
      return "none";
    }
  }

  private async load(app: string): Promise<Map<string, RequestRecord>> {
    const stamp = await this.stamp(app);
    const cached = this.cache.get(app);
    if (cached && cached.stamp === stamp) {
      cached.expiry.refresh();
      return cached.bySession;
    }
    this.evict(app);
    const bySession = new Map<string, RequestRecord>();
    let text = "";
    try {
      text = await fs.promises.readFile(this.file(app), "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
    for (const line of text.split("\n")) {
      if (!line.trim()) continue;
      try {
        const r = RequestRecord.safeParse(JSON.parse(line));
        if (r.success) bySession.set(r.data.session, r.data);
      } catch {
        // a line cut by a crash mid-append: skipped
      }
    }
    const expiry = setTimeout(() => {
      if (this.cache.get(app)?.bySession === bySession) this.cache.delete(app);
    }, this.cacheIdleMs);
    expiry.unref();
    this.cache.set(app, { stamp, bySession, expiry });
    return bySession;
  }

  private evict(app: string): void {
    const cached = this.cache.get(app);
    if (!cached) return;
    clearTimeout(cached.expiry);
    this.cache.delete(app);
  }

  /** Records one request (tool results cut to the caps). Never throws: a record that cannot be written is logged by
   *  the caller's `onError` and the request is unaffected. */
  add(app: string, record: RequestRecord): Promise<void> {
    const results = record.results ? Object.entries(record.results).slice(-this.maxResults) : [];
    const clean: RequestRecord = {
      ...record,
      ...(results.length
        ? { results: Object.fromEntries(results.map(([id, text]) => [id, text.slice(0, this.maxResultChars)])) }
        : { results: undefined }),
    };
    return this.serial(app, async () => {
      const before = this.cache.has(app) ? await this.stamp(app) : null;
      await fs.promises.mkdir(this.dir, { recursive: true, mode: 0o700 });
      await fs.promises.appendFile(this.file(app), `${JSON.stringify(clean)}\n`, { mode: 0o600 });
      const loaded = this.cache.get(app);
      if (!loaded) return;
      // Records held in memory are kept current only when they were the file's (else the next read loads it again).
      if (loaded.stamp !== before) return this.evict(app);
      loaded.bySession.set(clean.session, clean);
      loaded.stamp = await this.stamp(app);
    });
  }

  /** Every record of `app` by session id. */
  records(app: string): Promise<ReadonlyMap<string, RequestRecord>> {
    return this.serial(app, () => this.load(app));
  }

  /** The conversation key of the request that created stored response `responseId`, or null. */
  async conversationOfResponse(app: string, responseId: string): Promise<string | null> {
    for (const r of (await this.records(app)).values()) if (r.response === responseId) return r.conversation;
    return null;
  }

  /** Tool results carried by `app`'s requests, by call id (a later result of the same id wins). */
  async results(app: string): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const sorted = [...(await this.records(app)).values()].sort((a, b) => a.receivedAt - b.receivedAt);
    for (const r of sorted) for (const [id, text] of Object.entries(r.results ?? {})) out.set(id, text);
    return out;
  }

  /** Removes the records of these sessions (deleted or pruned). */
  forget(app: string, sessions: readonly string[]): Promise<void> {
    if (sessions.length === 0) return Promise.resolve();
    return this.serial(app, async () => {
      const map = await this.load(app);
      let changed = false;
      for (const s of sessions) changed = map.delete(s) || changed;
      if (!changed) return;
      const text = [...map.values()].map((r) => `${JSON.stringify(r)}\n`).join("");
      await writeFileAtomic(this.file(app), text, { mode: 0o600 });
      const loaded = this.cache.get(app);
      if (loaded) loaded.stamp = await this.stamp(app);
    });
  }

  /** Removes `app`'s whole index (the app was deleted). */
  drop(app: string): Promise<void> {
    return this.serial(app, async () => {
      this.evict(app);
      await fs.promises.rm(this.file(app), { force: true });
    });
  }
}
