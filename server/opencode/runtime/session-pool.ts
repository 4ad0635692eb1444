// Pre-created OpenCode sessions for the next requests of recently used tool sets, so `session.create` (≈ 20 ms warm,
// far more on a busy or freshly booted instance) leaves the request path. A pooled session is titled
// POOLED_SESSION_TITLE (history hides it) and created with the same permission rules and metadata a request would use;
// sessions live in OpenCode's database, so they stay valid across a recycle. Owns pooled ids only; never prompts.
import { POOLED_SESSION_TITLE } from "./pooled-session";

/** The OpenCode calls the pool makes. Both throw on failure. */
export interface SessionPoolPort {
  create(directory: string, permission: unknown, metadata: Record<string, unknown>): Promise<string>;
  delete(directory: string, sessionID: string): Promise<void>;
}

/** Options of {@link SessionPool}. */
export interface SessionPoolOptions {
  port: SessionPoolPort;
  /** Sessions kept ready per (directory, permission rules) (default 2; 0 switches the pool off). */
  size?: number;
  /** Tool sets with a pool at most; the least recently used one's sessions are deleted beyond it (default 12). */
  maxKeys?: number;
  log?: (line: string) => void;
}

interface Entry {
  directory: string;
  permission: unknown;
  metadata: Record<string, unknown>;
  ids: string[];
  filling: Promise<void> | null;
}

/** See the module comment. `take()` never waits for OpenCode; `refill()` runs in the background. */
export class SessionPool {
  private readonly o: SessionPoolOptions;
  /** Least recently used first. */
  private readonly entries = new Map<string, Entry>();
  private closed = false;

  constructor(opts: SessionPoolOptions) {
    this.o = opts;
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

  /** A ready session for `directory` with exactly these permission rules, or null (the caller creates one). */
  take(directory: string, permission: unknown): string | null {
    const e = this.entries.get(keyOf(directory, permission));
    return e?.ids.shift() ?? null;
  }

  /** Tops the pool for (directory, permission) up to its size in the background; never throws. */
  refill(directory: string, permission: unknown, metadata: Record<string, unknown>): Promise<void> {
    const size = this.o.size ?? 2;
    if (this.closed || size <= 0) return Promise.resolve();
    const key = keyOf(directory, permission);
    let e = this.entries.get(key);
    if (!e) e = { directory, permission, metadata, ids: [], filling: null };
    this.entries.delete(key);
    this.entries.set(key, e);
    this.evict();
    if (e.filling) return e.filling;
    const entry = e;
    entry.filling = (async () => {
      while (!this.closed && entry.ids.length < size && this.entries.get(key) === entry) {
        const id = await this.o.port.create(directory, permission, metadata);
        if (this.closed || this.entries.get(key) !== entry) {
          await this.o.port.delete(directory, id).catch(() => {});
          return;
        }
        entry.ids.push(id);
      }
    })()
      .catch((err: unknown) => this.o.log?.(`[opencode] session pool: could not pre-create a session: ${String(err)}`))
      .finally(() => {
        entry.filling = null;
      });
    return entry.filling;
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

  private evict(): void {
    const max = this.o.maxKeys ?? 12;
    for (const [key, e] of this.entries) {
      if (this.entries.size <= max) break;
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
