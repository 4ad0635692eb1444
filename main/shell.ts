// The desktop shell's wiring: single instance, createPatchbay in userData, tray, dashboard window, notifications,
// lifecycle. Everything Electron comes in through ElectronPorts, so tests run this whole file against fakes.
import path from "node:path";
import type { Patchbay, PatchbayDeps, DesktopHost } from "../server/index";
import type { PatchbayStatus } from "../shared/status";
import { parseShellArgs } from "./args";
import { createDesktopHost } from "./desktop-host";
import { createLaunchAtLogin, type LaunchAtLogin } from "./launch-at-login";
import { Lifecycle } from "./lifecycle";
import { decideNotifications, INITIAL_NOTIFICATION_STATE, STILL_RUNNING_NOTIFICATION } from "./notifications";
import type { ElectronPorts } from "./ports";
import { TrayController } from "./tray";
import { appSnippet, clientBaseUrl, type TrayAction } from "./tray-menu";
import { ALLOWED_PERMISSIONS, DashboardWindow } from "./window";
import { WINDOW_STATE_FILE, WindowStateFile } from "./window-state";

export interface ShellDeps {
  ports: ElectronPorts;
  createPatchbay(deps: PatchbayDeps): Promise<Patchbay>;
  argv: readonly string[];
  env: Record<string, string | undefined>;
  /** Folder next to the bundle holding `tray/*.png` and `icon.png`. */
  assetsDir: string;
  /** Command that starts this app (for the Linux autostart entry). */
  launchCommand: string[];
  /** The built dashboard (dist/renderer next to the bundle); undefined = the server's default. */
  rendererDir?: string;
  /** Bundled OpenCode binary in a packaged app (see opencode-binary.ts); undefined = the server's default. */
  opencodeBinary?: string;
  onSignal(signal: "SIGINT" | "SIGTERM" | "SIGHUP", handler: () => void): void;
  log(line: string): void;
  now?(): number;
}

/** Handles to the running shell's parts (tests inspect them). */
export interface Shell {
  lifecycle: Lifecycle;
  window: DashboardWindow;
  tray: TrayController;
  desktop: DesktopHost;
  /** Resolves with Patchbay once started (rejects if it could not start). */
  ready: Promise<Patchbay>;
}

/**
 * Starts the desktop app. Returns null when another instance already runs (this one quits; the other one gets a
 * second-instance event and shows its dashboard).
 */
export function runShell(deps: ShellDeps): Shell | null {
  const { ports, log } = deps;
  const { app } = ports;
  if (!app.requestSingleInstanceLock()) {
    log("another Patchbay is already running; handing over to it");
    app.quit();
    return null;
  }
  const args = parseShellArgs(deps.argv);
  const notify = (title: string, body: string) => ports.notify(title, body);

  let lifecycle: Lifecycle | null = null;
  const window = new DashboardWindow({
    ports,
    stateFile: new WindowStateFile(path.join(app.userDataPath(), WINDOW_STATE_FILE)),
    iconPath: ports.platform === "linux" ? path.join(deps.assetsDir, "icon.png") : null,
    isQuitting: () => lifecycle?.quitting ?? false,
    onFirstHide: () => notify(STILL_RUNNING_NOTIFICATION.title, STILL_RUNNING_NOTIFICATION.body),
    onRendererGone: (reason) => lifecycle?.handleRendererGone(reason),
    log,
  });
  const showDashboard = () => void window.show().catch((err: Error) => log(`dashboard: ${err.message}`));

  let patchbay: Patchbay | null = null;
  let started: Promise<Patchbay> | null = null;
  const tray = new TrayController({
    ports,
    iconDir: path.join(deps.assetsDir, "tray"),
    onAction: (action) => handleTrayAction(action),
  });

  lifecycle = new Lifecycle({
    app,
    // Wait for a start in progress, so a quit during startup still stops OpenCode.
    stopPatchbay: async () => {
      const pb = started ? await started.catch(() => patchbay) : patchbay;
      tray.destroy();
      await pb?.stop();
    },
    beforeStop: () => window.saveState(),
    showDashboard,
    reloadDashboard: () => window.reload(),
    notify,
    onSignal: deps.onSignal,
    log,
    ...(deps.now ? { now: deps.now } : {}),
  });
  lifecycle.install();

  const dataDir = args.dataDir ?? app.userDataPath();
  const launchAtLogin: LaunchAtLogin = createLaunchAtLogin({
    platform: ports.platform,
    loginItems: ports,
    command: deps.launchCommand,
    env: deps.env,
  });
  const desktop = createDesktopHost({
    dataDir,
    openPath: (p) => ports.openPath(p),
    launchAtLogin,
    onLaunchAtLoginChanged: (enabled) => tray.setLaunchAtLogin(enabled),
  });

  const handleTrayAction = (action: TrayAction): void => {
    const pb = patchbay;
    const fail = (what: string) => (err: Error) => notify(`Could not ${what}`, err.message);
    switch (action.type) {
      case "open-dashboard":
        showDashboard();
        return;
      case "open-setup":
        void window
          .show(`/connect?setup=${encodeURIComponent(action.client)}`)
          .catch((err: Error) => log(`dashboard: ${err.message}`));
        return;
      case "quit":
        app.quit();
        return;
      case "toggle-launch-at-login":
        void desktop
          .getLaunchAtLogin()
          .then((on) => desktop.setLaunchAtLogin(!on))
          .catch(async (err: Error) => {
            notify("Could not change launch at login", err.message);
            tray.setLaunchAtLogin(await launchAtLogin.isEnabled().catch(() => false));
          });
        return;
    }
    if (!pb) return;
    switch (action.type) {
      case "start-api":
        pb.startApi().catch(fail("start the API"));
        return;
      case "stop-api":
        pb.stopApi().catch(fail("stop the API"));
        return;
      case "restart-opencode":
        void pb.restartOpenCode?.();
        return;
      case "copy-base-url": {
        const url = pb.status().api.baseUrl;
        if (url) ports.writeClipboard(url);
        return;
      }
      case "copy-app-snippet": {
        const base = clientBaseUrl(pb.status());
        if (base) ports.writeClipboard(appSnippet(action.app, base, ports.platform));
        return;
      }
    }
  };

  started = (async () => {
    await app.whenReady();
    ports.restrictPermissions(ALLOWED_PERMISSIONS);
    const pb = await deps.createPatchbay({
      dataDir,
      desktop,
      ...(args.demo ? { demo: true } : {}),
      ...(args.port !== null ? { port: args.port } : {}),
      ...(deps.opencodeBinary ? { opencodeBinary: deps.opencodeBinary } : {}),
      ...(deps.rendererDir ? { rendererDir: deps.rendererDir } : {}),
      log,
    });
    patchbay = pb;
    if (lifecycle.quitting) return pb;
    const urls = await pb.start();
    window.setTarget({ adminUrl: urls.adminUrl, createLoginUrl: () => pb.createLoginUrl() });
    log(`dashboard at ${urls.dashboardUrl}; OpenAI API at ${urls.openaiUrl ?? "(not running)"}`);

    let prev: PatchbayStatus | null = null;
    let noteState = INITIAL_NOTIFICATION_STATE;
    const onStatus = (status: PatchbayStatus) => {
      tray.update(status);
      const decided = decideNotifications(noteState, prev, status);
      noteState = decided.state;
      prev = status;
      for (const n of decided.notifications) notify(n.title, n.body);
    };
    tray.create(pb.status(), await launchAtLogin.isEnabled().catch(() => false));
    onStatus(pb.status());
    pb.onStatus(onStatus);

    if (!args.hidden && !app.wasOpenedAtLogin() && !lifecycle.quitting) showDashboard();
    return pb;
  })();
  started.catch((err: Error) => {
    log(`Patchbay could not start: ${err.stack ?? err.message}`);
    notify("Patchbay could not start", err.message);
    app.quit();
  });

  return { lifecycle, window, tray, desktop, ready: started };
}
