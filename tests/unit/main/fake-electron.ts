// Fakes of the Electron capabilities main/ uses (ElectronPorts) and of a Patchbay handle, recording every call so tests
// can assert order and arguments. No Electron needed.
import type { Patchbay, PatchbayDeps, PatchbayUrls } from "../../../server/index";
import type {
  AppPort,
  Bounds,
  ElectronPorts,
  MenuTemplateItem,
  PreventableEvent,
  RenderGoneReason,
  TrayPort,
  WindowPort,
  WindowSpec,
} from "../../../main/ports";
import type { PatchbayStatus } from "../../../shared/status";

/** A global, ordered record of what the fakes were asked to do. */
export type CallLog = string[];

export class FakeEvent implements PreventableEvent {
  prevented = false;
  preventDefault(): void {
    this.prevented = true;
  }
}

export class FakeApp implements AppPort {
  lockAvailable = true;
  openedAtLogin = false;
  exitCode: number | null = null;
  readonly listeners = {
    secondInstance: [] as ((argv: string[]) => void)[],
    beforeQuit: [] as ((e: PreventableEvent) => void)[],
    windowAllClosed: [] as (() => void)[],
    activate: [] as (() => void)[],
  };
  private readyResolve!: () => void;
  private readonly ready = new Promise<void>((r) => (this.readyResolve = r));

  constructor(
    private readonly calls: CallLog,
    private readonly userData: string,
    autoReady = true,
  ) {
    if (autoReady) this.readyResolve();
  }

  markReady(): void {
    this.readyResolve();
  }
  requestSingleInstanceLock(): boolean {
    this.calls.push("app.requestSingleInstanceLock");
    return this.lockAvailable;
  }
  whenReady(): Promise<void> {
    return this.ready;
  }
  /** Like Electron: emits before-quit; if nobody prevented it, the app would quit (recorded as exit(0)). */
  quit(): void {
    this.calls.push("app.quit");
    const e = new FakeEvent();
    for (const l of this.listeners.beforeQuit) l(e);
    if (!e.prevented && this.exitCode === null) this.exit(0);
  }
  exit(code: number): void {
    this.calls.push(`app.exit(${code})`);
    this.exitCode = code;
  }
  userDataPath(): string {
    return this.userData;
  }
  onSecondInstance(l: (argv: string[]) => void): void {
    this.listeners.secondInstance.push(l);
  }
  onBeforeQuit(l: (e: PreventableEvent) => void): void {
    this.listeners.beforeQuit.push(l);
  }
  onWindowAllClosed(l: () => void): void {
    this.listeners.windowAllClosed.push(l);
  }
  onActivate(l: () => void): void {
    this.listeners.activate.push(l);
  }
  wasOpenedAtLogin(): boolean {
    return this.openedAtLogin;
  }
  emitSecondInstance(argv: string[] = []): void {
    for (const l of this.listeners.secondInstance) l(argv);
  }
}

export class FakeWindow implements WindowPort {
  visible = false;
  minimized = false;
  maximized = false;
  destroyed = false;
  loadedUrl: string | null = null;
  bounds: Bounds;
  reloads = 0;
  openHandler: ((url: string) => void) | null = null;
  private closeListeners: ((e: PreventableEvent) => void)[] = [];
  private closedListeners: (() => void)[] = [];
  private boundsListeners: (() => void)[] = [];
  private goneListeners: ((r: RenderGoneReason) => void)[] = [];
  private navigateListeners: ((e: PreventableEvent, url: string) => void)[] = [];

  constructor(
    private readonly calls: CallLog,
    readonly spec: WindowSpec,
  ) {
    this.bounds = {
      x: spec.bounds.x ?? 100,
      y: spec.bounds.y ?? 100,
      width: spec.bounds.width,
      height: spec.bounds.height,
    };
  }

  async loadURL(url: string): Promise<void> {
    this.calls.push(`window.loadURL(${url})`);
    this.loadedUrl = url;
  }
  show(): void {
    this.calls.push("window.show");
    this.visible = true;
  }
  hide(): void {
    this.calls.push("window.hide");
    this.visible = false;
  }
  focus(): void {
    this.calls.push("window.focus");
  }
  restore(): void {
    this.calls.push("window.restore");
    this.minimized = false;
  }
  reload(): void {
    this.calls.push("window.reload");
    this.reloads++;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  isVisible(): boolean {
    return this.visible;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  destroy(): void {
    this.destroyed = true;
    for (const l of this.closedListeners) l();
  }
  getNormalBounds(): Bounds {
    return { ...this.bounds };
  }
  isMaximized(): boolean {
    return this.maximized;
  }
  maximize(): void {
    this.maximized = true;
  }
  onClose(l: (e: PreventableEvent) => void): void {
    this.closeListeners.push(l);
  }
  onClosed(l: () => void): void {
    this.closedListeners.push(l);
  }
  onBoundsChanged(l: () => void): void {
    this.boundsListeners.push(l);
  }
  onRenderProcessGone(l: (r: RenderGoneReason) => void): void {
    this.goneListeners.push(l);
  }
  setWindowOpenHandler(h: (url: string) => void): void {
    this.openHandler = h;
  }
  onWillNavigate(l: (e: PreventableEvent, url: string) => void): void {
    this.navigateListeners.push(l);
  }

  /** Simulates the user clicking the close button; returns whether the close was prevented. */
  userClose(): boolean {
    const e = new FakeEvent();
    for (const l of this.closeListeners) l(e);
    if (!e.prevented) this.destroy();
    return e.prevented;
  }
  moveTo(bounds: Bounds): void {
    this.bounds = bounds;
    for (const l of this.boundsListeners) l();
  }
  crashRenderer(reason: RenderGoneReason = "crashed"): void {
    for (const l of this.goneListeners) l(reason);
  }
  /** Simulates in-page navigation; returns whether it was prevented. */
  navigate(url: string): boolean {
    const e = new FakeEvent();
    for (const l of this.navigateListeners) l(e, url);
    return e.prevented;
  }
}

export class FakeTray implements TrayPort {
  image: string;
  toolTip = "";
  menu: MenuTemplateItem[] = [];
  destroyed = false;
  private clickListeners: (() => void)[] = [];
  constructor(iconPath: string) {
    this.image = iconPath;
  }
  setImage(p: string): void {
    this.image = p;
  }
  setToolTip(t: string): void {
    this.toolTip = t;
  }
  setMenu(t: MenuTemplateItem[]): void {
    this.menu = t;
  }
  onClick(l: () => void): void {
    this.clickListeners.push(l);
  }
  destroy(): void {
    this.destroyed = true;
  }
  click(): void {
    for (const l of this.clickListeners) l();
  }
  /** Clicks the (possibly nested) menu item with this label; throws if absent or disabled. */
  clickItem(label: string): void {
    const find = (items: MenuTemplateItem[]): MenuTemplateItem | undefined => {
      for (const i of items) {
        if (i.label === label) return i;
        const sub = i.submenu ? find(i.submenu) : undefined;
        if (sub) return sub;
      }
      return undefined;
    };
    const item = find(this.menu);
    if (!item) throw new Error(`no menu item "${label}" in ${JSON.stringify(this.menu.map((i) => i.label))}`);
    if (item.enabled === false) throw new Error(`menu item "${label}" is disabled`);
    item.click?.();
  }
  labels(): string[] {
    return this.menu.map((i) => i.label ?? `(${i.type})`);
  }
}

export interface FakePorts extends ElectronPorts {
  app: FakeApp;
  calls: CallLog;
  windows: FakeWindow[];
  trays: FakeTray[];
  clipboard: string[];
  notifications: { title: string; body: string }[];
  external: string[];
  openedPaths: string[];
  allowedPermissions: readonly string[] | null;
  loginItem: { openAtLogin: boolean; args: string[] };
  dark: boolean;
  themeListeners: (() => void)[];
  openPathError: string;
}

/** Builds a complete set of fake ports. */
export function createFakePorts(opts: {
  userData: string;
  platform?: NodeJS.Platform;
  autoReady?: boolean;
}): FakePorts {
  const calls: CallLog = [];
  const ports: FakePorts = {
    platform: opts.platform ?? "linux",
    calls,
    app: new FakeApp(calls, opts.userData, opts.autoReady ?? true),
    windows: [],
    trays: [],
    clipboard: [],
    notifications: [],
    external: [],
    openedPaths: [],
    allowedPermissions: null,
    loginItem: { openAtLogin: false, args: [] },
    dark: true,
    themeListeners: [],
    openPathError: "",
    createWindow(spec) {
      calls.push("createWindow");
      const w = new FakeWindow(calls, spec);
      ports.windows.push(w);
      return w;
    },
    createTray(iconPath) {
      calls.push("createTray");
      const t = new FakeTray(iconPath);
      ports.trays.push(t);
      return t;
    },
    restrictPermissions(allowed) {
      ports.allowedPermissions = allowed;
    },
    async openExternal(url) {
      calls.push(`openExternal(${url})`);
      ports.external.push(url);
    },
    async openPath(p) {
      ports.openedPaths.push(p);
      return ports.openPathError;
    },
    writeClipboard(text) {
      ports.clipboard.push(text);
    },
    notify(title, body) {
      calls.push(`notify(${title})`);
      ports.notifications.push({ title, body });
    },
    trayIsDark: () => ports.dark,
    onThemeChanged(l) {
      ports.themeListeners.push(l);
    },
    displayWorkAreas: () => [{ x: 0, y: 0, width: 1920, height: 1080 }],
    getLoginItem: () => ({ openAtLogin: ports.loginItem.openAtLogin }),
    setLoginItem(s) {
      ports.loginItem = { ...s };
    },
  };
  return ports;
}

/** A status with sensible defaults; override what a test cares about. */
export function makeStatus(over: {
  api?: Partial<PatchbayStatus["api"]>;
  opencode?: Partial<PatchbayStatus["opencode"]>;
  apps?: string[];
}): PatchbayStatus {
  const running = over.api?.running ?? true;
  return {
    version: "0.1.0",
    startedAt: 0,
    uptimeMs: 0,
    api: {
      running,
      host: "127.0.0.1",
      port: 4747,
      baseUrl: running ? "http://127.0.0.1:4747/v1" : null,
      error: null,
      lanExposure: false,
      pinned: false,
      portPicked: false,
      ...over.api,
    },
    opencode: { state: "ready", reason: null, version: "1.18.33", url: null, pid: 123, restarts: 0, ...over.opencode },
    dataDir: "/data",
    demo: false,
    notices: [],
    totals: { requests: 0, errors: 0, requestsToday: 0, errorsToday: 0 },
    apps: (over.apps ?? []).map((name) => ({ name })),
  };
}

/** A fake Patchbay handle recording start/stop order; `emit` pushes a status to subscribers. */
export class FakePatchbay implements Patchbay {
  current: PatchbayStatus;
  urls: PatchbayUrls | null = null;
  stopCalls = 0;
  stopDelayMs = 0;
  stopError: Error | null = null;
  startError: Error | null = null;
  private listeners = new Set<(s: PatchbayStatus) => void>();

  constructor(
    private readonly calls: CallLog,
    readonly deps: PatchbayDeps,
    status: PatchbayStatus = makeStatus({}),
  ) {
    this.current = status;
  }
  async start(): Promise<PatchbayUrls> {
    this.calls.push("patchbay.start");
    if (this.startError) throw this.startError;
    this.urls = {
      openaiUrl: "http://127.0.0.1:4747/v1",
      adminUrl: "http://127.0.0.1:53111",
      dashboardUrl: "http://127.0.0.1:53111/",
      loginUrl: "http://127.0.0.1:53111/login?token=t0k",
      adminToken: "t0k",
    };
    return this.urls;
  }
  async stop(): Promise<void> {
    this.stopCalls++;
    // What Patchbay.stop does, in order (the fake only records it).
    this.calls.push("patchbay.stop:listeners");
    if (this.stopDelayMs) await new Promise((r) => setTimeout(r, this.stopDelayMs));
    if (this.stopError) throw this.stopError;
    this.calls.push("patchbay.stop:opencode");
  }
  async startApi(): Promise<void> {
    this.calls.push("patchbay.startApi");
    this.emit(makeStatus({ api: { running: true }, apps: this.current.apps.map((a) => a.name) }));
  }
  async stopApi(): Promise<void> {
    this.calls.push("patchbay.stopApi");
    this.emit(makeStatus({ api: { running: false }, apps: this.current.apps.map((a) => a.name) }));
  }
  status(): PatchbayStatus {
    return this.current;
  }
  createLoginUrl(): string {
    return "http://127.0.0.1:53111/login?token=once";
  }
  onStatus(listener: (s: PatchbayStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  emit(status: PatchbayStatus): void {
    this.current = status;
    for (const l of this.listeners) l(status);
  }
}
