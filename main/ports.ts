// The seam between the desktop shell's logic and Electron: the few Electron capabilities main/ uses, as small
// interfaces. Only electron-ports.ts implements them with real Electron; tests implement them with fakes.

/** Window geometry in screen pixels (DIP). */
export interface Bounds {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** An event whose default action the handler may cancel (Electron's `Event`). */
export interface PreventableEvent {
  preventDefault(): void;
}

/** Why a renderer process ended (Electron's `RenderProcessGoneDetails.reason`; `memory-eviction` since Electron 42). */
export type RenderGoneReason =
  | "clean-exit"
  | "abnormal-exit"
  | "killed"
  | "crashed"
  | "oom"
  | "launch-failed"
  | "integrity-failure"
  | "memory-eviction";

/** Electron's `app`, reduced to what the shell needs; events are exposed as `on…` registrations. */
export interface AppPort {
  /** False when another instance already holds the lock (this one must quit). */
  requestSingleInstanceLock(): boolean;
  whenReady(): Promise<void>;
  /** Graceful quit: emits before-quit (the lifecycle intercepts it to stop Patchbay first). */
  quit(): void;
  /** Immediate exit: no before-quit, no window close events. */
  exit(code: number): void;
  /** Electron's `userData` folder. */
  userDataPath(): string;
  onSecondInstance(listener: (argv: string[]) => void): void;
  onBeforeQuit(listener: (event: PreventableEvent) => void): void;
  /** Registering a listener keeps the app alive when the last window closes (tray app). */
  onWindowAllClosed(listener: () => void): void;
  /** macOS: the dock icon was clicked / the app re-opened. */
  onActivate(listener: () => void): void;
  /** macOS: true when the login item started the app (start hidden in the tray). */
  wasOpenedAtLogin(): boolean;
}

/** Options of the dashboard window that vary per run (the security-relevant options are fixed in window.ts). */
export interface WindowSpec {
  bounds: Partial<Bounds> & { width: number; height: number };
  /** Window icon (Linux/Windows taskbar); null for the platform default. */
  iconPath: string | null;
  title: string;
}

/** One BrowserWindow and its webContents. */
export interface WindowPort {
  loadURL(url: string): Promise<void>;
  show(): void;
  hide(): void;
  focus(): void;
  restore(): void;
  reload(): void;
  isMinimized(): boolean;
  isVisible(): boolean;
  isDestroyed(): boolean;
  destroy(): void;
  /** Normal (non-maximized) bounds. */
  getNormalBounds(): Bounds;
  isMaximized(): boolean;
  maximize(): void;
  onClose(listener: (event: PreventableEvent) => void): void;
  onClosed(listener: () => void): void;
  onBoundsChanged(listener: () => void): void;
  onRenderProcessGone(listener: (reason: RenderGoneReason) => void): void;
  /** Popups (`window.open`, `target=_blank`): the handler's answer is always "deny" in Patchbay. */
  setWindowOpenHandler(handler: (url: string) => void): void;
  onWillNavigate(listener: (event: PreventableEvent, url: string) => void): void;
}

/** Electron's `MenuItemConstructorOptions` subset the tray uses. */
export interface MenuTemplateItem {
  type?: "normal" | "separator" | "submenu" | "checkbox";
  label?: string;
  enabled?: boolean;
  checked?: boolean;
  toolTip?: string;
  submenu?: MenuTemplateItem[];
  click?: () => void;
}

/** The tray icon. */
export interface TrayPort {
  setImage(iconPath: string): void;
  setToolTip(text: string): void;
  setMenu(template: MenuTemplateItem[]): void;
  onClick(listener: () => void): void;
  destroy(): void;
}

/** Everything the shell needs from Electron. */
export interface ElectronPorts {
  platform: NodeJS.Platform;
  app: AppPort;
  createWindow(spec: WindowSpec): WindowPort;
  createTray(iconPath: string): TrayPort;
  /** Denies every web permission except the ones listed (e.g. clipboard writes for the dashboard's copy buttons). */
  restrictPermissions(allowed: readonly string[]): void;
  openExternal(url: string): Promise<void>;
  /** Opens a folder or file with the OS; resolves to an error message, or "" on success (Electron's shell.openPath). */
  openPath(path: string): Promise<string>;
  writeClipboard(text: string): void;
  notify(title: string, body: string): void;
  /** Whether the tray/menu bar currently has a dark background. */
  trayIsDark(): boolean;
  onThemeChanged(listener: () => void): void;
  /** Work areas of the connected displays (to keep a remembered window on screen). */
  displayWorkAreas(): Bounds[];
  /** macOS/Windows login item settings; Linux uses an XDG autostart file instead. */
  getLoginItem(args: string[]): { openAtLogin: boolean };
  setLoginItem(settings: { openAtLogin: boolean; args: string[] }): void;
}
