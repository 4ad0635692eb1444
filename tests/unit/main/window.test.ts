// The dashboard window: fixed security options, automatic login through a one-time login URL (no cookie), navigation/popup policy, hide-to-tray
// with a first-time notice, remembered geometry.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {
  ALLOWED_PERMISSIONS,
  DashboardWindow,
  dashboardWindowOptions,
  decideNavigation,
  decideWindowOpen,
  loginUrlFor,
  type DashboardTarget,
} from "../../../main/window";
import { DEFAULT_SIZE, restoreBounds, WindowStateFile } from "../../../main/window-state";
import { waitFor } from "../../harness/wait-for";
import { createFakePorts, type FakePorts } from "./fake-electron";

const ORIGIN = "http://127.0.0.1:53111";
let issued = 0;
/** Each call is a new one-time login URL, as Patchbay.createLoginUrl gives. */
const target: DashboardTarget = { adminUrl: ORIGIN, createLoginUrl: () => `${ORIGIN}/login?token=nonce-${++issued}` };

let dir: string;
before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "pb-window-"));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("pure window policy", () => {
  test("BrowserWindow options: sandboxed, isolated, no Node, no preload, hidden until shown", () => {
    const o = dashboardWindowOptions({ bounds: { width: 800, height: 600 }, iconPath: null, title: "Patchbay" });
    assert.equal(o.webPreferences?.sandbox, true);
    assert.equal(o.webPreferences?.contextIsolation, true);
    assert.equal(o.webPreferences?.nodeIntegration, false);
    assert.equal(o.webPreferences?.nodeIntegrationInSubFrames, false);
    assert.equal(o.webPreferences?.webviewTag, false);
    assert.equal(o.webPreferences?.webSecurity, true);
    assert.equal("preload" in (o.webPreferences ?? {}), false);
    assert.equal(o.show, false);
    assert.equal(o.width, 800);
    assert.equal("icon" in o, false);
    assert.equal(
      dashboardWindowOptions({ bounds: { width: 1, height: 1 }, iconPath: "/i.png", title: "P" }).icon,
      "/i.png",
    );
  });

  test("login URL: a fresh one-time URL, with the route to land on as `next`", () => {
    const plain = new URL(loginUrlFor(target));
    assert.equal(plain.origin + plain.pathname, `${ORIGIN}/login`);
    assert.match(plain.searchParams.get("token") ?? "", /^nonce-\d+$/);
    assert.equal(plain.searchParams.get("next"), null);
    const routed = new URL(loginUrlFor(target, "/connect?setup=codex"));
    assert.equal(routed.searchParams.get("next"), "/connect?setup=codex");
    assert.notEqual(routed.searchParams.get("token"), plain.searchParams.get("token"));
  });

  test("navigation: same origin allowed, external http(s) to the browser, everything else denied", () => {
    assert.equal(decideNavigation(`${ORIGIN}/apps/zed`, ORIGIN), "allow");
    assert.equal(decideNavigation("https://opencode.ai/docs", ORIGIN), "open-external");
    assert.equal(
      decideNavigation("http://127.0.0.1:4747/v1/models", ORIGIN),
      "open-external",
      "another port is another origin",
    );
    assert.equal(decideNavigation("file:///etc/passwd", ORIGIN), "deny");
    assert.equal(decideNavigation("javascript:alert(1)", ORIGIN), "deny");
    assert.equal(decideNavigation("https://user:pw@evil.example/", ORIGIN), "deny");
    assert.equal(decideNavigation("not a url", ORIGIN), "deny");
  });

  test("popups: never in-app", () => {
    assert.equal(decideWindowOpen("https://github.com/", ORIGIN), "open-external");
    assert.equal(decideWindowOpen(`${ORIGIN}/logs`, ORIGIN), "deny");
    assert.equal(decideWindowOpen("about:blank", ORIGIN), "deny");
    assert.equal(decideWindowOpen("smb://host/share", ORIGIN), "deny");
  });

  test("only clipboard writes are allowed as web permissions", () => {
    assert.deepEqual([...ALLOWED_PERMISSIONS], ["clipboard-sanitized-write"]);
  });

  test("restoreBounds keeps a window on a connected display", () => {
    const screen = [{ x: 0, y: 0, width: 1920, height: 1080 }];
    assert.deepEqual(restoreBounds(null, screen), { ...DEFAULT_SIZE });
    assert.deepEqual(restoreBounds({ x: 100, y: 50, width: 900, height: 700 }, screen), {
      x: 100,
      y: 50,
      width: 900,
      height: 700,
    });
    // Remembered on a second monitor that is gone: default position, sane size.
    assert.deepEqual(restoreBounds({ x: 2500, y: 100, width: 900, height: 700 }, screen), { width: 900, height: 700 });
    // Larger than the display: clamped.
    assert.deepEqual(restoreBounds({ x: 0, y: 0, width: 4000, height: 3000 }, screen), {
      x: 0,
      y: 0,
      width: 1920,
      height: 1080,
    });
  });
});

describe("window state file", () => {
  test("missing or corrupt → defaults; round trip", async () => {
    const f = new WindowStateFile(path.join(dir, "ws1.json"));
    assert.deepEqual(await f.load(), { version: 1, bounds: null, maximized: false, hideNoticeShown: false });
    await writeFile(f.file, "{not json");
    assert.equal((await f.load()).bounds, null);
    await writeFile(f.file, JSON.stringify({ version: 1, bounds: { x: "a" } }));
    assert.equal((await f.load()).bounds, null);
    await f.save({
      version: 1,
      bounds: { x: 1, y: 2, width: 300, height: 200 },
      maximized: true,
      hideNoticeShown: true,
    });
    assert.deepEqual(await f.load(), {
      version: 1,
      bounds: { x: 1, y: 2, width: 300, height: 200 },
      maximized: true,
      hideNoticeShown: true,
    });
  });
});

function makeWindow(ports: FakePorts, file: string, quitting = { value: false }) {
  const events: string[] = [];
  const timers: (() => void)[] = [];
  const win = new DashboardWindow({
    ports,
    stateFile: new WindowStateFile(file),
    iconPath: null,
    isQuitting: () => quitting.value,
    onFirstHide: () => events.push("first-hide"),
    onRendererGone: (r) => events.push(`gone:${r}`),
    log: (l) => events.push(`log:${l}`),
    setTimer: (fn) => {
      timers.push(fn);
      return { cancel: () => {} };
    },
  });
  return { win, events, timers, quitting };
}

describe("DashboardWindow", () => {
  test("show before Patchbay started: a clear error, no window", async () => {
    const ports = createFakePorts({ userData: dir });
    const { win } = makeWindow(ports, path.join(dir, "ws-none.json"));
    await assert.rejects(win.show(), /not available yet/);
    assert.equal(ports.windows.length, 0);
  });

  test("first show: loads a one-time login URL (no cookie anywhere); then shown and focused; second show reuses it", async () => {
    const ports = createFakePorts({ userData: dir });
    const { win } = makeWindow(ports, path.join(dir, "ws2.json"));
    win.setTarget(target);
    await win.show();
    const load = ports.calls.findIndex((c) => c.startsWith(`window.loadURL(${ORIGIN}/login?token=nonce-`));
    assert.ok(load >= 0, ports.calls.join(", "));
    assert.ok(load < ports.calls.indexOf("window.show"));
    assert.equal(
      ports.calls.some((c) => /cookie/i.test(c)),
      false,
      "the window signs in with the login URL, never a cookie",
    );
    await win.show();
    assert.equal(ports.windows.length, 1);
    ports.windows[0]!.minimized = true;
    await win.show();
    assert.equal(ports.windows[0]!.minimized, false, "restored from minimized");
  });

  test("close hides to the tray; the first time ever a notice, remembered across runs; quitting really closes", async () => {
    const file = path.join(dir, "ws3.json");
    const ports = createFakePorts({ userData: dir });
    const { win, events, quitting } = makeWindow(ports, file);
    win.setTarget(target);
    await win.show();
    const w = ports.windows[0]!;
    assert.equal(w.userClose(), true, "close prevented");
    assert.equal(w.visible, false);
    assert.deepEqual(
      events.filter((e) => e === "first-hide"),
      ["first-hide"],
    );
    await win.show();
    w.userClose();
    assert.deepEqual(
      events.filter((e) => e === "first-hide"),
      ["first-hide"],
      "only the first time",
    );
    await win.saveState();
    assert.equal(JSON.parse(await readFile(file, "utf8")).hideNoticeShown, true);

    // Next launch: no notice again.
    const ports2 = createFakePorts({ userData: dir });
    const second = makeWindow(ports2, file);
    second.win.setTarget(target);
    await second.win.show();
    ports2.windows[0]!.userClose();
    assert.deepEqual(
      second.events.filter((e) => e === "first-hide"),
      [],
    );

    quitting.value = true;
    await win.show();
    assert.equal(w.userClose(), false, "not prevented while quitting");
    assert.equal(win.exists, false);
  });

  test("geometry: saved (debounced) on move/resize and restored next time, maximized too", async () => {
    const file = path.join(dir, "ws4.json");
    const ports = createFakePorts({ userData: dir });
    const { win, timers } = makeWindow(ports, file);
    win.setTarget(target);
    await win.show();
    ports.windows[0]!.moveTo({ x: 200, y: 120, width: 1000, height: 700 });
    ports.windows[0]!.maximized = true;
    assert.equal(timers.length, 1);
    timers[0]!();
    await waitFor("the debounced save to write the new bounds", async () => {
      const saved = await readFile(file, "utf8").catch(() => "");
      return saved.includes('"x":200') || saved.includes('"x": 200');
    });
    const ports2 = createFakePorts({ userData: dir });
    const next = makeWindow(ports2, file);
    next.win.setTarget(target);
    await next.win.show();
    assert.deepEqual(ports2.windows[0]!.spec.bounds, { x: 200, y: 120, width: 1000, height: 700 });
    assert.equal(ports2.windows[0]!.maximized, true);
  });

  test("links: external ones open in the browser, in-window navigation elsewhere is blocked", async () => {
    const ports = createFakePorts({ userData: dir });
    const { win, events } = makeWindow(ports, path.join(dir, "ws5.json"));
    win.setTarget(target);
    await win.show();
    const w = ports.windows[0]!;
    w.openHandler?.("https://opencode.ai/docs");
    w.openHandler?.("file:///etc/passwd");
    assert.equal(w.navigate(`${ORIGIN}/settings`), false);
    assert.equal(w.navigate("https://example.com/"), true);
    assert.equal(w.navigate("file:///etc/passwd"), true);
    assert.deepEqual(ports.external, ["https://opencode.ai/docs", "https://example.com/"]);
    w.crashRenderer("oom");
    assert.ok(events.includes("gone:oom"));
  });
});
