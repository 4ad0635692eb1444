// Generic versioned JSON file store `{version, data}`: a cached, deep-frozen copy; atomic writes, in-process queue + cross-process
// lock with read-modify-write under the lock, corrupt files set aside, external changes picked up. Knows no schema;
// reading, recognising and locking the file on disk is json-file-disk.ts.
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { PatchbayError } from "../core/errors";
import { describeFsError, errnoCode, storageError } from "./storage-error";
import { fromZodError } from "./validation";
import { defaultWriter, type AtomicWriter, type JsonFileOptions, type Mutator } from "./json-file-options";
import {
  lockFile,
  parseVersioned,
  readVersionedFile,
  sameSignature,
  sleep,
  toSignature,
  type FileSignature,
} from "./json-file-disk";

/**
 * One JSON file held in memory. `get()` is synchronous; `update()` is serialized in-process and locked across
 * processes, reading the file fresh under the lock so concurrent writers (server and CLI) lose nothing.
 * Errors: `update` throws PatchbayError `storage_error` (disk full, unwritable folder, lock held too long; the
 * previous file stays intact), `invalid_request_error` (the result fails the schema), or what the mutator throws.
 */
export class JsonFileStore<T> {
  private current: T;
  private raw: string | null = null;
  private signature: FileSignature | null = null;
  private lastCheck = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly listeners = new Set<(value: T) => void>();
  private readonly noticeList: string[] = [];
  private watcher: fs.FSWatcher | null = null;
  private watchTimer: NodeJS.Timeout | null = null;
  private settleTimer: NodeJS.Timeout | null = null;
  /** Set while the file on disk stays invalid: the message shown to the user. Writes are refused meanwhile. */
  private invalidNotice: string | null = null;
  private closed = false;
  private readonly mode: number;
  private readonly dirMode: number;
  private readonly recheckMs: number;
  private readonly settleMs: number;
  private readonly writer: AtomicWriter;
  private readonly clock: () => number;
  private readonly name: string;

  private constructor(private readonly opts: JsonFileOptions<T>) {
    this.mode = opts.mode ?? 0o600;
    this.dirMode = opts.dirMode ?? 0o700;
    this.recheckMs = opts.recheckMs ?? 1000;
    this.settleMs = opts.settleMs ?? 250;
    this.writer = opts.writeFile ?? defaultWriter;
    this.clock = opts.clock ?? Date.now;
    this.name = path.basename(opts.file);
    this.current = deepFreeze(opts.defaults());
  }

  /** Loads the file (missing → defaults; unreadable/invalid → set aside + notice + defaults) and starts watching. */
  static async open<T>(opts: JsonFileOptions<T>): Promise<JsonFileStore<T>> {
    const store = new JsonFileStore(opts);
    await store.load();
    if (opts.watch !== false) store.startWatching();
    return store;
  }

  /** The current data (deep-frozen). Checks the file for external changes at most every `recheckMs`. */
  get(): T {
    if (!this.closed) {
      const now = performance.now();
      if (now - this.lastCheck >= this.recheckMs) {
        this.lastCheck = now;
        this.checkDisk();
      }
    }
    return this.current;
  }

  /**
   * Applies `mutate` to the data read fresh from disk under the lock, validates, writes atomically, and returns
   * the new (frozen) data. Listeners are told when the content changed.
   */
  update(mutate: Mutator<T>): Promise<T> {
    const run = () => this.runLocked(mutate);
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** Called with the new data after every change, own or external. Returns an unsubscribe function. */
  onChange(listener: (value: T) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Messages for the user (e.g. a corrupt file was set aside, or the file on disk is invalid right now). */
  notices(): string[] {
    return this.invalidNotice === null ? [...this.noticeList] : [...this.noticeList, this.invalidNotice];
  }

  /** True while the file on disk does not parse (the data in memory is then the last good version, or defaults). */
  get isInvalid(): boolean {
    return this.invalidNotice !== null;
  }

  /** Re-reads the file now (bypassing the throttle); used after a known external change. */
  refresh(): void {
    this.lastCheck = performance.now();
    this.checkDisk();
  }

  /** Stops watching and waits for queued writes. Reads keep working from memory. */
  async close(): Promise<void> {
    this.closed = true;
    this.stopWatching();
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = null;
    await this.queue;
  }

  // ---- loading -------------------------------------------------------------------------------------------------

  private async load(): Promise<void> {
    let first = await readVersionedFile(this.opts.file, this.opts);
    if (first.kind === "bad") {
      // Perhaps caught mid-write by an editor: give it a moment before calling it corrupt.
      await sleep(this.settleMs);
      first = await readVersionedFile(this.opts.file, this.opts);
    }
    if (first.kind === "ok") return this.accept(first.data, first.raw, await this.statSignature());
    if (first.kind === "missing") return;
    if (this.opts.onInvalid === "keep") {
      this.signature = await this.statSignature();
      return this.markInvalid(first.reason);
    }
    // Set the bad file aside under the lock, so a valid file another process just wrote is never moved.
    try {
      await this.ensureDir();
      const release = await this.lock();
      try {
        const again = await readVersionedFile(this.opts.file, this.opts);
        if (again.kind === "ok") this.accept(again.data, again.raw, await this.statSignature());
        else if (again.kind === "bad") await this.setAside(again.reason);
      } finally {
        await release().catch(() => undefined);
      }
    } catch (err) {
      this.addNotice(
        `${this.name} could not be read (${first.reason}) and could not be set aside (${describeFsError(err)}); Patchbay is using defaults.`,
      );
    }
  }

  private async setAside(reason: string): Promise<void> {
    const stamp = new Date(this.clock()).toISOString().replace(/:/g, "-");
    let backup = `${this.opts.file}.corrupt-${stamp}`;
    for (let i = 1; fs.existsSync(backup); i++) backup = `${this.opts.file}.corrupt-${stamp}-${i}`;
    try {
      await fsp.rename(this.opts.file, backup);
      this.addNotice(
        `${this.name} could not be read (${reason}); it was kept as ${path.basename(backup)} and Patchbay started with defaults.`,
      );
    } catch (err) {
      this.addNotice(
        `${this.name} could not be read (${reason}) and could not be set aside (${describeFsError(err)}); Patchbay is using defaults.`,
      );
    }
    this.accept(this.opts.defaults(), null, null);
  }

  // ---- external changes --------------------------------------------------------------------------------------

  /** Synchronous, cheap when nothing changed (one stat). Invalid content is handled asynchronously under the lock. */
  private checkDisk(): void {
    let sig: FileSignature | null;
    try {
      sig = toSignature(fs.statSync(this.opts.file));
    } catch (err) {
      if (errnoCode(err) !== "ENOENT") return; // transient (e.g. permissions); keep the data we have
      sig = null;
    }
    if (sameSignature(sig, this.signature)) return;
    if (sig === null) {
      // Gone: perhaps deleted on purpose (then behave as on a fresh start), perhaps an editor's delete-then-write.
      this.settleLater();
      return;
    }
    let raw: string;
    try {
      raw = fs.readFileSync(this.opts.file, "utf8");
    } catch {
      return;
    }
    if (raw === this.raw) {
      this.signature = sig;
      this.invalidNotice = null;
      return;
    }
    const parsed = parseVersioned(raw, this.opts);
    if (parsed.kind === "ok") this.acceptValid(parsed.data, raw, sig);
    else this.settleLater();
  }

  /**
   * The file is invalid or gone: look again once it has settled. Still gone → defaults (deleted on purpose).
   * Still invalid → the last good data stays in force in memory, the file is left untouched, and a notice says so
   * until the file is fixed. Nothing is ever written here.
   */
  private settleLater(): void {
    if (this.settleTimer || this.closed) return;
    this.settleTimer = setTimeout(() => {
      this.settleTimer = null;
      if (this.closed) return;
      let sig: FileSignature | null = null;
      let raw: string | null = null;
      try {
        sig = toSignature(fs.statSync(this.opts.file));
        raw = fs.readFileSync(this.opts.file, "utf8");
      } catch (err) {
        if (errnoCode(err) !== "ENOENT") return; // transient; the next check tries again
      }
      if (raw === null || sig === null) {
        this.invalidNotice = null;
        this.accept(this.opts.defaults(), null, null);
        return;
      }
      if (raw === this.raw) {
        this.signature = sig;
        this.invalidNotice = null;
        return;
      }
      const parsed = parseVersioned(raw, this.opts);
      if (parsed.kind === "ok") return this.acceptValid(parsed.data, raw, sig);
      // Remember this bad version's signature so it is not re-read until it changes again.
      this.signature = sig;
      this.markInvalid(parsed.kind === "bad" ? parsed.reason : "unreadable");
    }, this.settleMs);
    this.settleTimer.unref();
  }

  private markInvalid(reason: string): void {
    const message =
      `${this.name} on disk is not valid (${reason}). Patchbay keeps using the last good version it read ` +
      `and will not save changes until the file is fixed; the file was left as it is.`;
    if (message === this.invalidNotice) return;
    this.invalidNotice = message;
    this.opts.onNotice?.(message);
  }

  private acceptValid(data: T, raw: string, sig: FileSignature | null): void {
    this.invalidNotice = null;
    this.accept(data, raw, sig);
  }

  private startWatching(): void {
    try {
      const dir = path.dirname(this.opts.file);
      if (!fs.existsSync(dir)) return;
      this.watcher = fs.watch(dir, { persistent: false }, (_event, filename) => {
        if (filename !== null && filename !== this.name) return;
        // Debounce bursts (temp file + rename); then read, bypassing the throttle.
        if (this.watchTimer) clearTimeout(this.watchTimer);
        this.watchTimer = setTimeout(() => {
          this.watchTimer = null;
          if (!this.closed) this.refresh();
        }, 30);
        this.watchTimer.unref();
      });
      this.watcher.on("error", () => this.stopWatching());
    } catch {
      // fs.watch is best effort (inotify limits, network drives); the throttled mtime check still applies.
      this.watcher = null;
    }
  }

  private stopWatching(): void {
    if (this.watchTimer) clearTimeout(this.watchTimer);
    this.watchTimer = null;
    this.watcher?.close();
    this.watcher = null;
  }

  // ---- writing -------------------------------------------------------------------------------------------------

  private async runLocked(mutate: Mutator<T>): Promise<T> {
    await this.ensureDir();
    let release: () => Promise<void>;
    try {
      release = await this.lock();
    } catch (err) {
      throw storageError("save", this.opts.file, err);
    }
    try {
      let fresh = await readVersionedFile(this.opts.file, this.opts);
      if (fresh.kind === "bad") {
        // Perhaps an editor is mid-write: wait for it to settle before deciding.
        await sleep(this.settleMs);
        fresh = await readVersionedFile(this.opts.file, this.opts);
      }
      if (fresh.kind === "bad") {
        // Never replace a file someone is editing with our (emptier or older) view: refuse, keep the file as is.
        this.markInvalid(fresh.reason);
        throw new PatchbayError(
          "storage_error",
          `${this.name} on disk is not valid (${fresh.reason}), so this change was not saved. Fix the file ` +
            `(or move it away to start empty) and try again; Patchbay keeps using the last good version meanwhile.`,
          { status: 503 },
        );
      }
      const draft: T = fresh.kind === "ok" ? fresh.data : this.opts.defaults();
      const returned = await mutate(draft);
      const parsed = this.opts.schema.safeParse(returned === undefined ? draft : returned);
      if (!parsed.success) throw fromZodError(parsed.error);
      const text = `${JSON.stringify({ version: this.opts.version, data: parsed.data }, null, 2)}\n`;
      const onDisk = fresh.kind === "ok" ? fresh.raw : null;
      if (text !== onDisk) {
        try {
          await this.writer(this.opts.file, text, { mode: this.mode });
        } catch (err) {
          throw storageError("save", this.opts.file, err);
        }
      }
      this.acceptValid(parsed.data, text, await this.statSignature());
      return this.current;
    } finally {
      await release().catch(() => undefined);
    }
  }

  private async ensureDir(): Promise<void> {
    try {
      await fsp.mkdir(path.dirname(this.opts.file), { recursive: true, mode: this.dirMode });
    } catch (err) {
      throw storageError("create the folder", path.dirname(this.opts.file), err);
    }
  }

  /** Takes the cross-process lock (see lockFile); a lost lock becomes a notice. */
  private lock(): Promise<() => Promise<void>> {
    return lockFile(this.opts.file, (err) =>
      this.addNotice(`The lock on ${this.name} was lost (${describeFsError(err)}).`),
    );
  }

  // ---- state ---------------------------------------------------------------------------------------------------

  private accept(data: T, raw: string | null, sig: FileSignature | null): void {
    const changed = raw === null || raw !== this.raw;
    this.raw = raw;
    this.signature = sig;
    if (!changed) return;
    this.current = deepFreeze(data);
    for (const listener of [...this.listeners]) {
      try {
        listener(this.current);
      } catch {
        // A failing listener must not break the store or the other listeners.
      }
    }
  }

  private async statSignature(): Promise<FileSignature | null> {
    try {
      return toSignature(await fsp.stat(this.opts.file));
    } catch {
      return null;
    }
  }

  private addNotice(message: string): void {
    if (this.noticeList.includes(message)) return;
    this.noticeList.push(message);
    this.opts.onNotice?.(message);
  }
}

/** Freezes a JSON-like value recursively so readers of the shared cache cannot change it by accident. */
function deepFreeze<V>(value: V): V {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** Shorthand for {@link JsonFileStore.open}. */
export function openJsonFile<T>(opts: JsonFileOptions<T>): Promise<JsonFileStore<T>> {
  return JsonFileStore.open(opts);
}
