// What the admin listener needs from the rest of Patchbay, as interfaces only (the lead builds it in createPatchbay).
// Must not construct anything: stores, backend and listeners are injected.
import type { ModelInfo } from "../../core/contract";
import type { AdminHistory } from "../../history";
import type { ConversationAdmin } from "../../history/with-conversations";
import type { DoctorService } from "../../doctor/doctor-runs";
import type { ResponseStore } from "../../responses-store/response-store";
import type { DesktopHost } from "../../patchbay-types";
import type { AppsStore, KeysStore, RequestLog, SettingsStore } from "../../stores/types";
import type { PatchbayStatus } from "../../../shared/status";
import type { Express } from "express";
import type { App } from "../../../shared/apps";
import type { BudgetStatus } from "../../../shared/routing";
import type { CliCommand } from "../../core/cli-command";

/** Dependencies of {@link createAdminApp}. */
export interface AdminServices {
  settings: SettingsStore;
  apps: AppsStore;
  keys: KeysStore;
  requestLog: RequestLog;
  /** Models of connected providers (the OpenCode backend's `listModels`). Throws PatchbayError
   *  `backend_unavailable`/`backend_starting` while OpenCode is down; the UI shows that message. */
  listModels(): Promise<ModelInfo[]>;
  status(): PatchbayStatus;
  /** Called on every status change; returns unsubscribe. Drives `GET /admin/api/status/stream`. */
  onStatus(listener: (s: PatchbayStatus) => void): () => void;
  /** Start/stop the OpenAI listener (same action as the tray). May throw PatchbayError (e.g. port in use). */
  startApi(): Promise<void>;
  stopApi(): Promise<void>;
  /** "Restart OpenCode": starts it now whatever its state, in the background (the status shows the progress). */
  restartOpenCode?(): void;
  /** A dashboard page was loaded: a sleeping OpenCode starts in the background (its pages list sessions, models). */
  onVisit?(): void;
  /** Native actions; absent in headless mode (desktop endpoints then answer 404 and the UI hides them). */
  desktop?: DesktopHost;
  /** How a message names a Patchbay command on this machine, the data folder included (cliCommandFor). */
  cli: CliCommand;
  /** Per-launch admin token, sent as `Authorization: Bearer` by scripts and the CLI (never put in a cookie). */
  adminToken: string;
  /** Admin listener origin, e.g. `http://127.0.0.1:53111` (known once the listener is bound; read per request).
   *  The Host header must equal its host:port, and write requests' Origin must equal it. */
  adminOrigin(): string;
  /** Folder of the built renderer (`dist/renderer`, containing index.html). */
  staticDir: string;
  /** Diagnostic log sink, one line per call (unexpected errors); default: stderr. */
  log?: (line: string) => void;
  /** Per-app session history (list, read, delete, prune; server/history). Absent → the history endpoints
   *  answer 503 `backend_unavailable`. */
  history?: AdminHistory & Partial<ConversationAdmin>;
  /** Environment that locates coding agents' config files for the connect rows (HOME, CLAUDE_CONFIG_DIR,
   *  CODEX_HOME); default: this process's. */
  clientEnv?: Record<string, string | undefined>;
  /** Where each budget of `app` stands now (Usage page); absent → no budgets are reported. */
  budgetStatuses?(app: App): BudgetStatus[];
  /** Stored Responses (issue 13). Absent → their endpoints answer 503 `backend_unavailable`. */
  responses?: ResponseStore;
  /** The agent check of the Connect page (`patchbay doctor` in the background). Absent → its endpoints answer 503
   *  `backend_unavailable`. */
  doctor?: DoctorService;
}

/** The admin app's login state as the session rows see it (built by createAdminApp; nothing outside it). */
export interface AdminLogins {
  /** Uses up a one-time login nonce and opens a dashboard session; null when the nonce is used or unknown. */
  exchange(nonce: string): string | null;
  /** Ends a dashboard session (unknown tokens, and the admin token, are ignored). */
  revoke(sessionToken: string): void;
  /** A fresh one-time login URL. */
  createLoginUrl(): string;
}

/** What a row's handler may know about its request beyond the parsed input. */
export interface AdminRequestContext {
  /** The caller's Bearer token (the admin token or a session token); null on the public row. */
  credential: string | null;
  logins: AdminLogins;
}

/** Tunables, for tests. */
export interface AdminAppOptions {
  /** SSE heartbeat comment interval (ms); default 15 000. */
  heartbeatMs?: number;
  /** Drop an SSE client whose socket stays full this long (ms); default 1 000. */
  slowClientMs?: number;
  /** Default number of recent log entries replayed to a new log-stream subscriber; default 100. */
  replay?: number;
  /** Random token source for one-time login nonces; default 32 random bytes, base64url. */
  randomToken?: () => string;
}

/** The admin listener's request handler and its controls. */
export interface AdminApp {
  /** Express app to bind on 127.0.0.1 (`http.createServer(handler)` or `handler.listen`). */
  handler: Express;
  /** A fresh single-use login URL (`<adminOrigin>/login?token=<nonce>`); the nonce is not the admin token. */
  createLoginUrl(): string;
  /** Every credential this app handed out that is still worth hiding (outstanding login nonces, live session
   *  tokens): the request log redacts them by value. */
  secrets(): string[];
  /** Ends live streams (SSE clients and their timers) so the HTTP server can close promptly. */
  close(): void;
}
