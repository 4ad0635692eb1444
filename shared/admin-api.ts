// The admin API endpoint table: one row per endpoint (method, path, zod input, zod output). The server mounts each
// row onto a service call and the renderer's typed client calls the same row (STYLE §2). Adding an endpoint is adding
// a row. No Node, no DOM, no handlers here.
import type { EndpointDef } from "./admin/endpoint-def";
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

export * from "./admin/endpoint-def";

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
