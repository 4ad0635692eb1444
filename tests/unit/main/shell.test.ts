// The whole desktop shell wired against fake Electron ports and a fake Patchbay: single instance, start in userData,
// tray actions, window at launch (or hidden), notifications, quit sequence, startup failure.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { PatchbayDeps } from "../../../server/index";
import { runShell, type ShellDeps } from "../../../main/shell";
import { createDesktopHost } from "../../../main/desktop-host";
import { waitFor } from "../../harness/wait-for";
import { createFakePorts, FakePatchbay, makeStatus, type FakePorts } from "./fake-electron";

let dir: string;
before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "pb-shell-"));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Waits for the fire-and-forget window opening (state file read, login URL, load) to reach `loadURL`. */
const windowLoaded = (ports: FakePorts) =>
  waitFor("the dashboard window to load", () => ports.calls.some((c) => c.startsWith("window.loadURL")));

let counter = 0;
function setup(
  opts: {
    argv?: string[];
    platform?: NodeJS.Platform;
    pb?: (deps: PatchbayDeps) => FakePatchbay;
    ports?: FakePorts;
  } = {},
) {
  const userData = path.join(dir, `ud-${counter++}`);
  const ports = opts.ports ?? createFakePorts({ userData, platform: opts.platform ?? "linux" });
  const created: FakePatchbay[] = [];
  const signals = new Map<string, () => void>();
  const deps: ShellDeps = {
    ports,
    createPatchbay: async (d) => {
      ports.calls.push("createPatchbay");
      const pb = opts.pb ? opts.pb(d) : new FakePatchbay(ports.calls, d, makeStatus({ apps: ["zed"] }));
      created.push(pb);
      return pb;
    },
    argv: ["/usr/bin/patchbay", ...(opts.argv ?? [])],
    env: { HOME: path.join(userData, "home") },
    assetsDir: "/assets",
    launchCommand: ["/usr/bin/patchbay"],
    onSignal: (s, h) => signals.set(s, h),
    log: () => {},
  };
  const shell = runShell(deps);
  return { ports, shell, created, signals, userData };
}

describe("runShell", () => {
  test("a second instance hands over: quits at once, never creates Patchbay", async () => {
    const ports = createFakePorts({ userData: path.join(dir, "second") });
    ports.app.lockAvailable = false;
    const { shell, created } = setup({ ports });
    assert.equal(shell, null);
    assert.deepEqual(ports.calls, ["app.requestSingleInstanceLock", "app.quit", "app.exit(0)"]);
    assert.equal(created.length, 0);
  });

  test("launch: Patchbay in userData with a DesktopHost, started, tray shows status, dashboard opens with a one-time login URL", async () => {
    const { ports, shell, created, userData } = setup();
    assert.ok(shell);
    await shell.ready;
    await windowLoaded(ports);
    const deps = created[0]!.deps;
    assert.equal(deps.dataDir, userData);
    assert.ok(deps.desktop, "desktop host passed");
    assert.equal(deps.demo, undefined);
    assert.equal(deps.opencodeBinary, undefined);
    assert.deepEqual(ports.allowedPermissions, ["clipboard-sanitized-write"]);
    const order = ports.calls.filter(
      (c) =>
        ["createPatchbay", "patchbay.start", "createTray", "createWindow"].includes(c) ||
        c.startsWith("window.loadURL"),
    );
    assert.deepEqual(order, [
      "createPatchbay",
      "patchbay.start",
      "createTray",
      "createWindow",
      "window.loadURL(http://127.0.0.1:53111/login?token=once)",
    ]);
    const tray = ports.trays[0]!;
    assert.equal(tray.image, "/assets/tray/running-dark.png");
    assert.equal(tray.labels()[0], "API running on 127.0.0.1:4747");
    assert.equal(ports.windows[0]!.visible, true);
    assert.equal(ports.windows[0]!.spec.iconPath, "/assets/icon.png");
  });

  test("--hidden (launch at login) and macOS login launches start in the tray only", async () => {
    const a = setup({ argv: ["--hidden"] });
    await a.shell!.ready;
    assert.equal(a.ports.windows.length, 0);
    assert.equal(a.ports.trays.length, 1);

    const ports = createFakePorts({ userData: path.join(dir, "mac-login"), platform: "darwin" });
    ports.app.openedAtLogin = true;
    const b = setup({ ports });
    await b.shell!.ready;
    assert.equal(ports.windows.length, 0);
    assert.equal(ports.trays[0]!.image, "/assets/tray/runningTemplate.png");
  });

  test("dev flags reach createPatchbay: --demo --port 0 --data-dir", async () => {
    const { shell, created } = setup({ argv: ["--demo", "--port", "0", "--data-dir", "/tmp/pb-dev"] });
    await shell!.ready;
    assert.equal(created[0]!.deps.demo, true);
    assert.equal(created[0]!.deps.port, 0);
    assert.equal(created[0]!.deps.dataDir, "/tmp/pb-dev");
  });

  test("tray actions: Stop/Start API, copy base URL, copy an app snippet, open dashboard, launch at login", async () => {
    const { ports, shell, created, userData } = setup({ argv: ["--hidden"] });
    await shell!.ready;
    const tray = ports.trays[0]!;
    const pb = created[0]!;

    tray.clickItem("Copy Base URL");
    assert.deepEqual(ports.clipboard, ["http://127.0.0.1:4747/v1"]);
    tray.clickItem("Copy setup for zed");
    assert.match(
      ports.clipboard[1] ?? "",
      /OPENAI_BASE_URL="http:\/\/127\.0\.0\.1:4747\/v1"[\s\S]*OPENAI_API_KEY="<your key for zed>"/,
    );

    tray.clickItem("Stop API");
    await waitFor("the tray to show the stopped API", () => tray.labels()[0] === "API stopped");
    assert.ok(ports.calls.includes("patchbay.stopApi"));
    assert.equal(tray.labels()[0], "API stopped", "menu re-rendered from the new status");
    assert.equal(tray.image, "/assets/tray/stopped-dark.png");
    assert.throws(() => tray.clickItem("Copy Base URL"), /disabled/);
    tray.clickItem("Start API");
    await waitFor("patchbay.startApi", () => ports.calls.includes("patchbay.startApi"));

    tray.clickItem("Open Dashboard");
    await windowLoaded(ports);
    assert.equal(ports.windows.length, 1);
    assert.equal(ports.windows[0]!.visible, true);

    tray.clickItem("Launch at Login");
    await waitFor("the Launch at Login checkbox to be checked", () =>
      Boolean(tray.menu.find((i) => i.label === "Launch at Login")?.checked),
    );
    const entry = await readFile(path.join(userData, "home", ".config", "autostart", "patchbay.desktop"), "utf8");
    assert.match(entry, /^Exec=\/usr\/bin\/patchbay --hidden$/m);
    const checkbox = tray.menu.find((i) => i.label === "Launch at Login");
    assert.equal(checkbox?.checked, true);
    assert.equal(await shell!.desktop.getLaunchAtLogin(), true);
    void pb;
  });

  test("theme change re-renders the tray icon", async () => {
    const { ports, shell } = setup({ argv: ["--hidden"] });
    await shell!.ready;
    ports.dark = false;
    for (const l of ports.themeListeners) l();
    assert.equal(ports.trays[0]!.image, "/assets/tray/running-light.png");
  });

  test("notifications: port taken at startup (with the port), OpenCode failing then recovering", async () => {
    const { ports, shell, created } = setup({
      argv: ["--hidden"],
      pb: (d) =>
        new FakePatchbay([], d, makeStatus({ api: { running: false, port: 4747, error: "port 4747 is in use" } })),
    });
    await shell!.ready;
    assert.equal(ports.notifications.length, 1);
    assert.match(ports.notifications[0]!.body, /Port 4747 is already in use/);
    const pb = created[0]!;
    pb.emit(makeStatus({ opencode: { state: "failed", reason: "OpenCode exited 3 times" } }));
    pb.emit(makeStatus({ opencode: { state: "ready" } }));
    assert.deepEqual(
      ports.notifications.slice(1).map((n) => n.title),
      ["OpenCode stopped working", "OpenCode recovered"],
    );
    assert.equal(ports.trays[0]!.labels()[0], "API running on 127.0.0.1:4747");
  });

  test("first close of the window: hidden, with the 'still running' notification", async () => {
    const { ports, shell } = setup();
    await shell!.ready;
    await windowLoaded(ports);
    assert.equal(ports.windows[0]!.userClose(), true);
    assert.deepEqual(
      ports.notifications.map((n) => n.title),
      ["Patchbay is still running"],
    );
  });

  test("second instance shows the dashboard of the first", async () => {
    const { ports, shell } = setup({ argv: ["--hidden"] });
    await shell!.ready;
    ports.app.emitSecondInstance();
    await windowLoaded(ports);
    assert.equal(ports.windows[0]?.visible, true);
  });

  test("Quit from the tray: window state saved, tray removed, Patchbay stopped, then exit", async () => {
    const { ports, shell, created, userData } = setup();
    await shell!.ready;
    await windowLoaded(ports);
    ports.trays[0]!.clickItem("Quit Patchbay");
    await shell!.lifecycle.done;
    assert.equal(created[0]!.stopCalls, 1);
    assert.equal(ports.trays[0]!.destroyed, true);
    const tail = ports.calls.slice(ports.calls.indexOf("app.quit"));
    assert.deepEqual(tail, ["app.quit", "patchbay.stop:listeners", "patchbay.stop:opencode", "app.exit(0)"]);
    const saved = JSON.parse(await readFile(path.join(userData, "window-state.json"), "utf8"));
    assert.equal(saved.bounds.width, 1180);
  });

  test("SIGTERM quits cleanly", async () => {
    const { ports, shell, created, signals } = setup({ argv: ["--hidden"] });
    await shell!.ready;
    signals.get("SIGTERM")!();
    await shell!.lifecycle.done;
    assert.equal(created[0]!.stopCalls, 1);
    assert.equal(ports.app.exitCode, 0);
  });

  test("quit while Patchbay is still starting: waits for it, then stops it (no orphaned OpenCode)", async () => {
    const ports = createFakePorts({ userData: path.join(dir, "early"), autoReady: false });
    const { shell, created } = setup({ ports });
    ports.app.quit();
    assert.equal(ports.app.exitCode, null);
    ports.app.markReady();
    await shell!.ready;
    await shell!.lifecycle.done;
    assert.equal(created.length, 1);
    assert.equal(created[0]!.stopCalls, 1);
    assert.equal(ports.calls.includes("patchbay.start"), false, "not started once a quit was requested");
    assert.equal(ports.app.exitCode, 0);
  });

  test("startup failure: the user is told, Patchbay is stopped, the app quits", async () => {
    const { ports, shell, created } = setup({
      pb: (d) => {
        const pb = new FakePatchbay([], d);
        pb.startError = new Error("data dir not writable");
        return pb;
      },
    });
    await assert.rejects(shell!.ready, /not writable/);
    await new Promise((r) => setImmediate(r));
    await shell!.lifecycle.done;
    assert.deepEqual(ports.notifications, [{ title: "Patchbay could not start", body: "data dir not writable" }]);
    assert.equal(created[0]!.stopCalls, 1);
    assert.equal(ports.app.exitCode, 0);
  });
});

describe("DesktopHost", () => {
  test("openDataFolder opens the data dir; an OS error becomes a rejection with its message", async () => {
    const opened: string[] = [];
    let error = "";
    const changes: boolean[] = [];
    let on = false;
    const host = createDesktopHost({
      dataDir: "/data/Patchbay",
      openPath: async (p) => {
        opened.push(p);
        return error;
      },
      launchAtLogin: { isEnabled: async () => on, setEnabled: async (v) => void (on = v) },
      onLaunchAtLoginChanged: (v) => changes.push(v),
    });
    await host.openDataFolder();
    assert.deepEqual(opened, ["/data/Patchbay"]);
    error = "No application is registered";
    await assert.rejects(host.openDataFolder(), /Could not open \/data\/Patchbay: No application is registered/);
    await host.setLaunchAtLogin(true);
    assert.equal(await host.getLaunchAtLogin(), true);
    assert.deepEqual(changes, [true]);
  });
});
