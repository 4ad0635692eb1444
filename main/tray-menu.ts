// The tray menu as plain data: a pure function of Patchbay's status. It knows nothing of Electron; tray.ts renders
// the model and routes the action ids.
import { CONNECT_CLIENT_IDS, CONNECT_CLIENT_NAMES, type ConnectClientId } from "../shared/admin/connect";
import type { PatchbayStatus } from "../shared/status";
import { activeRateLimits, budgetLine, rateLimitLine, type TimeFormat } from "../shared/limits";

/** What a menu item does when clicked. */
export type TrayAction =
  | { type: "start-api" }
  | { type: "stop-api" }
  | { type: "open-dashboard" }
  | { type: "copy-base-url" }
  | { type: "copy-app-snippet"; app: string }
  /** Opens the dashboard's Set up dialog for a coding agent (`/connect?setup=<client>`). */
  | { type: "open-setup"; client: ConnectClientId }
  | { type: "toggle-launch-at-login" }
  /** "Restart OpenCode": starts a failed or sleeping one now, restarts a ready one between requests. */
  | { type: "restart-opencode" }
  | { type: "quit" };

/** One entry of the tray menu model. */
export type MenuItemModel =
  | { kind: "label"; label: string }
  | { kind: "action"; label: string; action: TrayAction; enabled: boolean; toolTip?: string }
  | { kind: "checkbox"; label: string; action: TrayAction; checked: boolean }
  | { kind: "submenu"; label: string; items: MenuItemModel[] }
  | { kind: "separator" };

export interface TrayMenuOptions {
  /** Current OS launch-at-login state. */
  launchAtLogin: boolean;
  /** Shapes the app snippets: PowerShell on Windows, POSIX shell elsewhere. */
  platform: NodeJS.Platform;
  /** Apps listed before "More in the dashboard…" (menus with hundreds of entries are unusable). Default 20. */
  maxApps?: number;
  /** Clock for "last recycle n min ago" and which rate limits still hold (epoch ms; default Date.now). */
  now?: number;
  /** Formats "until …" times (default: local HH:MM). */
  formatTime?: TimeFormat;
  /** Rate-limited models listed before "… more on the Overview" (default 5). */
  maxRateLimits?: number;
}

const DEFAULT_MAX_APPS = 20;

/**
 * Builds the tray menu: status lines, Start/Stop API, Open Dashboard, Copy Base URL (disabled when the API is
 * stopped), an Apps submenu copying a ready-to-paste snippet per app, "Set up <agent>…" per coding agent (opens the
 * dashboard's Set up dialog), Launch at Login, Quit.
 */
export function buildTrayMenu(status: PatchbayStatus, opts: TrayMenuOptions): MenuItemModel[] {
  const running = status.api.running;
  const snippetBase = clientBaseUrl(status);
  return [
    { kind: "label", label: apiStatusLine(status) },
    { kind: "label", label: openCodeStatusLine(status, opts.now ?? Date.now()) },
    ...runtimeLines(status, opts.now ?? Date.now()).map((label): MenuItemModel => ({ kind: "label", label })),
    ...limitsLines(status, opts).map((label): MenuItemModel => ({ kind: "label", label })),
    ...restartItems(status),
    { kind: "separator" },
    running
      ? { kind: "action", label: "Stop API", action: { type: "stop-api" }, enabled: true }
      : { kind: "action", label: "Start API", action: { type: "start-api" }, enabled: true },
    { kind: "action", label: "Open Dashboard", action: { type: "open-dashboard" }, enabled: true },
    {
      kind: "action",
      label: "Copy Base URL",
      action: { type: "copy-base-url" },
      enabled: running && status.api.baseUrl !== null,
    },
    { kind: "submenu", label: "Apps", items: appItems(status, snippetBase, opts) },
    ...CONNECT_CLIENT_IDS.map((client): MenuItemModel => ({
      kind: "action",
      label: `Set up ${CONNECT_CLIENT_NAMES[client]}…`,
      action: { type: "open-setup", client },
      enabled: true,
    })),
    { kind: "separator" },
    {
      kind: "checkbox",
      label: "Launch at Login",
      action: { type: "toggle-launch-at-login" },
      checked: opts.launchAtLogin,
    },
    { kind: "separator" },
    { kind: "action", label: "Quit Patchbay", action: { type: "quit" }, enabled: true },
  ];
}

/** "Restart OpenCode" while it is failed, backing off or asleep (a ready one is restarted from the dashboard). */
function restartItems(status: PatchbayStatus): MenuItemModel[] {
  const state = status.opencode.state;
  if (state !== "failed" && state !== "restarting" && state !== "sleeping") return [];
  return [{ kind: "action", label: "Restart OpenCode", action: { type: "restart-opencode" }, enabled: true }];
}

/** First status line: whether the OpenAI API is listening, and where (or why not). */
export function apiStatusLine(status: PatchbayStatus): string {
  const { api } = status;
  if (api.running) return `API running on ${hostPort(displayHost(api.host, api.lanExposure), api.port)}`;
  if (api.error) return `API stopped: ${api.error}`;
  return "API stopped";
}

/** Memory and last recycle (issue 15), when the server reports them: e.g. "Memory: OpenCode 640 MB · Patchbay 120 MB"
 *  and "Last recycle: 12 min ago (memory 1210 MB over the 1024 MB limit)". */
export function runtimeLines(status: PatchbayStatus, now: number): string[] {
  const rt = status.runtime;
  if (!rt) return [];
  const mb = (b: number | null) => (b === null ? "?" : `${Math.round(b / 1024 ** 2)} MB`);
  const lines = [`Memory: OpenCode ${mb(rt.opencodeRssBytes)} · Patchbay ${mb(rt.patchbayRssBytes)}`];
  if (rt.lastRecycle) {
    const min = Math.max(0, Math.round((now - rt.lastRecycle.at) / 60_000));
    lines.push(`Last recycle: ${min < 1 ? "just now" : `${min} min ago`} (${rt.lastRecycle.reason})`);
  }
  return lines;
}

/** Limits (issue 24 §4–5), when there are any: one "provider/model rate-limited until 14:05" per model cooling down
 *  (at most `maxRateLimits`, then "n more on the Overview") and "Budget: app: 80/100 requests per 5 hours, resets
 *  15:00" for the tightest budget of the apps in use. */
export function limitsLines(
  status: PatchbayStatus,
  opts: Pick<TrayMenuOptions, "now" | "formatTime" | "maxRateLimits">,
): string[] {
  if (!status.limits) return [];
  const limited = activeRateLimits(status.limits.rateLimited, opts.now ?? Date.now());
  const max = opts.maxRateLimits ?? 5;
  const lines = limited.slice(0, max).map((r) => rateLimitLine(r, opts.formatTime));
  if (limited.length > max) lines.push(`${limited.length - max} more rate-limited models on the Overview`);
  const b = status.limits.tightestBudget;
  if (b) lines.push(`Budget: ${budgetLine(b, opts.formatTime)}`);
  return lines;
}

/** Second status line: the supervised OpenCode child's state ("OpenCode: sleeping / starting / ready", issue 26). A
 *  failed one says when it is tried again (`now`: epoch ms, default Date.now). */
export function openCodeStatusLine(status: PatchbayStatus, now: number = Date.now()): string {
  const { opencode } = status;
  switch (opencode.state) {
    case "ready":
      return opencode.version ? `OpenCode ${opencode.version} ready` : "OpenCode ready";
    case "starting":
      return "OpenCode starting…";
    case "restarting":
      return opencode.reason ? `OpenCode restarting (${opencode.reason})` : "OpenCode restarting…";
    case "failed": {
      const retry = opencode.nextRetryAt
        ? ` (next try in ${Math.max(1, Math.ceil((opencode.nextRetryAt - now) / 1000))} s)`
        : "";
      return (opencode.reason ? `OpenCode failed: ${opencode.reason}` : "OpenCode failed") + retry;
    }
    case "stopped":
      return "OpenCode stopped";
    case "sleeping":
      return "OpenCode sleeping (starts on the next request)";
  }
}

/**
 * Base URL a local client should use: the live one when running, else the configured one (so a snippet copied while
 * stopped is still right once started). Null when unknown (port 0 = "pick a free port" and not running).
 */
export function clientBaseUrl(status: PatchbayStatus): string | null {
  const { api } = status;
  if (api.running && api.baseUrl) return api.baseUrl;
  if (api.port <= 0) return null;
  return `http://${hostPort(displayHost(api.host, api.lanExposure), api.port)}/v1`;
}

/**
 * A ready-to-paste environment snippet for one app. The key is a placeholder: keys are stored hashed and shown once,
 * so the tray can never know it.
 */
export function appSnippet(app: string, baseUrl: string, platform: NodeJS.Platform): string {
  const key = `<your key for ${app}>`;
  if (platform === "win32") {
    return `$env:OPENAI_BASE_URL = "${baseUrl}"\r\n$env:OPENAI_API_KEY = "${key}"\r\n`;
  }
  return `export OPENAI_BASE_URL="${baseUrl}"\nexport OPENAI_API_KEY="${key}"\n`;
}

function appItems(status: PatchbayStatus, baseUrl: string | null, opts: TrayMenuOptions): MenuItemModel[] {
  if (status.apps.length === 0) return [{ kind: "label", label: "No apps yet: create one in the dashboard" }];
  const max = opts.maxApps ?? DEFAULT_MAX_APPS;
  const names = status.apps.map((a) => a.name).sort((a, b) => a.localeCompare(b));
  const items: MenuItemModel[] = names.slice(0, max).map((name) => ({
    kind: "action",
    label: `Copy setup for ${name}`,
    action: { type: "copy-app-snippet", app: name },
    enabled: baseUrl !== null,
    toolTip: "Copies OPENAI_BASE_URL and an OPENAI_API_KEY placeholder",
  }));
  if (names.length > max) {
    items.push({ kind: "separator" });
    items.push({
      kind: "action",
      label: `${names.length - max} more in the dashboard…`,
      action: { type: "open-dashboard" },
      enabled: true,
    });
  }
  return items;
}

/** A wildcard bind address is not something a client can connect to; local clients use loopback. */
function displayHost(host: string, lanExposure: boolean): string {
  if (lanExposure || host === "0.0.0.0" || host === "::") return "127.0.0.1";
  return host;
}

function hostPort(host: string, port: number): string {
  return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
}
