// Lifecycle decisions with a fake app: quit → save UI state → stop Patchbay (listeners, then OpenCode) → exit;
// repeated quits; a stop that fails or hangs still exits; signals quit; renderer crashes reload (bounded).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { decideRendererGone, Lifecycle, RENDERER_CRASH_WINDOW_MS, type LifecycleDeps } from "../../../main/lifecycle";
import { FakeApp, FakeEvent, type CallLog } from "./fake-electron";

function setup(over: Partial<LifecycleDeps> = {}) {
  const calls: CallLog = [];
  const app = new FakeApp(calls, "/ud");
  const signals = new Map<string, () => void>();
  let clock = 1_000_000;
  const deps: LifecycleDeps = {
    app,
    stopPatchbay: async () => {
      calls.push("stop:listeners");
      await new Promise((r) => setTimeout(r, 5));
      calls.push("stop:opencode");
    },
    beforeStop: async () => {
      calls.push("save-window-state");
    },
    showDashboard: () => calls.push("showDashboard"),
    reloadDashboard: () => calls.push("reloadDashboard"),
    notify: (title) => calls.push(`notify(${title})`),
    onSignal: (sig, h) => signals.set(sig, h),
    log: () => {},
    now: () => clock,
    ...over,
  };
  const lc = new Lifecycle(deps);
  lc.install();
  return { calls, app, lc, signals, advance: (ms: number) => (clock += ms) };
}

describe("quit", () => {
  test("before-quit is cancelled once, Patchbay stops (listeners then OpenCode), then the app exits 0", async () => {
    const { calls, app, lc } = setup();
    app.quit();
    assert.equal(lc.quitting, true);
    assert.equal(app.exitCode, null, "no exit before the stop finished");
    await lc.done;
    assert.deepEqual(calls, ["app.quit", "save-window-state", "stop:listeners", "stop:opencode", "app.exit(0)"]);
    assert.equal(app.exitCode, 0);
  });

  test("a second quit while stopping is cancelled too and does not stop twice", async () => {
    let stops = 0;
    const { app, lc } = setup({
      stopPatchbay: async () => {
        stops++;
        await new Promise((r) => setTimeout(r, 20));
      },
    });
    app.quit();
    const second = new FakeEvent();
    for (const l of app.listeners.beforeQuit) l(second);
    assert.equal(second.prevented, true);
    await lc.done;
    assert.equal(stops, 1);
    assert.equal(app.exitCode, 0);
  });

  test("a failing stop still exits (code 1); a failing state save does not block the stop", async () => {
    const { app, lc, calls } = setup({
      beforeStop: async () => {
        throw new Error("disk full");
      },
      stopPatchbay: async () => {
        calls.push("stop");
        throw new Error("boom");
      },
    });
    app.quit();
    await lc.done;
    assert.deepEqual(calls.slice(-2), ["stop", "app.exit(1)"]);
  });

  test("a hanging stop is cut off after the timeout", async () => {
    const { app, lc } = setup({ stopPatchbay: () => new Promise(() => {}), stopTimeoutMs: 30 });
    app.quit();
    await lc.done;
    assert.equal(app.exitCode, 1);
  });

  test("SIGTERM / SIGINT / SIGHUP quit through the same path", async () => {
    for (const sig of ["SIGTERM", "SIGINT", "SIGHUP"]) {
      const { app, lc, signals, calls } = setup();
      signals.get(sig)?.();
      await lc.done;
      assert.ok(calls.includes("stop:opencode"), sig);
      assert.equal(app.exitCode, 0);
    }
  });
});

describe("single instance, windows, activation", () => {
  test("second instance and macOS activate bring the dashboard up", () => {
    const { app, calls } = setup();
    app.emitSecondInstance(["patchbay"]);
    for (const l of app.listeners.activate) l();
    assert.deepEqual(calls, ["showDashboard", "showDashboard"]);
  });

  test("closing the last window keeps the app running (a listener is registered and does nothing)", () => {
    const { app, calls } = setup();
    assert.equal(app.listeners.windowAllClosed.length, 1);
    app.listeners.windowAllClosed[0]!();
    assert.deepEqual(calls, []);
    assert.equal(app.exitCode, null);
  });
});

describe("renderer crash", () => {
  test("decideRendererGone: clean exit ignored, crashes reload up to the limit per window", () => {
    assert.equal(decideRendererGone("clean-exit", [], 0), "ignore");
    assert.equal(decideRendererGone("crashed", [], 0), "reload");
    assert.equal(decideRendererGone("oom", [1, 2], 10), "reload");
    assert.equal(decideRendererGone("crashed", [1, 2, 3], 10), "give-up");
    assert.equal(
      decideRendererGone("crashed", [1, 2, 3], 3 + RENDERER_CRASH_WINDOW_MS + 1),
      "reload",
      "old crashes expire",
    );
  });

  test("crashes reload the window and never quit; a crash loop notifies instead", () => {
    const { lc, calls, app, advance } = setup();
    for (let i = 0; i < 4; i++) {
      lc.handleRendererGone("crashed");
      advance(1000);
    }
    assert.deepEqual(calls, [
      "reloadDashboard",
      "reloadDashboard",
      "reloadDashboard",
      "notify(The dashboard keeps crashing)",
    ]);
    assert.equal(app.exitCode, null);
    assert.equal(lc.quitting, false);
    advance(RENDERER_CRASH_WINDOW_MS);
    lc.handleRendererGone("killed");
    assert.equal(calls.at(-1), "reloadDashboard");
  });

  test("a memory eviction (Electron 42+) reloads and never counts toward the crash limit", () => {
    assert.equal(decideRendererGone("memory-eviction", [1, 2, 3], 10), "reload-evicted");
    const { lc, calls } = setup();
    for (let i = 0; i < 5; i++) lc.handleRendererGone("memory-eviction");
    lc.handleRendererGone("crashed");
    assert.deepEqual(calls, Array(6).fill("reloadDashboard"));
  });
});
