// One OpenCode instance directory per (app, tool set): `<dataDir>/apps/<app>/<toolsetHash>/` holding
// `.patchbay/toolset.json` for the companion plugin, plus an LRU cap on live instances (each costs tens of MB and idle
// CPU). Never disposes an instance with a running request. Owns directories and disposal only, not sessions.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { CompanionTool, CompanionToolset } from "../protocol/companion-plugin";
import { TOOLSET_FILE } from "./home/opencode-config";
import { planInstanceReap, type LiveInstanceView } from "./reap-policy";

/** Options of {@link InstancePool}. */
export interface InstancePoolOptions {
  dataDir: string;
  /** Live instances kept before the least recently used idle one is disposed (default 6). */
  maxLive?: number;
  /** Disposes the OpenCode instance of `directory` (SDK `instance.dispose({directory})`). */
  dispose: (directory: string) => Promise<void>;
  log?: (line: string) => void;
  /** Clock (epoch ms) for idle reaping. */
  now?: () => number;
}

/** A directory in use by one request; call `release()` exactly once when the request ended. */
export interface InstanceLease {
  directory: string;
  /** True when this directory had no live instance yet (the first request boots it: slower). */
  cold: boolean;
  /** True once a prompt in this instance reached its model: OpenCode has finished setting the instance up. */
  readonly primed: boolean;
  /** Records that a prompt in this instance reached its model (see {@link primed}). */
  markPrimed(): void;
  release(): void;
}

interface Entry {
  inUse: number;
  disposing: Promise<void> | null;
  /** Last lease start or end, epoch ms. */
  lastUsedAt: number;
  /** A prompt in this instance reached its model. */
  primed: boolean;
}

/** Folder of an app's sessions (the history feature lists sessions per directory below it). */
export function appDirectory(dataDir: string, app: string): string {
  return path.join(dataDir, "apps", safeSegment(app));
}

/**
 * Hands out instance directories and keeps at most `maxLive` instances alive. Instances count as live from their
 * first lease until disposed or until {@link reset} (OpenCode restarted).
 */
export class InstancePool {
  private readonly opts: InstancePoolOptions;
  /** Live instances, least recently used first (Map keeps insertion order). */
  private readonly live = new Map<string, Entry>();

  constructor(opts: InstancePoolOptions) {
    this.opts = opts;
  }

  /** Ensures `<dataDir>/apps/<app>/<hash>/.patchbay/toolset.json` and leases the directory. */
  async acquire(app: string, toolset: CompanionTool[], hash: string): Promise<InstanceLease> {
    const directory = path.join(appDirectory(this.opts.dataDir, app), hash);
    writeToolset(directory, { tools: toolset });
    return this.lease(directory);
  }

  /** Leases a directory whose `toolset.json` already exists (pre-warming a remembered tool set). */
  async lease(directory: string): Promise<InstanceLease> {
    let entry = this.live.get(directory);
    if (entry?.disposing) await entry.disposing; // never hand out an instance that is being torn down
    entry = this.live.get(directory);
    const cold = !entry;
    const now = this.opts.now ?? Date.now;
    if (!entry) entry = { inUse: 0, disposing: null, lastUsedAt: now(), primed: false };
    this.live.delete(directory);
    this.live.set(directory, entry);
    entry.inUse++;
    entry.lastUsedAt = now();
    this.evict();
    let released = false;
    const e = entry;
    return {
      directory,
      cold,
      get primed() {
        return e.primed;
      },
      markPrimed: () => {
        e.primed = true;
      },
      release: () => {
        if (released) return;
        released = true;
        e.inUse--;
        e.lastUsedAt = now();
        this.evict();
      },
    };
  }

  /** Forgets every live instance (after an OpenCode restart they are all gone). */
  reset(): void {
    this.live.clear();
  }

  /** Live instance directories, least recently used first. */
  liveDirectories(): string[] {
    return [...this.live.keys()];
  }

  /** Live instances with their use counts (for the reaper). */
  liveView(): LiveInstanceView[] {
    return [...this.live].map(([directory, e]) => ({
      directory,
      inUse: e.inUse,
      disposing: e.disposing !== null,
      lastUsedAt: e.lastUsedAt,
    }));
  }

  /** Disposes the instances idle (nothing in use) for at least `maxIdleMs`; returns their directories. */
  reapIdle(maxIdleMs: number): string[] {
    const now = (this.opts.now ?? Date.now)();
    const dirs = planInstanceReap(this.liveView(), now, maxIdleMs);
    for (const d of dirs) {
      const entry = this.live.get(d);
      if (entry) this.disposeEntry(d, entry);
    }
    return dirs;
  }

  private disposeEntry(directory: string, entry: Entry): void {
    entry.disposing = this.opts
      .dispose(directory)
      .catch((err: unknown) => this.opts.log?.(`[opencode] disposing instance ${directory} failed: ${String(err)}`))
      .finally(() => {
        if (this.live.get(directory) === entry) this.live.delete(directory);
      });
  }

  private evict(): void {
    const max = this.opts.maxLive ?? 6;
    let excess = [...this.live.values()].filter((e) => !e.disposing).length - max;
    for (const [directory, entry] of this.live) {
      if (excess <= 0) break;
      if (entry.inUse > 0 || entry.disposing) continue;
      excess--;
      this.disposeEntry(directory, entry);
    }
  }
}

function writeToolset(directory: string, toolset: CompanionToolset): void {
  const file = path.join(directory, TOOLSET_FILE);
  const content = JSON.stringify(toolset, null, 2) + "\n";
  try {
    if (fs.readFileSync(file, "utf8") === content) {
      // Its mtime is the folder's "last used" for the folder reaper (runtime/folder-reaper.ts).
      const t = new Date();
      fs.utimesSync(file, t, t);
      return;
    }
  } catch {}
  // Private like the data folder (mode applies to every folder it creates: apps/, apps/<app>/, …).
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString("hex")}.tmp`;
  fs.writeFileSync(tmp, content);
  fs.renameSync(tmp, file);
}

/** App names are `[a-z0-9-]`; anything else is made path-safe (never `..` or a separator). */
function safeSegment(app: string): string {
  if (/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(app)) return app;
  const cleaned = app.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 40) || "app";
  return `${cleaned}-${crypto.createHash("sha256").update(app).digest("hex").slice(0, 8)}`;
}
