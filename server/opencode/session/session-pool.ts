// Pre-created OpenCode sessions for the next requests of recently used tool sets, so `session.create` (≈ 20 ms warm,
// far more on a busy or freshly booted instance) leaves the request path. A pooled session is titled
// POOLED_SESSION_TITLE (history hides it) and created with the same permission rules and metadata a request would use;
// sessions live in OpenCode's database, so they stay valid across a recycle. Owns pooled ids only; never prompts.
//
// Sized by demand: each tool set keeps as many sessions ready as it recently had requests running at once (at least
// `size`, at most `maxPerKey`), so a burst of 8 parallel agent calls finds 8 sessions the next time.
import path from "node:path";
import { POOLED_SESSION_TITLE } from "../protocol/pooled-session";

/** The OpenCode calls the pool makes. Both throw on failure. */
export interface SessionPoolPort {
  create(directory: string, permission: unknown, metadata: Record<string, unknown>): Promise<string>;
  delete(directory: string, sessionID: string): Promise<void>;
}

/** Options of {@link SessionPool}. */
export interface SessionPoolOptions {
  port: SessionPoolPort;
  /** Sessions kept ready per (directory, permission rules) at least (default 2; 0 switches the pool off). */
  size?: number;
  /** Sessions kept ready per tool set at most, however many requests ran at once (default 8). */
  maxPerKey?: number;
  /** Sessions kept ready over all tool sets at most (default 32). */
  maxTotal?: number;
  /** Tool sets with a pool at most; the least recently used one's sessions are deleted beyond it (default 12). */
  maxKeys?: number;
  /** A burst's peak is remembered this long after it was reached, then the pool shrinks back (ms, default 10 min). */
  peakMemoryMs?: number;
  now?: () => number;
  log?: (line: string) => void;
}

interface Entry {
  directory: string;
  permission: unknown;
  metadata: Record<string, unknown>;
  ids: string[];
  filling: Promise<void> | null;
  /** Requests of this tool set running now, and the most that ran at once lately (with when it was reached). */
  running: number;
  peak: number;
  peakAt: number;
}

/** See the module comment. `begin()` never waits for OpenCode; `end()` refills in the background. */
export class SessionPool {
  private readonly o: SessionPoolOptions;
  private readonly now: () => number;
  /** Least recently used first. */
  private readonly entries = new Map<string, Entry>();
  private closed = false;

  constructor(opts: SessionPoolOptions) {
    this.o = opts;
    this.now = opts.now ?? Date.now;
  }

  /** Pooled sessions held now (all keys). */
  get size(): number {
    let n = 0;
    for (const e of this.entries.values()) n += e.ids.length;
    return n;
  }

  /** Every pooled session id held now. */
  ids(): string[] {
    return [...this.entries.values()].flatMap((e) => e.ids);
  }

  /** How many sessions (directory, permission) is kept at now: its recent peak of parallel requests, bounded. */
  target(directory: string, permission: unknown): number {
    const e = this.entries.get(keyOf(directory, permission));
    return e ? this.targetOf(e) : 0;
  }

  /**
   * A request of (directory, permission) starts: counted as running (for sizing), and given a ready session with
   * exactly these permission rules when `usePooled` and one is there; null means the caller creates its own.
   * Call {@link end} once when the request is over.
   */
  begin(directory: string, permission: unknown, metadata: Record<string, unknown>, usePooled: boolean): string | null {
    if (this.closed || (this.o.size ?? 2) <= 0) return null;
    const e = this.touch(directory, permission, metadata);
    e.running++;
    if (e.running >= e.peak) {
      e.peak = e.running;
      e.peakAt = this.now();
    }
    return usePooled ? (e.ids.shift() ?? null) : null;
  }

  /** The request {@link begin} counted is over: with `refill`, tops the pool up in the background (resolves when
   *  done; never throws). Without it (OpenCode is going away) only the count changes. */
  end(directory: string, permission: unknown, refill: boolean): Promise<void> {
    const e = this.entries.get(keyOf(directory, permission));
    if (!e) return Promise.resolve();
    e.running = Math.max(0, e.running - 1);
    return refill ? this.refill(e) : Promise.resolve();
  }

  /**
   * Forgets the tool sets under `folder` (a deleted app's folder) and deletes their pooled sessions: nobody can use
   * them any more. A refill in flight for one of them deletes what it creates (it finds its entry gone).
   */
  async dropUnder(folder: string): Promise<void> {
    const root = path.resolve(folder);
    const under = (dir: string) => {
      const rel = path.relative(root, path.resolve(dir));
      return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
    };
    const dropped = [...this.entries].filter(([, e]) => under(e.directory));
    for (const [key] of dropped) this.entries.delete(key);
    await Promise.allSettled(
      dropped.flatMap(([, e]) => e.ids.splice(0).map((id) => this.o.port.delete(e.directory, id))),
    );
  }

  /** Stops refilling and deletes every pooled session (bounded by `timeoutMs`). */
  async close(timeoutMs = 10_000): Promise<void> {
    this.closed = true;
    const entries = [...this.entries.values()];
    this.entries.clear();
    await Promise.race([
      Promise.allSettled(entries.map((e) => e.filling)).then(() =>
        Promise.allSettled(entries.flatMap((e) => e.ids.splice(0).map((id) => this.o.port.delete(e.directory, id)))),
      ),
      new Promise((r) => setTimeout(r, timeoutMs).unref()),
    ]);
  }

  private targetOf(e: Entry): number {
    const size = this.o.size ?? 2;
    if (size <= 0) return 0;
    // A burst is forgotten once it is old and nothing runs: a tray app should not hold 8 sessions for a lone chat.
    if (e.running === 0 && this.now() - e.peakAt > (this.o.peakMemoryMs ?? 10 * 60_000)) e.peak = 0;
    return Math.min(Math.max(size, e.peak), this.o.maxPerKey ?? 8);
  }

  /** The entry of (directory, permission), moved to most recently used (created if new). */
  private touch(directory: string, permission: unknown, metadata: Record<string, unknown>): Entry {
    const key = keyOf(directory, permission);
    const e = this.entries.get(key) ?? {
      directory,
      permission,
      metadata,
      ids: [],
      filling: null,
      running: 0,
      peak: 0,
      peakAt: 0,
    };
    e.metadata = metadata;
    this.entries.delete(key);
    this.entries.set(key, e);
    this.evict();
    return e;
  }

  private refill(entry: Entry): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (entry.filling) return entry.filling;
    const key = keyOf(entry.directory, entry.permission);
    const maxTotal = this.o.maxTotal ?? 32;
    entry.filling = (async () => {
      while (
        !this.closed &&
        this.entries.get(key) === entry &&
        entry.ids.length < this.targetOf(entry) &&
        this.size < maxTotal
      ) {
        const id = await this.o.port.create(entry.directory, entry.permission, entry.metadata);
        if (this.closed || this.entries.get(key) !== entry) {
          await this.o.port.delete(entry.directory, id).catch(() => {});
          return;
        }
        entry.ids.push(id);
      }
      // Shrunk back after a burst: the extra sessions go (any of them would do).
      for (const id of entry.ids.splice(this.targetOf(entry)))
        await this.o.port.delete(entry.directory, id).catch(() => {});
    })()
      .catch((err: unknown) => this.o.log?.(`[opencode] session pool: could not pre-create a session: ${String(err)}`))
      .finally(() => {
        entry.filling = null;
      });
    return entry.filling;
  }

  private evict(): void {
    const max = this.o.maxKeys ?? 12;
    // Least recently used first, never the one just used; one with requests running stays (their end() must find
    // it), so the bound can be exceeded while that many tool sets run at once.
    for (const [key, e] of [...this.entries].slice(0, -1)) {
      if (this.entries.size <= max) break;
      if (e.running > 0) continue;
      this.entries.delete(key);
      for (const id of e.ids.splice(0)) void this.o.port.delete(e.directory, id).catch(() => {});
    }
  }
}

/** Title a pooled session carries (re-exported for the backend). */
export { POOLED_SESSION_TITLE };

function keyOf(directory: string, permission: unknown): string {
  return `${directory}\n${JSON.stringify(permission)}`;
}
