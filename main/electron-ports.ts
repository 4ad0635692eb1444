// ElectronPorts implemented with real Electron: the only module that calls Electron APIs (main.ts passes the module
// in). Deliberately logic-free; it cannot run without the Electron binary and is checked by tsc against electron.d.ts.
import type * as ElectronModule from "electron";
import type { ElectronPorts, MenuTemplateItem, WindowPort } from "./ports";
import { trayIsDarkFor } from "./tray-icon";
import { dashboardWindowOptions } from "./window";

/** Adapts the `electron` module to {@link ElectronPorts}. */
export function createElectronPorts(
  electron: typeof ElectronModule,
  env: Record<string, string | undefined>,
): ElectronPorts {
  const { app, BrowserWindow, Menu, Notification, Tray, clipboard, nativeImage, nativeTheme, screen, session, shell } =
    electron;
  const platform = process.platform;
  return {
    platform,
    app: {
      requestSingleInstanceLock: () => app.requestSingleInstanceLock(),
      whenReady: () => app.whenReady(),
      quit: () => app.quit(),
      exit: (code) => app.exit(code),
      userDataPath: () => app.getPath("userData"),
      onSecondInstance: (listener) => app.on("second-instance", (_event, argv) => listener(argv)),
      onBeforeQuit: (listener) => app.on("before-quit", (event) => listener(event)),
      onWindowAllClosed: (listener) => app.on("window-all-closed", () => listener()),
      onActivate: (listener) => app.on("activate", () => listener()),
      wasOpenedAtLogin: () => platform === "darwin" && app.getLoginItemSettings().wasOpenedAtLogin,
    },
    createWindow(spec): WindowPort {
      const win = new BrowserWindow(dashboardWindowOptions(spec));
      const wc = win.webContents;
      return {
        loadURL: (url) => win.loadURL(url),
        show: () => win.show(),
        hide: () => win.hide(),
        focus: () => win.focus(),
        restore: () => win.restore(),
        reload: () => wc.reload(),
        isMinimized: () => win.isMinimized(),
        isVisible: () => win.isVisible(),
        isDestroyed: () => win.isDestroyed(),
        destroy: () => win.destroy(),
        getNormalBounds: () => win.getNormalBounds(),
        isMaximized: () => win.isMaximized(),
        maximize: () => win.maximize(),
        onClose: (listener) => win.on("close", (event) => listener(event)),
        onClosed: (listener) => win.on("closed", () => listener()),
        onBoundsChanged: (listener) => {
          win.on("resize", () => listener());
          win.on("move", () => listener());
          win.on("maximize", () => listener());
          win.on("unmaximize", () => listener());
        },
        onRenderProcessGone: (listener) => wc.on("render-process-gone", (_event, details) => listener(details.reason)),
        setWindowOpenHandler: (handler) =>
          wc.setWindowOpenHandler(({ url }) => {
            handler(url);
            return { action: "deny" };
          }),
        onWillNavigate: (listener) => wc.on("will-navigate", (event) => listener(event, event.url)),
      };
    },
    createTray(iconPath) {
      const image = (p: string) => {
        const img = nativeImage.createFromPath(p);
        if (platform === "darwin") img.setTemplateImage(true);
        return img;
      };
      const tray = new Tray(image(iconPath));
      return {
        setImage: (p) => tray.setImage(image(p)),
        setToolTip: (text) => tray.setToolTip(text),
        setMenu: (template: MenuTemplateItem[]) => tray.setContextMenu(Menu.buildFromTemplate(template)),
        onClick: (listener) => tray.on("click", () => listener()),
        destroy: () => tray.destroy(),
      };
    },
    restrictPermissions(allowed) {
      session.defaultSession.setPermissionRequestHandler((_wc, permission, callback) =>
        callback(allowed.includes(permission)),
      );
      session.defaultSession.setPermissionCheckHandler((_wc, permission) => allowed.includes(permission));
    },
    openExternal: (url) => shell.openExternal(url),
    openPath: (p) => shell.openPath(p),
    writeClipboard: (text) => clipboard.writeText(text),
    notify(title, body) {
      if (Notification.isSupported()) new Notification({ title, body }).show();
    },
    trayIsDark: () =>
      trayIsDarkFor({
        platform,
        currentDesktop: env.XDG_CURRENT_DESKTOP,
        darkApps: nativeTheme.shouldUseDarkColors,
        darkSystemUi: nativeTheme.shouldUseDarkColorsForSystemIntegratedUI,
      }),
    onThemeChanged: (listener) => nativeTheme.on("updated", () => listener()),
    displayWorkAreas: () => screen.getAllDisplays().map((d) => d.workArea),
    getLoginItem: (args) => ({
      openAtLogin: app.getLoginItemSettings(platform === "win32" ? { args } : undefined).openAtLogin,
    }),
    setLoginItem: ({ openAtLogin, args }) =>
      // openAsHidden only matters before macOS 13; later versions report wasOpenedAtLogin, which shell.ts checks.
      app.setLoginItemSettings({ openAtLogin, args, ...(platform === "darwin" ? { openAsHidden: true } : {}) }),
  };
}
