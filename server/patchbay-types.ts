// Public types of the composition root (server/index.ts): what main/, the CLI and tests may rely on.
import type { RequestLogEntry } from "../shared/log-entry";
import type { PatchbayStatus } from "../shared/status";
import type { RuntimeTimings } from "./opencode/runtime/opencode-runtime";
import type { UserOpenCodePaths } from "./opencode-user-paths";

/** Native actions the desktop shell offers the dashboard; absent in headless mode (the UI hides them). */
export interface DesktopHost {
  /** Opens Patchbay's data folder in the OS file manager. */
  openDataFolder(): Promise<void>;
  /** Current launch-at-login state. */
  getLaunchAtLogin(): Promise<boolean>;
  setLaunchAtLogin(enabled: boolean): Promise<void>;
}

/** Dependencies of {@link createPatchbay}. Everything has a sane default except `dataDir`. */
export interface PatchbayDeps {
  /** Patchbay's data folder (settings, apps, keys, logs, OpenCode home, app folders). */
  dataDir: string;
  /** Overrides the stored settings for this run (CLI flags). `port: 0` picks a free port. */
  host?: string;
  port?: number;
  /** SearXNG-compatible search endpoint for web search server tools (CLI `--search-url`, PATCHBAY_SEARCH_URL); wins
   *  over the setting. */
  searchUrl?: string;
  /** Where `searchUrl` came from, for status (`patchbay app web-search` and the dashboard say it). Default
   *  `--search-url`. */
  searchUrlFrom?: "--search-url" | "PATCHBAY_SEARCH_URL";
  /** Tests only: lets web fetch reach these addresses (e.g. 127.0.0.1 mock pages). Default: public addresses only. */
  webFetchAllowAddress?: (ip: string) => boolean;
  /** Start the built-in demo upstream and register it as the `demo` provider. */
  demo?: boolean;
  /** Desktop shell hooks (Electron); omitted in headless mode. */
  desktop?: DesktopHost;
  /** The user's OpenCode files; default: the OS-standard OpenCode locations of the current user. */
  userOpenCode?: UserOpenCodePaths;
  /** Path of the `opencode` binary; default: the pinned `opencode-ai` package (or PATCHBAY_OPENCODE_BIN). */
  opencodeBinary?: string;
  /** Folder of the built dashboard (default: `dist/renderer` of this checkout; the desktop bundle passes its own). */
  rendererDir?: string;
  /** Diagnostic log sink (one line per call); default: stderr. */
  log?: (line: string) => void;
  /** Clock for tests (epoch ms). */
  now?: () => number;
  /** Environment that locates coding agents' config files for the dashboard's Set up dialog (default: process.env). */
  clientEnv?: Record<string, string | undefined>;
  /** OpenCode runtime knobs (recycle/reap/pre-warm timings, session pool size); defaults suit production. */
  runtime?: { timings?: RuntimeTimings; sessionPoolSize?: number };
  /**
   * How long a stream waits for its first output before committing its headers (ms; default 1000). Before the commit
   * an upstream error is a real HTTP status; after it, an in-band error event. Tests on a loaded machine raise it.
   */
  commitAfterMs?: number;
  /** OpenCode keep-alive for this run, ms (null = forever; CLI `--opencode-keep-alive`, PATCHBAY_OPENCODE_KEEP_ALIVE);
   *  wins over the setting. */
  opencodeKeepAliveMs?: number | null;
}

/** URLs printed by `serve` and used by the desktop shell. */
export interface PatchbayUrls {
  /** `http://host:port/v1` of the OpenAI listener (null if it could not start, see status().api.error). */
  openaiUrl: string | null;
  /** Admin listener origin, e.g. `http://127.0.0.1:53111`. */
  adminUrl: string;
  /** Dashboard URL without credentials. */
  dashboardUrl: string;
  /** One-time login URL: the dashboard trades it for a session token kept in the page's sessionStorage. */
  loginUrl: string;
  /** Per-launch admin token: scripts and the CLI send it as Bearer (runtime.json); never put in a cookie. */
  adminToken: string;
}

/** A running Patchbay: the composition root's handle. */
export interface Patchbay {
  /** Starts OpenCode (in the background), the admin listener and, per settings, the OpenAI listener. */
  start(): Promise<PatchbayUrls>;
  /** Stops listeners and OpenCode (no orphan process), flushes logs and stores. Idempotent. */
  stop(): Promise<void>;
  /** Starts/stops the OpenAI listener only (tray and dashboard Start/Stop API). */
  startApi(): Promise<void>;
  stopApi(): Promise<void>;
  status(): PatchbayStatus;
  /** Called on every status change (API start/stop, OpenCode state, apps changed). Returns unsubscribe. */
  onStatus(listener: (s: PatchbayStatus) => void): () => void;
  /** Called with each API request's (redacted) log entry as it finishes; returns unsubscribe. Optional so that
   *  test doubles may leave it out. */
  onRequest?(listener: (entry: RequestLogEntry) => void): () => void;
  /** URLs once started, else null. */
  readonly urls: PatchbayUrls | null;
  /** A fresh one-time dashboard login URL (each works once). */
  createLoginUrl(): string;
  /** "Restart OpenCode" (tray, dashboard): starts a failed or sleeping OpenCode now, restarts a ready one between
   *  requests. Resolves once it is ready or failed; never throws. Optional so that test doubles may leave it out. */
  restartOpenCode?(): Promise<void>;
}

export type { UserOpenCodePaths };

/** The composition root's factory (server/index.ts), injectable for tests of `serve` and `doctor`. */
export type CreatePatchbay = (deps: PatchbayDeps) => Promise<Patchbay>;
