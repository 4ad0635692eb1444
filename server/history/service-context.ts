// The history service's dependencies resolved once (port, directories, clock, limits) and the checks every operation
// shares: "only this app's sessions" and which instance a session's calls go to. Holds no state of its own.
import { PatchbayError } from "../core/errors";
import { createAppDirectories, type AppDirectories } from "./app-directories";
import { DEFAULT_VIEW_LIMITS, type ViewLimits } from "./message-view";
import {
  createOpenCodeHistoryPort,
  type OpenCodeClientFactory,
  type OpenCodeHistoryPort,
  type RawSession,
} from "./opencode-port";

/** Dependencies of the HistoryService. */
export interface HistoryServiceOptions {
  /** Source of SDK clients (the supervisor). Required unless `port` is given. */
  opencode?: OpenCodeClientFactory;
  /** The OpenCode calls themselves (tests pass a fake); default: an adapter over `opencode`. */
  port?: OpenCodeHistoryPort;
  /** The app's folder, whose subfolders are its tool-set (instance) directories: `<dataDir>/apps/<app>`. */
  appsDir(app: string): string;
  /** Clock for age limits (epoch ms); default Date.now. Deadlines use a monotonic clock regardless. */
  now?: () => number;
  /** False → PatchbayError 404 `app_not_found`. Default: every app exists. */
  hasApp?: (app: string) => boolean;
  /** Directory lookup (tests); default: subfolders of `appsDir(app)` on disk. */
  directories?: AppDirectories;
  /** Size caps of the session view. */
  viewLimits?: ViewLimits;
  /** Directories whose OpenCode instance is live (the instance pool's). Sessions only run in live instances, so
   *  status is asked there only and other calls avoid booting cold instances. Default: every directory is live. */
  liveDirectories?: () => readonly string[];
  /** For callers that cannot see every running request (the CLI with its own OpenCode next to a running Patchbay):
   *  sessions active within this many ms are checked through their last message and count as running unless it is
   *  a finished answer (or they have none and are older than 5 s). Pass the longest request deadline. Default 0 (off). */
  externalRunsWithinMs?: number;
  /** Patchbay requests in flight (all apps). While > 0, sweeps yield: at most one deletion (or scan window) per
   *  `busyIntervalMs`, so OpenCode's single event loop stays free for requests. Default: never busy. */
  activeRequests?: () => number;
}

/** {@link HistoryServiceOptions} with defaults applied; passed to every history operation. */
export interface HistoryContext {
  readonly port: OpenCodeHistoryPort;
  readonly dirs: AppDirectories;
  /** Epoch ms. */
  readonly now: () => number;
  readonly hasApp: (app: string) => boolean;
  readonly viewLimits: ViewLimits;
  /** Null: every directory counts as live. */
  readonly liveDirectories: (() => readonly string[]) | null;
  /** {@link HistoryServiceOptions.externalRunsWithinMs}, at least 0. */
  readonly recentMs: number;
  readonly activeRequests: () => number;
}

/** Applies the defaults of {@link HistoryServiceOptions}. Throws (a programming error) without `opencode` or `port`. */
export function createHistoryContext(opts: HistoryServiceOptions): HistoryContext {
  if (!opts.port && !opts.opencode) throw new Error("HistoryService needs `opencode` or `port`");
  return {
    port: opts.port ?? createOpenCodeHistoryPort(opts.opencode as OpenCodeClientFactory),
    dirs: opts.directories ?? createAppDirectories(opts.appsDir),
    now: opts.now ?? Date.now,
    hasApp: opts.hasApp ?? (() => true),
    viewLimits: opts.viewLimits ?? DEFAULT_VIEW_LIMITS,
    liveDirectories: opts.liveDirectories ?? null,
    recentMs: Math.max(0, opts.externalRunsWithinMs ?? 0),
    activeRequests: opts.activeRequests ?? (() => 0),
  };
}

/** Throws PatchbayError `app_not_found` (404) for an unknown app. */
export function requireApp(ctx: HistoryContext, app: string): void {
  if (!ctx.hasApp(app)) throw new PatchbayError("app_not_found", `There is no app named '${app}'.`, { param: "name" });
}

/** The session when it exists and is filed under the app's folder; else 404 (another app's looks unknown). */
export async function ownedSession(ctx: HistoryContext, app: string, sessionId: string): Promise<RawSession> {
  requireApp(ctx, app);
  const s = await ctx.port.getSession(sessionId);
  if (!s || !ctx.dirs.owns(app, s.directory))
    throw new PatchbayError("session_not_found", `App '${app}' has no session ${sessionId}.`);
  return s;
}

/** True when `directory`'s instance may be live (sessions can only run there). */
export function isLive(ctx: HistoryContext, directory: string): boolean {
  return ctx.liveDirectories === null || ctx.liveDirectories().includes(directory);
}

/** The directory to address a session's calls to: its own instance when live, else the default one (no boot). */
export function scope(ctx: HistoryContext, directory: string): string | undefined {
  return ctx.liveDirectories === null || isLive(ctx, directory) ? directory : undefined;
}
