// The admin API endpoint table: one row per endpoint (method, path, zod input, zod output). The server mounts each
// row onto a service call and the renderer's typed client calls the same row (STYLE §2). Adding an endpoint is adding
// a row. No Node, no DOM, no handlers here.
import type { z } from "zod";
import { App } from "./apps";
import { CreatedKey } from "./keys";
import { RequestLogEntry } from "./log-entry";
import { Settings } from "./settings";
import {
  AppWithWarnings,
  AdminStatus,
  AppCreate,
  AppList,
  AppDeleteQuery,
  AppDeleted,
  AppParams,
  AppUpdate,
  DesktopState,
  KeyCreate,
  KeyList,
  KeyParams,
  LaunchAtLoginInput,
  LogPage,
  LogQueryInput,
  LogStreamQuery,
  ModelCatalog,
  Ok,
  SessionCreate,
  SessionCreated,
  LoginLink,
  SettingsUpdate,
  UsageQuery,
  UsageReport,
} from "./admin/schemas";
import {
  DeleteConversationsBody,
  DeleteSessionsBody,
  DeleteSessionsResult,
  LastSweep,
  MessageListQuery,
  MessagePage,
  PruneBody,
  PrunePreview,
  PrunePreviewQuery,
  SessionListQuery,
  SessionPage,
  SessionParams,
  SweepResult,
} from "./admin/history";
import {
  ConnectApplyResult,
  ConnectBody,
  ConnectParams,
  ConnectPreview,
  ConnectUndoResult,
  ConnectVerifyResult,
} from "./admin/connect";
import { DoctorRun, DoctorStartBody } from "./admin/doctor";
import {
  StoredResponseDetail,
  StoredResponseListQuery,
  StoredResponsePage,
  StoredResponseParams,
} from "./admin/stored-responses";

export * from "./admin/schemas";
export * from "./admin/history";
export * from "./admin/connect";
export * from "./admin/doctor";
export * from "./admin/stored-responses";
export { buildPath, buildQuery } from "./admin/endpoint-url";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Prefix of every admin API path. */
export const ADMIN_API_PREFIX = "/admin/api";
/** Where the dashboard keeps its session token: `sessionStorage`, which belongs to one origin (scheme, host and
 *  port), so no other local server can read it, and nothing sends it by itself (issue 16 item 9). */
export const SESSION_STORAGE_KEY = "patchbay.session";

/** One admin endpoint. `params`/`query`/`body` are absent when the endpoint takes none. */
export interface EndpointDef {
  method: HttpMethod;
  /** Express-style path with `:param` segments, always under {@link ADMIN_API_PREFIX}. */
  path: `/admin/api${string}`;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** JSON response body; for `sse` rows, the `data` of each event. */
  output: z.ZodType;
  /** HTTP status on success (default 200). */
  successStatus?: number;
  /** Server-sent events (`text/event-stream`), one JSON `data:` per event; not callable through the JSON client. */
  sse?: true;
  /** Callable without credentials (only the login-nonce exchange). */
  public?: true;
  /** Only served when a DesktopHost is present (else 404 `not_found`); the UI hides it when `status.desktop` is false. */
  desktopOnly?: true;
  summary: string;
}

/** The admin API. Keys are the endpoint names used by the typed client (`client.getApp({params:{name}})`). */
export const adminApi = {
  getStatus: { method: "GET", path: "/admin/api/status", output: AdminStatus, summary: "Runtime status" },
  statusStream: {
    method: "GET",
    path: "/admin/api/status/stream",
    output: AdminStatus,
    sse: true,
    summary: "Status on every change (SSE)",
  },
  openDashboardSession: {
    method: "POST",
    path: "/admin/api/dashboard-session",
    body: SessionCreate,
    output: SessionCreated,
    successStatus: 201,
    public: true,
    summary: "Trade a one-time login token for a dashboard session token (no credentials needed)",
  },
  closeDashboardSession: {
    method: "DELETE",
    path: "/admin/api/dashboard-session",
    output: Ok,
    summary: "Sign out: end the calling dashboard session (the admin token itself stays valid)",
  },
  createLoginLink: {
    method: "POST",
    path: "/admin/api/login-links",
    output: LoginLink,
    successStatus: 201,
    summary: "A fresh one-time dashboard login URL (`patchbay dashboard`)",
  },
  startApi: { method: "POST", path: "/admin/api/api/start", output: AdminStatus, summary: "Start the OpenAI listener" },
  stopApi: { method: "POST", path: "/admin/api/api/stop", output: AdminStatus, summary: "Stop the OpenAI listener" },
  restartOpenCode: {
    method: "POST",
    path: "/admin/api/opencode/restart",
    output: AdminStatus,
    summary: "Start OpenCode now (failed, sleeping) or restart it between requests (ready); answers at once",
  },

  listApps: { method: "GET", path: "/admin/api/apps", output: AppList, summary: "Apps with key counts" },
  createApp: {
    method: "POST",
    path: "/admin/api/apps",
    body: AppCreate,
    // `warnings`: e.g. routes whose models could not be checked (OpenCode not running yet).
    output: AppWithWarnings,
    successStatus: 201,
    summary: "Create an app",
  },
  getApp: { method: "GET", path: "/admin/api/apps/:name", params: AppParams, output: App, summary: "One app" },
  updateApp: {
    method: "PATCH",
    path: "/admin/api/apps/:name",
    params: AppParams,
    body: AppUpdate,
    // `warnings`: e.g. an alias whose target no connected provider offers (set anyway; hidden from /v1/models).
    output: AppWithWarnings,
    summary: "Change allowlist, aliases, limits or history limits",
  },
  deleteApp: {
    method: "DELETE",
    path: "/admin/api/apps/:name",
    params: AppParams,
    query: AppDeleteQuery,
    output: AppDeleted,
    summary: "Delete an app: its keys, then its sessions (`?sessions=keep` leaves them), then the app",
  },

  listKeys: {
    method: "GET",
    path: "/admin/api/apps/:name/keys",
    params: AppParams,
    output: KeyList,
    summary: "Keys (prefix only)",
  },
  createKey: {
    method: "POST",
    path: "/admin/api/apps/:name/keys",
    params: AppParams,
    body: KeyCreate,
    output: CreatedKey,
    successStatus: 201,
    summary: "Create a key; the only response that carries the full key",
  },
  revokeKey: {
    method: "DELETE",
    path: "/admin/api/apps/:name/keys/:prefix",
    params: KeyParams,
    output: Ok,
    summary: "Revoke a key",
  },

  getUsage: {
    method: "GET",
    path: "/admin/api/apps/:name/usage",
    params: AppParams,
    query: UsageQuery,
    output: UsageReport,
    summary: "Requests and tokens per day (default 30 days)",
  },

  // Session history (issue 6): 404 `app_not_found` / `session_not_found`, 409 `session_running`, 503 while OpenCode is down.
  listSessions: {
    method: "GET",
    path: "/admin/api/apps/:name/sessions",
    params: AppParams,
    query: SessionListQuery,
    output: SessionPage,
    summary: "The app's OpenCode sessions, newest first (cursor pages, title search)",
  },
  getSessionMessages: {
    method: "GET",
    path: "/admin/api/apps/:name/sessions/:id/messages",
    params: SessionParams,
    query: MessageListQuery,
    output: MessagePage,
    summary: "A session's messages, newest page first (cursor pages to older ones)",
  },
  deleteSession: {
    method: "DELETE",
    path: "/admin/api/apps/:name/sessions/:id",
    params: SessionParams,
    output: Ok,
    summary: "Delete one session (409 while it runs)",
  },
  deleteSessions: {
    method: "POST",
    path: "/admin/api/apps/:name/sessions/delete",
    params: AppParams,
    body: DeleteSessionsBody,
    output: DeleteSessionsResult,
    summary: "Delete a selection of sessions (running ones are kept and reported)",
  },
  deleteConversations: {
    method: "POST",
    path: "/admin/api/apps/:name/conversations/delete",
    params: AppParams,
    body: DeleteConversationsBody,
    output: DeleteSessionsResult,
    summary: "Delete whole conversations: every request (session) of each (running ones are kept and reported)",
  },
  previewPrune: {
    method: "GET",
    path: "/admin/api/apps/:name/history/preview",
    params: AppParams,
    query: PrunePreviewQuery,
    output: PrunePreview,
    summary: "What a prune would delete now, for the given (or saved) history limits",
  },
  pruneNow: {
    method: "POST",
    path: "/admin/api/apps/:name/history/prune",
    params: AppParams,
    body: PruneBody,
    output: SweepResult,
    summary: "Run one bounded sweep with the saved limits now",
  },
  getLastSweep: {
    method: "GET",
    path: "/admin/api/apps/:name/history/last-sweep",
    params: AppParams,
    output: LastSweep,
    summary: "The app's last sweep result and whether one is running",
  },

  // Set up a coding agent (issue 17): the same operations as `patchbay connect`, on this machine's files.
  // 400 for a config file Patchbay cannot edit (nothing written); 404 `not_found` for verify when it is not set up.
  previewConnect: {
    method: "POST",
    path: "/admin/api/connect/:client/preview",
    params: ConnectParams,
    body: ConnectBody,
    output: ConnectPreview,
    summary: "What setting the client up would change in its config file (a diff; writes nothing)",
  },
  applyConnect: {
    method: "POST",
    path: "/admin/api/connect/:client/apply",
    params: ConnectParams,
    body: ConnectBody,
    output: ConnectApplyResult,
    summary: "Write Patchbay's settings into the client's config file (original backed up once)",
  },
  undoConnect: {
    method: "POST",
    path: "/admin/api/connect/:client/undo",
    params: ConnectParams,
    output: ConnectUndoResult,
    summary: "Restore the client's config file as it was before the first set-up",
  },
  verifyConnect: {
    method: "POST",
    path: "/admin/api/connect/:client/verify",
    params: ConnectParams,
    output: ConnectVerifyResult,
    summary: "One real request in the client's wire with the settings in its config file",
  },

  // Check the agent CLIs (issue 25): `patchbay doctor` in the background; 409 `conflict` while one is running.
  startDoctor: {
    method: "POST",
    path: "/admin/api/doctor",
    body: DoctorStartBody,
    output: DoctorRun,
    successStatus: 202,
    summary: "Start checking the installed agent CLIs against a throwaway Patchbay (demo model); poll getDoctor",
  },
  getDoctor: { method: "GET", path: "/admin/api/doctor", output: DoctorRun, summary: "The last/current check" },

  // Stored Responses (issue 13): 404 `app_not_found` / `response_not_found`, 500 `storage_error` for a damaged record.
  listStoredResponses: {
    method: "GET",
    path: "/admin/api/apps/:name/responses",
    params: AppParams,
    query: StoredResponseListQuery,
    output: StoredResponsePage,
    summary: "The app's stored Responses, newest first (damaged records listed with their error)",
  },
  getStoredResponse: {
    method: "GET",
    path: "/admin/api/apps/:name/responses/:id",
    params: StoredResponseParams,
    output: StoredResponseDetail,
    summary: "One stored response: the whole conversation the model saw and its output",
  },
  deleteStoredResponse: {
    method: "DELETE",
    path: "/admin/api/apps/:name/responses/:id",
    params: StoredResponseParams,
    output: Ok,
    summary: "Delete one stored response",
  },

  getModels: { method: "GET", path: "/admin/api/models", output: ModelCatalog, summary: "Model catalog from OpenCode" },

  getSettings: { method: "GET", path: "/admin/api/settings", output: Settings, summary: "Global settings" },
  updateSettings: {
    method: "PATCH",
    path: "/admin/api/settings",
    body: SettingsUpdate,
    output: Settings,
    summary: "Change settings",
  },

  queryLogs: {
    method: "GET",
    path: "/admin/api/logs",
    query: LogQueryInput,
    output: LogPage,
    summary: "Request log, newest first, paged",
  },
  logStream: {
    method: "GET",
    path: "/admin/api/logs/stream",
    query: LogStreamQuery,
    output: RequestLogEntry,
    sse: true,
    summary: "Live request log (SSE): recent entries first, then live",
  },

  getDesktop: {
    method: "GET",
    path: "/admin/api/desktop",
    output: DesktopState,
    desktopOnly: true,
    summary: "Desktop state",
  },
  openDataFolder: {
    method: "POST",
    path: "/admin/api/desktop/open-data-folder",
    output: Ok,
    desktopOnly: true,
    summary: "Open the data folder in the file manager",
  },
  setLaunchAtLogin: {
    method: "PUT",
    path: "/admin/api/desktop/launch-at-login",
    body: LaunchAtLoginInput,
    output: DesktopState,
    desktopOnly: true,
    summary: "Launch Patchbay at login (also saved in settings)",
  },
} as const satisfies Record<string, EndpointDef>;

export type AdminApi = typeof adminApi;
export type EndpointName = keyof AdminApi;
/** Endpoints callable through the JSON client (everything but SSE rows). */
export type JsonEndpointName = { [K in EndpointName]: AdminApi[K] extends { sse: true } ? never : K }[EndpointName];

type InputPart<E, K extends "params" | "query" | "body"> = E extends { [P in K]: infer S extends z.ZodType }
  ? object extends z.input<S>
    ? { [P in K]?: z.input<S> }
    : { [P in K]: z.input<S> }
  : { [P in K]?: undefined };

/** What a caller passes to an endpoint: `{params, query, body}`, each only where the row has it. */
export type EndpointInput<E> = InputPart<E, "params"> & InputPart<E, "query"> & InputPart<E, "body">;
/** Parsed input as a handler receives it (defaults applied, coerced). */
export type EndpointParsedInput<E> = {
  params: E extends { params: infer S extends z.ZodType } ? z.output<S> : undefined;
  query: E extends { query: infer S extends z.ZodType } ? z.output<S> : undefined;
  body: E extends { body: infer S extends z.ZodType } ? z.output<S> : undefined;
};
/** Response body of an endpoint (for SSE rows: one event's data). */
export type EndpointOutput<E> = E extends { output: infer S extends z.ZodType } ? z.output<S> : never;
