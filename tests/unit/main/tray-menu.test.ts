// The tray menu model for each status, the snippets it copies, the icon state/file mapping, and the Electron
// template it renders to.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { buildTrayMenu, appSnippet, clientBaseUrl, type MenuItemModel, type TrayAction } from "../../../main/tray-menu";
import { allTrayIconFiles, trayIconFile, trayIconState, trayIsDarkFor, trayToolTip } from "../../../main/tray-icon";
import { clickOpensDashboard, toMenuTemplate, TrayController } from "../../../main/tray";
import type { LimitsGlance } from "../../../shared/limits";
import { createFakePorts, makeStatus } from "./fake-electron";

const opts = { launchAtLogin: false, platform: "linux" as const };

function find(model: MenuItemModel[], label: string): MenuItemModel {
  for (const item of model) {
    if ("label" in item && item.label === label) return item;
    if (item.kind === "submenu") {
      const inner = item.items.find((i) => "label" in i && i.label === label);
      if (inner) return inner;
    }
  }
  throw new Error(`no item ${label}`);
}
const labels = (model: MenuItemModel[]) => model.map((i) => ("label" in i ? i.label : "---"));

describe("buildTrayMenu", () => {
  test("running, OpenCode ready: status lines, Stop API, Copy Base URL enabled, Quit last", () => {
    const model = buildTrayMenu(makeStatus({ apps: ["zed", "aider"] }), opts);
    assert.deepEqual(labels(model), [
      "API running on 127.0.0.1:4747",
      "OpenCode 1.18.33 ready",
      "---",
      "Stop API",
      "Open Dashboard",
      "Copy Base URL",
      "Apps",
      "Set up Claude Code…",
      "Set up Codex…",
      "Set up Claude Desktop…",
      "---",
      "Launch at Login",
      "---",
      "Quit Patchbay",
    ]);
    assert.equal(model[0]?.kind, "label");
    assert.deepEqual(find(model, "Stop API"), {
      kind: "action",
      label: "Stop API",
      action: { type: "stop-api" },
      enabled: true,
    });
    assert.equal((find(model, "Copy Base URL") as { enabled: boolean }).enabled, true);
    assert.deepEqual((find(model, "Quit Patchbay") as { action: TrayAction }).action, { type: "quit" });
    assert.deepEqual((find(model, "Set up Codex…") as { action: TrayAction }).action, {
      type: "open-setup",
      client: "codex",
    });
  });

  test("stopped: Start API, Copy Base URL disabled, app snippets still available from the configured port", () => {
    const model = buildTrayMenu(makeStatus({ api: { running: false }, apps: ["zed"] }), opts);
    assert.equal(model[0] && "label" in model[0] && model[0].label, "API stopped");
    assert.deepEqual((find(model, "Start API") as { action: TrayAction }).action, { type: "start-api" });
    assert.equal(labels(model).includes("Stop API"), false);
    assert.equal((find(model, "Copy Base URL") as { enabled: boolean }).enabled, false);
    assert.equal((find(model, "Copy setup for zed") as { enabled: boolean }).enabled, true);
  });

  test("port taken: the status line says why", () => {
    const model = buildTrayMenu(makeStatus({ api: { running: false, error: "port 4747 is in use" } }), opts);
    assert.equal(labels(model)[0], "API stopped: port 4747 is in use");
  });

  test("OpenCode states each get their own line", () => {
    const line = (oc: Parameters<typeof makeStatus>[0]["opencode"]) =>
      labels(buildTrayMenu(makeStatus({ opencode: oc }), opts))[1];
    assert.equal(line({ state: "starting" }), "OpenCode starting…");
    assert.equal(
      line({ state: "restarting", reason: "exited with code 1" }),
      "OpenCode restarting (exited with code 1)",
    );
    assert.equal(line({ state: "failed", reason: "binary not found" }), "OpenCode failed: binary not found");
    assert.equal(line({ state: "stopped" }), "OpenCode stopped");
    assert.equal(line({ state: "ready", version: null }), "OpenCode ready");
  });

  test("Apps submenu: one item per app (sorted), each copying that app's snippet; empty state; overflow", () => {
    const apps = buildTrayMenu(makeStatus({ apps: ["zed", "aider"] }), opts).find((i) => i.kind === "submenu");
    assert.ok(apps && apps.kind === "submenu");
    assert.deepEqual(
      apps.items.map((i) => (i.kind === "action" ? [i.label, i.action] : null)),
      [
        ["Copy setup for aider", { type: "copy-app-snippet", app: "aider" }],
        ["Copy setup for zed", { type: "copy-app-snippet", app: "zed" }],
      ],
    );
    const empty = buildTrayMenu(makeStatus({ apps: [] }), opts).find((i) => i.kind === "submenu");
    assert.ok(empty && empty.kind === "submenu");
    assert.deepEqual(empty.items, [{ kind: "label", label: "No apps yet: create one in the dashboard" }]);

    const many = Array.from({ length: 25 }, (_, i) => `app-${String(i).padStart(2, "0")}`);
    const big = buildTrayMenu(makeStatus({ apps: many }), { ...opts, maxApps: 20 }).find((i) => i.kind === "submenu");
    assert.ok(big && big.kind === "submenu");
    assert.equal(big.items.filter((i) => i.kind === "action" && i.action.type === "copy-app-snippet").length, 20);
    const last = big.items.at(-1);
    assert.ok(last && last.kind === "action");
    assert.equal(last.label, "5 more in the dashboard…");
    assert.deepEqual(last.action, { type: "open-dashboard" });
  });

  test("Launch at Login is a checkbox reflecting the OS state", () => {
    for (const on of [true, false]) {
      const item = find(buildTrayMenu(makeStatus({}), { ...opts, launchAtLogin: on }), "Launch at Login");
      assert.deepEqual(item, {
        kind: "checkbox",
        label: "Launch at Login",
        action: { type: "toggle-launch-at-login" },
        checked: on,
      });
    }
  });

  test("LAN exposure / wildcard host: local clients are pointed at loopback", () => {
    const s = makeStatus({ api: { running: false, host: "0.0.0.0", lanExposure: true, port: 8080 } });
    assert.equal(clientBaseUrl(s), "http://127.0.0.1:8080/v1");
    assert.equal(clientBaseUrl(makeStatus({ api: { running: false, port: 0 } })), null);
    assert.equal(clientBaseUrl(makeStatus({ api: { running: false, host: "::1", port: 9 } })), "http://[::1]:9/v1");
  });
});

describe("appSnippet", () => {
  test("POSIX shell: base URL and a placeholder key, never a real key", () => {
    assert.equal(
      appSnippet("zed", "http://127.0.0.1:4747/v1", "darwin"),
      'export OPENAI_BASE_URL="http://127.0.0.1:4747/v1"\nexport OPENAI_API_KEY="<your key for zed>"\n',
    );
  });
  test("Windows: PowerShell syntax", () => {
    assert.match(
      appSnippet("zed", "http://127.0.0.1:4747/v1", "win32"),
      /^\$env:OPENAI_BASE_URL = "http:\/\/127\.0\.0\.1:4747\/v1"\r\n\$env:OPENAI_API_KEY = "<your key for zed>"/,
    );
  });
});

describe("tray icon", () => {
  test("state for each status", () => {
    assert.equal(trayIconState(makeStatus({})), "running");
    assert.equal(trayIconState(makeStatus({ api: { running: false } })), "stopped");
    assert.equal(trayIconState(makeStatus({ opencode: { state: "starting" } })), "starting");
    assert.equal(trayIconState(makeStatus({ opencode: { state: "restarting" } })), "starting");
    assert.equal(trayIconState(makeStatus({ opencode: { state: "failed" } })), "error");
    assert.equal(trayIconState(makeStatus({ api: { running: false, error: "port 4747 is in use" } })), "error");
  });
  test("files: template images on macOS, light/dark variants elsewhere; every file is in the generated set", () => {
    assert.equal(trayIconFile("running", { platform: "darwin", darkTray: true }), "runningTemplate.png");
    assert.equal(trayIconFile("error", { platform: "linux", darkTray: true }), "error-dark.png");
    assert.equal(trayIconFile("stopped", { platform: "win32", darkTray: false }), "stopped-light.png");
    const all = new Set(allTrayIconFiles());
    assert.equal(all.size, 24);
    for (const state of ["running", "stopped", "starting", "error"] as const) {
      for (const platform of ["darwin", "linux", "win32"] as const) {
        for (const darkTray of [true, false]) assert.ok(all.has(trayIconFile(state, { platform, darkTray })));
      }
    }
  });
  test("dark tray detection per platform", () => {
    const base = { currentDesktop: "GNOME", darkApps: false, darkSystemUi: false };
    assert.equal(trayIsDarkFor({ ...base, platform: "linux" }), true, "GNOME's top bar is dark whatever the theme");
    assert.equal(trayIsDarkFor({ ...base, platform: "linux", currentDesktop: "KDE" }), false);
    assert.equal(trayIsDarkFor({ ...base, platform: "win32", darkSystemUi: true }), true);
    assert.equal(trayIsDarkFor({ ...base, platform: "win32", darkApps: true }), false, "taskbar theme, not app theme");
  });
  test("tooltips name the problem", () => {
    assert.equal(trayToolTip(makeStatus({})), "Patchbay: API running at http://127.0.0.1:4747/v1");
    assert.equal(
      trayToolTip(makeStatus({ opencode: { state: "failed", reason: "no binary" } })),
      "Patchbay: OpenCode failed (no binary)",
    );
    assert.equal(
      trayToolTip(makeStatus({ api: { running: false, error: "port 4747 is in use" } })),
      "Patchbay: API stopped (port 4747 is in use)",
    );
  });
});

describe("toMenuTemplate", () => {
  test("maps kinds to Electron item types and routes clicks to actions", () => {
    const clicked: TrayAction[] = [];
    const template = toMenuTemplate(buildTrayMenu(makeStatus({ apps: ["zed"] }), opts), (a) => clicked.push(a));
    assert.deepEqual(template[0], { type: "normal", label: "API running on 127.0.0.1:4747", enabled: false });
    assert.deepEqual(template[2], { type: "separator" });
    const apps = template.find((t) => t.label === "Apps");
    assert.equal(apps?.type, "submenu");
    apps?.submenu?.[0]?.click?.();
    template.find((t) => t.label === "Launch at Login")?.click?.();
    template.find((t) => t.label === "Quit Patchbay")?.click?.();
    assert.deepEqual(clicked, [
      { type: "copy-app-snippet", app: "zed" },
      { type: "toggle-launch-at-login" },
      { type: "quit" },
    ]);
    assert.equal(template.find((t) => t.label === "Launch at Login")?.type, "checkbox");
  });
  test("left click opens the dashboard only where clicks do not open the menu", () => {
    assert.equal(clickOpensDashboard("win32"), true);
    assert.equal(clickOpensDashboard("darwin"), false);
    assert.equal(clickOpensDashboard("linux"), false);
  });
});

describe("runtime lines", () => {
  test("memory of both processes and the last recycle, after the OpenCode line", () => {
    const MB = 1024 ** 2;
    const status = {
      ...makeStatus({}),
      runtime: {
        patchbayRssBytes: 120 * MB,
        opencodeRssBytes: 640 * MB,
        memoryLimitBytes: 1024 * MB,
        liveInstances: 3,
        recycles: 1,
        lastRecycle: { at: 1_000_000, reason: "idle for 31 min at 700 MB", pauseMs: 3500 },
      },
    };
    const model = buildTrayMenu(status, { ...opts, now: 1_000_000 + 12 * 60_000 });
    assert.deepEqual(labels(model).slice(1, 4), [
      "OpenCode 1.18.33 ready",
      "Memory: OpenCode 640 MB · Patchbay 120 MB",
      "Last recycle: 12 min ago (idle for 31 min at 700 MB)",
    ]);
  });
});

describe("limits lines (issue 24 §4–5)", () => {
  const T = Date.UTC(2026, 0, 1, 12);
  const hhmm = (t: number) => new Date(t).toISOString().slice(11, 16);
  const limited = (model: string, until: number) => ({
    model,
    provider: model.split("/")[0]!,
    until,
    since: T,
    logId: null,
    message: null,
  });
  const limits: LimitsGlance = {
    rateLimited: [limited("mock/a", T + 60_000), limited("other/b", T - 1)],
    tightestBudget: {
      app: "claude-code",
      metric: "requests",
      limit: 100,
      window: "5h",
      used: 80,
      resetAt: T + 3_600_000,
      spent: false,
      retryAt: null,
    },
  };

  test("each model still cooling, then the tightest budget, after the status lines", () => {
    const model = buildTrayMenu({ ...makeStatus({}), limits }, { ...opts, now: T, formatTime: hhmm });
    assert.deepEqual(labels(model).slice(0, 5), [
      "API running on 127.0.0.1:4747",
      "OpenCode 1.18.33 ready",
      "mock/a rate-limited until 12:01",
      "Budget: claude-code: 80/100 requests per 5 hours, resets 13:00",
      "---",
    ]);
    assert.equal(labels(buildTrayMenu(makeStatus({}), opts)).length, 14, "no limits: no lines");
  });

  test("many models: the first few, then how many more", () => {
    const many = Array.from({ length: 7 }, (_, i) => limited(`p/m${i}`, T + 1000 * (i + 1)));
    const model = buildTrayMenu(
      { ...makeStatus({}), limits: { rateLimited: many, tightestBudget: null } },
      { ...opts, now: T, formatTime: hhmm, maxRateLimits: 3 },
    );
    assert.deepEqual(labels(model).slice(2, 6), [
      "p/m0 rate-limited until 12:00",
      "p/m1 rate-limited until 12:00",
      "p/m2 rate-limited until 12:00",
      "4 more rate-limited models on the Overview",
    ]);
  });

  test("the tray (fake Electron) shows them after a status update", () => {
    const ports = createFakePorts({ userData: "/tmp/unused-tray" });
    const tray = new TrayController({ ports, iconDir: "/icons", onAction: () => undefined });
    tray.create(makeStatus({}), false);
    assert.ok(!ports.trays[0]!.labels().some((l) => l.includes("rate-limited")));
    const soon = Date.now() + 3_600_000;
    tray.update({ ...makeStatus({}), limits: { ...limits, rateLimited: [limited("mock/a", soon)] } });
    const shown = ports.trays[0]!.labels();
    assert.ok(
      shown.some((l) => /^mock\/a rate-limited until \S/.test(l)),
      shown.join(" | "),
    );
    assert.ok(
      shown.some((l) => l.startsWith("Budget: claude-code: 80/100 requests per 5 hours, resets ")),
      shown.join(" | "),
    );
  });
});

describe("OpenCode keep-alive and restart in the tray (issues 26, 21)", () => {
  const withOpenCode = (opencode: Partial<ReturnType<typeof makeStatus>["opencode"]>) => {
    const s = makeStatus({});
    return { ...s, opencode: { ...s.opencode, ...opencode } };
  };

  test("sleeping: its own status line, the running icon (asleep is idle, not a fault) and Restart OpenCode", () => {
    const s = withOpenCode({ state: "sleeping", reason: "no model request for 600 s", pid: null, url: null });
    const model = buildTrayMenu(s, opts);
    assert.ok(labels(model).includes("OpenCode sleeping (starts on the next request)"));
    assert.deepEqual(find(model, "Restart OpenCode"), {
      kind: "action",
      label: "Restart OpenCode",
      action: { type: "restart-opencode" },
      enabled: true,
    });
    assert.equal(trayIconState(s), "running");
  });

  test("failed: the reason, the next try counted down from now, and Restart OpenCode", () => {
    const s = withOpenCode({ state: "failed", reason: "OpenCode exited during startup 3 times", nextRetryAt: 40_000 });
    const model = buildTrayMenu(s, { ...opts, now: 10_000 });
    assert.ok(labels(model).includes("OpenCode failed: OpenCode exited during startup 3 times (next try in 30 s)"));
    assert.equal(find(model, "Restart OpenCode").kind, "action");
    assert.equal(trayIconState(s), "error");
  });

  test("ready: no Restart item in the tray (the dashboard has it)", () => {
    assert.ok(!labels(buildTrayMenu(makeStatus({}), opts)).includes("Restart OpenCode"));
  });
});
