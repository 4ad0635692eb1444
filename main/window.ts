// The dashboard window: its security options, the automatic login (a fresh one-time login URL per window),
// navigation/popup policy, and
// hide-to-tray with remembered geometry. Talks to Electron only through WindowPort/ElectronPorts.
import type { BrowserWindowConstructorOptions } from "electron";
import type { ElectronPorts, PreventableEvent, WindowPort, WindowSpec } from "./ports";
import { restoreBounds, type WindowState, type WindowStateFile } from "./window-state";

/** What the window loads. */
export interface DashboardTarget {
  /** Admin listener origin, e.g. `http://127.0.0.1:53111`. */
  adminUrl: string;
  /** A fresh one-time login URL (Patchbay.createLoginUrl): the page trades it for its own session token. */
  createLoginUrl(): string;
}

/** The login URL that lands on `route` (e.g. `/connect?setup=codex`) once signed in. The dashboard follows `next`
 *  only when it is a path on its own origin. */
export function loginUrlFor(target: DashboardTarget, route?: string): string {
  const url = new URL(target.createLoginUrl());
  if (route) url.searchParams.set("next", route);
  return url.href;
}

/**
 * BrowserWindow options. Security-relevant and fixed: sandboxed renderer, context isolation, no Node integration, no
 * preload (the dashboard talks to the server over HTTP only, DESIGN §1), no webviews, no insecure content.
 */
export function dashboardWindowOptions(spec: WindowSpec): BrowserWindowConstructorOptions {
  return {
    ...spec.bounds,
    title: spec.title,
    ...(spec.iconPath ? { icon: spec.iconPath } : {}),
    minWidth: 720,
    minHeight: 480,
    show: false,
    autoHideMenuBar: true,
    backgroundColor: "#111418",
    webPreferences: {
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  };
}

/** What to do with a navigation or popup request. */
export type NavigationDecision = "allow" | "open-external" | "deny";

/** In-window navigation: only within the admin origin; http(s) elsewhere opens in the browser; anything else is denied. */
export function decideNavigation(url: string, adminOrigin: string): NavigationDecision {
  const parsed = safeUrl(url);
  if (!parsed) return "deny";
  if (parsed.origin === new URL(adminOrigin).origin) return "allow";
  return isExternalWebUrl(parsed) ? "open-external" : "deny";
}

/** Popups are never opened in-app: external http(s) links go to the browser, everything else is denied. */
export function decideWindowOpen(url: string, adminOrigin: string): Exclude<NavigationDecision, "allow"> {
  const parsed = safeUrl(url);
  if (!parsed || parsed.origin === new URL(adminOrigin).origin) return "deny";
  return isExternalWebUrl(parsed) ? "open-external" : "deny";
}

function isExternalWebUrl(url: URL): boolean {
  return (url.protocol === "https:" || url.protocol === "http:") && url.username === "" && url.password === "";
}

function safeUrl(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** Web permissions the dashboard may use (its copy buttons write the clipboard); all others are denied. */
export const ALLOWED_PERMISSIONS = ["clipboard-sanitized-write"] as const;

export interface DashboardWindowDeps {
  ports: Pick<ElectronPorts, "createWindow" | "openExternal" | "displayWorkAreas">;
  stateFile: WindowStateFile;
  iconPath: string | null;
  /** True once a quit is under way: closing then really closes. */
  isQuitting(): boolean;
  /** The window was hidden by its close button for the first time ever (shell shows a notification). */
  onFirstHide(): void;
  /** The renderer process died; the lifecycle decides whether to reload. */
  onRendererGone(reason: string): void;
  log(line: string): void;
  /** Debounce timer for saving geometry (injectable for tests). */
  setTimer?(fn: () => void, ms: number): { cancel(): void };
}

const SAVE_DEBOUNCE_MS = 500;

/** Owns at most one dashboard window: created on first show, hidden (not closed) by its close button. */
export class DashboardWindow {
  private window: WindowPort | null = null;
  private target: DashboardTarget | null = null;
  private state: WindowState | null = null;
  private saveTimer: { cancel(): void } | null = null;

  constructor(private readonly deps: DashboardWindowDeps) {}

  /** Sets what the window loads (after Patchbay started). */
  setTarget(target: DashboardTarget): void {
    this.target = target;
  }

  /** Shows the dashboard, creating and loading the window first if needed; `route` (e.g. `/connect?setup=codex`)
   *  opens that page. Requires a target. */
  async show(route?: string): Promise<void> {
    const existing = this.window && !this.window.isDestroyed() ? this.window : null;
    const win = existing ?? (await this.create(route));
    if (existing && route && this.target)
      existing
        .loadURL(new URL(route, this.target.adminUrl).href)
        .catch((err: Error) => this.deps.log(`dashboard failed to load: ${err.message}`));
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
  }

  /** Whether a live window exists (shown or hidden). */
  get exists(): boolean {
    return this.window !== null && !this.window.isDestroyed();
  }

  /** Reloads the page (after a renderer crash). */
  reload(): void {
    if (this.window && !this.window.isDestroyed()) this.window.reload();
  }

  /** Writes the remembered geometry now (called on quit, since app.exit skips close events). */
  async saveState(): Promise<void> {
    this.saveTimer?.cancel();
    this.saveTimer = null;
    if (!this.state) return;
    if (this.window && !this.window.isDestroyed()) {
      this.state = { ...this.state, bounds: this.window.getNormalBounds(), maximized: this.window.isMaximized() };
    }
    try {
      await this.deps.stateFile.save(this.state);
    } catch (err) {
      this.deps.log(`window state not saved: ${(err as Error).message}`);
    }
  }

  /** Closes the window for good (quit). */
  destroy(): void {
    if (this.window && !this.window.isDestroyed()) this.window.destroy();
    this.window = null;
  }

  private async create(route?: string): Promise<WindowPort> {
    const target = this.target;
    if (!target) throw new Error("The dashboard is not available yet: Patchbay has not started.");
    this.state ??= await this.deps.stateFile.load();
    const spec: WindowSpec = {
      bounds: restoreBounds(this.state.bounds, this.deps.ports.displayWorkAreas()),
      iconPath: this.deps.iconPath,
      title: "Patchbay",
    };
    const win = this.deps.ports.createWindow(spec);
    this.window = win;
    if (this.state.maximized) win.maximize();
    this.wire(win, target.adminUrl);
    // No cookie (a cookie would reach every server on 127.0.0.1, issue 16 item 9): the window signs in like a browser,
    // with a one-time login URL, and keeps its session token in its own sessionStorage, which later loads (routes,
    // reloads after a renderer crash) keep.
    win
      .loadURL(loginUrlFor(target, route))
      .catch((err: Error) => this.deps.log(`dashboard failed to load: ${err.message}`));
    return win;
  }

  private wire(win: WindowPort, adminOrigin: string): void {
    win.onClose((event: PreventableEvent) => {
      if (this.deps.isQuitting()) return;
      event.preventDefault();
      const firstHide = this.state !== null && !this.state.hideNoticeShown;
      if (this.state && firstHide) this.state = { ...this.state, hideNoticeShown: true };
      void this.saveState();
      win.hide();
      if (firstHide) this.deps.onFirstHide();
    });
    win.onClosed(() => {
      if (this.window === win) this.window = null;
    });
    win.onBoundsChanged(() => this.scheduleSave());
    win.onRenderProcessGone((reason) => this.deps.onRendererGone(reason));
    win.setWindowOpenHandler((url) => {
      if (decideWindowOpen(url, adminOrigin) === "open-external") this.openExternal(url);
    });
    win.onWillNavigate((event, url) => {
      const decision = decideNavigation(url, adminOrigin);
      if (decision === "allow") return;
      event.preventDefault();
      if (decision === "open-external") this.openExternal(url);
    });
  }

  private openExternal(url: string): void {
    this.deps.ports.openExternal(url).catch((err: Error) => this.deps.log(`could not open ${url}: ${err.message}`));
  }

  private scheduleSave(): void {
    const setTimer =
      this.deps.setTimer ??
      ((fn: () => void, ms: number) => {
        const t = setTimeout(fn, ms);
        return { cancel: () => clearTimeout(t) };
      });
    this.saveTimer?.cancel();
    this.saveTimer = setTimer(() => void this.saveState(), SAVE_DEBOUNCE_MS);
  }

  /** For tests and the lifecycle: the current window (null if none). */
  get current(): WindowPort | null {
    return this.window;
  }
}
