// What to reap (pure, `now` is an input): live OpenCode instances unused for a while, and tool-set folders whose
// sessions are all gone and that nobody used for days. Never anything with a request or session running in it.

/** A live instance as the instance pool sees it. Times are epoch ms. */
export interface LiveInstanceView {
  directory: string;
  /** Requests (or pooled sessions being prepared) using it now. */
  inUse: number;
  /** Already being disposed. */
  disposing: boolean;
  /** Last lease start or end. */
  lastUsedAt: number;
}

/** Instances to dispose now: idle (nothing in use) for at least `maxIdleMs`. */
export function planInstanceReap(live: readonly LiveInstanceView[], now: number, maxIdleMs: number): string[] {
  return live.filter((e) => e.inUse === 0 && !e.disposing && now - e.lastUsedAt >= maxIdleMs).map((e) => e.directory);
}

/** A tool-set folder `apps/<app>/<hash>/` on disk. */
export interface ToolsetFolderView {
  directory: string;
  /** Last use (the mtime of its `.patchbay/toolset.json`, touched on every lease), epoch ms. */
  lastUsedAt: number;
  /** It has a live instance (then it is never removed). */
  live: boolean;
}

/** Folders that may be removed if they hold no session: unused for at least `maxAgeMs` and not live. The caller
 *  still checks each for sessions (an OpenCode call) before removing it. */
export function planFolderReap(folders: readonly ToolsetFolderView[], now: number, maxAgeMs: number): string[] {
  return folders.filter((f) => !f.live && now - f.lastUsedAt >= maxAgeMs).map((f) => f.directory);
}
