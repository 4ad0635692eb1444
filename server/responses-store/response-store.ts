// The stored-Responses store: one JSON file per response under `<dataDir>/responses/<app>/<shard>/<id>.json`
// (written atomically; rewritten only to fold in a deleted ancestor, see remove.ts), plus a per-app in-memory index of
// ids built lazily from the folder names (ids carry their creation time, so the index needs no file reads). A record
// holds only what its turn added; a conversation is rebuilt by walking its chain (chain.ts). Owns files and the
// index; knows nothing of HTTP.
import { quoteClientText } from "../core/client-text";
import fsp from "node:fs/promises";
import path from "node:path";
import writeFileAtomic from "write-file-atomic";
import type { HistoryLimits } from "../../shared/apps";
import { PatchbayError } from "../core/errors";
import { DAY_MS } from "../history/prune-plan";
import { describeFsError, errnoCode, storageError } from "../stores/storage-error";
import { effectiveInput } from "./chain";
import { HistoryCache } from "./history-cache";
import {
  RECORD_VERSION,
  StoredRecordFile,
  StoredResponseRecord,
  isResponseId,
  parentInHead,
  type StoredItem,
  type StoredResponseRecord as RecordT,
} from "./record";
import { removeResponses, type RemovalResult, type RemovalStore } from "./remove";
import { RemovalQueue } from "./removal-queue";
import { appDir, insertSorted, readHead, removeId, scanApp, shardOf, type IndexedResponse } from "./app-index";

/** Folder of the stored responses inside the data folder. */
export const RESPONSES_DIR = "responses";

/** Writes `text` to `file` atomically (temp file + rename). Default: write-file-atomic with fsync. */
export type RecordWriter = (file: string, text: string) => Promise<void>;

/** Options of {@link ResponseStore}. */
export interface ResponseStoreOptions {
  /** Patchbay's data folder. */
  dataDir: string;
  /** Test/bench hook: replaces the atomic writer. */
  writeFile?: RecordWriter;
  /** Diagnostic log (damaged records, failed deletions). */
  log?: (line: string) => void;
}

export type { IndexedResponse } from "./app-index";

/** What one prune removed (`removed` ids, oldest first) or would remove (`dryRun`). */
export interface ResponsePruneResult {
  removed: string[];
  failed: number;
}

const defaultWriter: RecordWriter = (file, text) => writeFileAtomic(file, text, { mode: 0o600, fsync: true });

/** "resp_x not found" as the OpenAI wire says it (404 naming the id). */
export function responseNotFound(id: string, param: string | null = null): PatchbayError {
  return new PatchbayError("response_not_found", `Response with id ${quoteClientText(id)} not found.`, { param });
}

/**
 * Stored Responses of every app, each under its data key (`app` arguments below are `appDataKey(app)`, never a bare
 * name, so a later app of the same name never sees a deleted one's responses). Reads by id are one file read (no
 * index needed); a response's conversation ({@link history}, {@link inputOf}) is rebuilt from its chain of records,
 * recent ones from memory. Listing and pruning use the app's index (built on first use by reading the 256 shard
 * folders; kept up to date by this instance's writes). Errors: `response_not_found` (404: unknown id, another app's,
 * deleted or pruned), `storage_error` (500: disk failure, a damaged record, a broken chain; the message names the id
 * and, for a damaged record, its file).
 */
export class ResponseStore {
  private readonly root: string;
  private readonly write: RecordWriter;
  private readonly log: (line: string) => void;
  /** app → its index (sorted by creation, oldest first), built lazily. */
  private readonly indexes = new Map<string, Promise<IndexedResponse[]>>();
  private readonly madeDirs = new Set<string>();
  /** Writes in flight, by `app/id`: their records answer `get` until they are on disk. */
  private readonly pending = new Map<string, { record: RecordT; write: Promise<void> }>();
  /** Data keys of deleted apps: a run of theirs that ends late must not store anything (see {@link removeApp}). */
  private readonly retired = new Set<string>();
  /** Histories of recently stored responses (a continuation needs no walk). */
  private readonly histories = new HistoryCache();
  /** `app/id` → the record's `parent`, as read or written (finding what a deletion must fold into). */
  private readonly parents = new Map<string, string | null>();
  /** Deletions, one per app at a time. */
  private readonly removals = new RemovalQueue();

  constructor(opts: ResponseStoreOptions) {
    this.root = path.join(path.resolve(opts.dataDir), RESPONSES_DIR);
    this.write = opts.writeFile ?? defaultWriter;
    this.log = opts.log ?? (() => {});
  }

  /** The file of `id` for `app`, or null when `id` is not a Patchbay response id. */
  fileOf(app: string, id: string): string | null {
    return isResponseId(id) ? path.join(appDir(this.root, app), shardOf(id), `${id}.json`) : null;
  }

  /**
   * Stores a record (validated first). Resolves once it is on disk; throws `storage_error` when the disk fails. While
   * the write is in flight, `get` already answers from memory (so a client can continue a conversation the moment it
   * sees the response, without waiting for the disk). `whole`: the record's whole effective input, when the caller
   * has it: kept in memory for the next turn, and written instead of the parent's reference when that parent was
   * deleted while this response ran.
   */
  async put(record: RecordT, whole?: readonly StoredItem[]): Promise<void> {
    const valid = StoredResponseRecord.parse({ ...record, v: RECORD_VERSION });
    await this.write1(valid);
    let parent = valid.parent;
    if (whole && parent !== null && this.removals.isDoomed(valid.app, parent)) {
      // Its parent is being deleted, and the deletion may not have seen this record: stand alone. (Stored either
      // way; a failure here only leaves its chain broken, which reading it reports.)
      await this.write1({ ...valid, parent: null, input: [...whole] }).then(
        () => (parent = null),
        (err: unknown) => this.log(`stored responses: could not write ${valid.id} whole: ${describeFsError(err)}`),
      );
    }
    this.parents.set(pendingKey(valid.app, valid.id), parent);
    if (whole) this.histories.remember(valid.app, valid.id, parent, [...whole, ...valid.response.output]);
  }

  /** Writes `valid` (registered in flight while it is written) and adds it to the index. */
  private async write1(valid: RecordT): Promise<void> {
    const file = this.fileOf(valid.app, valid.id);
    if (!file) throw new Error(`not a response id: ${valid.id}`);
    if (this.retired.has(valid.app))
      throw new PatchbayError("app_not_found", `The app of response ${valid.id} was deleted; it was not stored.`);
    const key = pendingKey(valid.app, valid.id);
    const write = this.writeRecord(file, valid);
    this.pending.set(key, { record: valid, write });
    try {
      await write;
    } finally {
      if (this.pending.get(key)?.write === write) this.pending.delete(key);
    }
    const index = this.indexes.get(valid.app);
    if (index) insertSorted(await index, { id: valid.id, createdAt: valid.createdAt });
  }

  /** Waits for every write in flight (call before exit). Never throws. */
  async flush(): Promise<void> {
    await Promise.allSettled([...this.pending.values()].map((p) => p.write));
  }

  private async writeRecord(file: string, valid: RecordT): Promise<void> {
    const dir = path.dirname(file);
    const text = JSON.stringify(valid);
    try {
      if (!this.madeDirs.has(dir)) {
        await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
        this.madeDirs.add(dir);
      }
      try {
        await this.write(file, text);
      } catch (err) {
        // The cached folder vanished (removed by hand, or a sweep of an emptied app): make it again, once.
        if (errnoCode(err) !== "ENOENT") throw err;
        this.madeDirs.delete(dir);
        await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
        this.madeDirs.add(dir);
        await this.write(file, text);
      }
    } catch (err) {
      throw storageError("store response", this.shown(file), err);
    }
  }

  /**
   * The record of `id` for `app`. Throws `response_not_found` (404, `param` as given) when absent or not this app's;
   * `storage_error` (500) naming the id when the file cannot be read or is damaged (invalid JSON or shape).
   */
  async get(app: string, id: string, param: string | null = null): Promise<RecordT> {
    const file = this.fileOf(app, id);
    if (!file) throw responseNotFound(id, param);
    const inFlight = this.pending.get(pendingKey(app, id));
    if (inFlight) return structuredClone(inFlight.record);
    let text: string;
    try {
      text = await fsp.readFile(file, "utf8");
    } catch (err) {
      if (errnoCode(err) === "ENOENT") throw responseNotFound(id, param);
      throw storageError("read stored response", this.shown(file), err);
    }
    let parsed: ReturnType<typeof StoredRecordFile.safeParse>;
    try {
      parsed = StoredRecordFile.safeParse(JSON.parse(text));
    } catch (err) {
      throw this.damaged(id, file, describeFsError(err));
    }
    if (!parsed.success) throw this.damaged(id, file, parsed.error.issues[0]?.message ?? "invalid record");
    if (parsed.data.app !== app || parsed.data.id !== id) throw responseNotFound(id, param);
    this.parents.set(pendingKey(app, id), parsed.data.parent);
    return parsed.data;
  }

  /**
   * The conversation a request continuing `id` builds on: its effective input, then its output (chain.ts
   * `historyOf`). Throws `response_not_found` (404, `param`) for `id`; `storage_error` when its chain is broken.
   */
  async history(app: string, id: string, param: string | null = null): Promise<StoredItem[]> {
    return this.removals.walk(app, async () => {
      const record = await this.get(app, id, param);
      const known = this.histories.history(app, id, record.parent);
      if (known) return known;
      return [...(await effectiveInput(this, app, record, this.histories)), ...record.response.output];
    });
  }

  /** The effective input of `id` (what `input_items` lists). Errors as {@link history}. */
  async inputOf(app: string, id: string, param: string | null = null): Promise<StoredItem[]> {
    return this.removals.walk(app, async () =>
      effectiveInput(this, app, await this.get(app, id, param), this.histories),
    );
  }

  /**
   * Deletes `id` of `app` (damaged records too); the responses continuing it keep their conversation (remove.ts).
   * Throws `response_not_found` when absent, `storage_error`.
   */
  async delete(app: string, id: string): Promise<void> {
    const file = this.fileOf(app, id);
    if (!file) throw responseNotFound(id);
    // An unknown id costs no scan for responses that continue it.
    if (!this.pending.has(pendingKey(app, id)))
      await fsp.stat(file).catch((err: unknown) => {
        if (errnoCode(err) === "ENOENT") throw responseNotFound(id);
      });
    const r = await this.remove(app, [id]);
    if (r.missing.length > 0) throw responseNotFound(id);
    if (r.error) throw r.error;
  }

  /** Removes `ids` of `app` through {@link removeResponses}, one deletion of the app at a time. */
  private remove(app: string, ids: readonly string[]): Promise<RemovalResult> {
    return this.removals.run(app, ids, () => removeResponses(this.removal, app, ids));
  }

  /** The store as removal sees it. */
  private readonly removal: RemovalStore = {
    get: (app, id) => this.get(app, id),
    parentOf: async (app, id) => {
      const known = this.parents.get(pendingKey(app, id));
      if (known !== undefined) return known;
      const head = await readHead(this.fileOf(app, id));
      const parent = head === null ? undefined : parentInHead(head, id);
      if (parent !== undefined) return parent;
      return this.get(app, id).then(
        (r) => r.parent,
        () => null,
      );
    },
    idsSince: async (app, fromMs) => {
      const prefix = pendingKey(app, "");
      const inFlight = [...this.pending].filter(([k]) => k.startsWith(prefix)).map(([, p]) => p);
      await Promise.allSettled(inFlight.map((p) => p.write));
      const ids = new Set((await this.index(app)).filter((r) => r.createdAt >= fromMs).map((r) => r.id));
      for (const p of inFlight) ids.add(p.record.id);
      return [...ids];
    },
    rewrite: async (record) => {
      await this.write1(record);
      this.parents.set(pendingKey(record.app, record.id), record.parent);
    },
    unlink: async (app, id) => {
      const file = this.fileOf(app, id);
      if (!file) return false;
      await this.pending.get(pendingKey(app, id))?.write.catch(() => {});
      this.histories.forget(app, id);
      this.parents.delete(pendingKey(app, id));
      let existed = true;
      try {
        await fsp.unlink(file);
      } catch (err) {
        if (errnoCode(err) !== "ENOENT") throw storageError("delete stored response", this.shown(file), err);
        existed = false;
      }
      const index = this.indexes.get(app);
      if (index) removeId(await index, id);
      return existed;
    },
    log: (line) => this.log(line),
  };

  /** The app's responses, newest first: `limit` ids created before `before` (an id of the list), and whether more
   *  follow. */
  async list(app: string, q: { limit: number; before?: string }): Promise<{ ids: IndexedResponse[]; more: boolean }> {
    const index = await this.index(app);
    let end = index.length;
    if (q.before) {
      const at = index.findIndex((r) => r.id === q.before);
      end = at < 0 ? 0 : at;
    }
    const start = Math.max(0, end - q.limit);
    return { ids: index.slice(start, end).reverse(), more: start > 0 };
  }

  /** How many responses the app has stored. */
  async count(app: string): Promise<number> {
    return (await this.index(app)).length;
  }

  /**
   * The app's responses its history limits would delete now, oldest first: beyond the newest `maxSessions`, or
   * created more than `maxAgeDays` before `now` (same rules as sessions, a response's last activity being its
   * creation). No limits: none.
   */
  async overLimits(app: string, limits: HistoryLimits, now: number): Promise<IndexedResponse[]> {
    if (limits.maxSessions === null && limits.maxAgeDays === null) return [];
    const index = await this.index(app);
    const keepFrom = limits.maxSessions === null ? 0 : Math.max(0, index.length - limits.maxSessions);
    const cutoff = limits.maxAgeDays === null ? -Infinity : now - limits.maxAgeDays * DAY_MS;
    return index.filter((r, i) => i < keepFrom || r.createdAt < cutoff);
  }

  /**
   * Deletes what {@link overLimits} lists (at most `budget`, oldest first). Failures are counted and logged. A kept
   * response that continues a pruned one keeps its conversation: the pruned items move into its record (remove.ts),
   * so the files of the pruned responses are really removed.
   */
  async prune(app: string, limits: HistoryLimits, now: number, budget = Infinity): Promise<ResponsePruneResult> {
    const over = (await this.overLimits(app, limits, now)).slice(0, budget);
    const { removed, failed } = await this.remove(
      app,
      over.map((r) => r.id),
    );
    return { removed, failed };
  }

  /**
   * Removes every stored response of a deleted app (by its data key) and refuses later `put`s for that key, so a run
   * of the deleted app that ends afterwards stores nothing. Waits for its writes in flight first.
   */
  async removeApp(app: string): Promise<void> {
    this.retired.add(app);
    const prefix = pendingKey(app, "");
    await Promise.allSettled([...this.pending].filter(([k]) => k.startsWith(prefix)).map(([, p]) => p.write));
    this.indexes.delete(app);
    this.histories.forgetApp(app);
    this.removals.forgetApp(app);
    for (const k of this.parents.keys()) if (k.startsWith(prefix)) this.parents.delete(k);
    const dir = appDir(this.root, app);
    for (const d of this.madeDirs) if (d.startsWith(dir + path.sep)) this.madeDirs.delete(d);
    await fsp.rm(dir, { recursive: true, force: true });
  }

  private damaged(id: string, file: string, reason: string): PatchbayError {
    this.log(`stored responses: damaged record ${file}: ${reason}`);
    return new PatchbayError(
      "storage_error",
      `Stored response '${id}' is damaged on disk (${this.shown(file)} in Patchbay's data folder: ${reason}). Other responses are unaffected; delete this one with DELETE /v1/responses/${id}.`,
    );
  }

  /** A record's path as told to API clients: relative to the data folder (the absolute path is for the local log). */
  private shown(file: string): string {
    return path.relative(path.dirname(this.root), file);
  }

  private index(app: string): Promise<IndexedResponse[]> {
    let index = this.indexes.get(app);
    if (!index) {
      index = scanApp(appDir(this.root, app));
      this.indexes.set(app, index);
      index.catch(() => this.indexes.delete(app));
    }
    return index;
  }
}

function pendingKey(app: string, id: string): string {
  return `${app}/${id}`;
}
