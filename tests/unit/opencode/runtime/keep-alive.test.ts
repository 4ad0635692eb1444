// OpenCode keep-alive (issue 26) with fakes: the duration grammar, the pure sleep decision, the failed-retry backoff,
// and the KeepAlive state machine over a fake supervisor (never sleeps under a request, a history call or a hold;
// sleeps once idle; a request that enters while it stops is not lost; early wake only when asleep).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { describeKeepAlive, parseKeepAlive } from "../../../../shared/keep-alive";
import { Settings, SettingsPatch } from "../../../../shared/settings";
import type { OpenCodeStatus } from "../../../../shared/status";
import { keepAliveDecision, type KeepAliveView } from "../../../../server/opencode/runtime/keep-alive-policy";
import { KeepAlive, type SleepingProcess } from "../../../../server/opencode/runtime/keep-alive";
import { restartOpenCode } from "../../../../server/opencode/runtime/restart";
import { downError, failedRetryDelayMs } from "../../../../server/opencode/process/retry-policy";
import { RequestGate } from "../../../../server/opencode/session/request-gate";
import { waitFor } from "../../../harness/wait-for";

describe("keep-alive durations", () => {
  test("durations, 0, forever; bare numbers are seconds; case and spaces ignored", () => {
    assert.equal(parseKeepAlive("10m"), 600_000);
    assert.equal(parseKeepAlive(" 90S "), 90_000);
    assert.equal(parseKeepAlive("1.5h"), 5_400_000);
    assert.equal(parseKeepAlive("2d"), 172_800_000);
    assert.equal(parseKeepAlive("500ms"), 500);
    assert.equal(parseKeepAlive("30"), 30_000);
    assert.equal(parseKeepAlive("0"), 0);
    assert.equal(parseKeepAlive("forever"), null);
    assert.equal(parseKeepAlive("Forever"), null);
  });

  test("bad input is refused: words, negatives, unknown units, empty, over 30 days", () => {
    for (const bad of ["banana", "-5m", "10 minutes", "", "5x", "31d", "1e3", "m"])
      assert.equal(parseKeepAlive(bad), undefined, bad);
  });

  test("Settings: default 10m; a bad value is refused with the grammar in the message", () => {
    assert.equal(Settings.parse({}).opencodeKeepAlive, "10m");
    const r = SettingsPatch.safeParse({ opencodeKeepAlive: "banana" });
    assert.equal(r.success, false);
    assert.match(r.error?.issues[0]?.message ?? "", /Invalid OpenCode keep-alive.*10m.*forever/);
    assert.equal(SettingsPatch.parse({ opencodeKeepAlive: "forever" }).opencodeKeepAlive, "forever");
  });

  test("described for people", () => {
    assert.equal(describeKeepAlive(null), "forever");
    assert.equal(describeKeepAlive(0), "at once");
    assert.equal(describeKeepAlive(600_000), "10 min");
    assert.equal(describeKeepAlive(7_200_000), "2 h");
    assert.equal(describeKeepAlive(90_000), "90 s");
    assert.equal(describeKeepAlive(1500), "1500 ms");
  });
});

describe("keepAliveDecision", () => {
  const base: KeepAliveView = {
    keepAliveMs: 60_000,
    state: "ready",
    inFlight: 0,
    otherUses: 0,
    lastUseAt: 1_000_000,
    now: 1_000_000,
  };
  test("sleeps once idle for the keep-alive, not before; says when to look again", () => {
    assert.deepEqual(keepAliveDecision(base), { sleep: false, recheckInMs: 60_000 });
    assert.deepEqual(keepAliveDecision({ ...base, now: base.now + 59_999 }), { sleep: false, recheckInMs: 1 });
    assert.deepEqual(keepAliveDecision({ ...base, now: base.now + 60_000 }), { sleep: true });
  });
  test("never under a request or another use, however long idle; looks again within 5 s", () => {
    const late = { ...base, now: base.now + 3_600_000 };
    assert.deepEqual(keepAliveDecision({ ...late, inFlight: 1 }), { sleep: false, recheckInMs: 5_000 });
    assert.deepEqual(keepAliveDecision({ ...late, otherUses: 1 }), { sleep: false, recheckInMs: 5_000 });
  });
  test("forever never sleeps; only a ready OpenCode sleeps; 0 sleeps as soon as nothing uses it", () => {
    assert.deepEqual(keepAliveDecision({ ...base, keepAliveMs: null, now: 9e12 }), { sleep: false, recheckInMs: null });
    for (const state of ["starting", "restarting", "failed", "sleeping", "stopped"])
      assert.deepEqual(keepAliveDecision({ ...base, state, now: 9e12 }), { sleep: false, recheckInMs: null }, state);
    assert.deepEqual(keepAliveDecision({ ...base, keepAliveMs: 0 }), { sleep: true });
    assert.deepEqual(keepAliveDecision({ ...base, keepAliveMs: 0, inFlight: 1 }), { sleep: false, recheckInMs: 250 });
  });
});

describe("failed-start retries", () => {
  test("5 s doubling to 5 min, bounded for any count", () => {
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5, 6, 7].map((n) => failedRetryDelayMs(n)),
      [5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000],
    );
    assert.equal(failedRetryDelayMs(10_000), 300_000);
    assert.equal(failedRetryDelayMs(2, { initialMs: 100, maxMs: 250 }), 250);
  });
  test("a failed OpenCode's 503 says when it is tried again (also as Retry-After) and how to restart it", () => {
    const s: OpenCodeStatus = {
      state: "failed",
      reason: "OpenCode exited during startup 3 times",
      version: null,
      url: null,
      pid: null,
      restarts: 0,
      nextRetryAt: 50_500,
    };
    const err = downError(s, 10_000);
    assert.equal(err?.code, "backend_unavailable");
    assert.equal(err?.retryAfter, 41);
    assert.match(err?.message ?? "", /startup 3 times\. Patchbay tries again in 41 s .*Restart OpenCode/);
    assert.equal(downError({ ...s, state: "sleeping" }, 0), null);
    assert.equal(downError({ ...s, state: "stopped" }, 0)?.message, "OpenCode is not running.");
  });
});

/** A supervisor stand-in: `sleep` takes `exitMs` to finish, `wake` sets ready again. */
class FakeProcess implements SleepingProcess {
  state: OpenCodeStatus = { state: "ready", reason: null, version: "1", url: "u1", pid: 1, restarts: 0 };
  readyAtMs = Date.now();
  sleeps: string[] = [];
  wakes = 0;
  recycles = 0;
  retries = 0;
  stopRequested = false;
  private listeners = new Set<(s: OpenCodeStatus) => void>();
  constructor(private readonly exitMs = 0) {}
  status() {
    return { ...this.state };
  }
  onStatus(l: (s: OpenCodeStatus) => void) {
    this.listeners.add(l);
    return () => void this.listeners.delete(l);
  }
  readyAt() {
    return this.state.state === "ready" ? this.readyAtMs : null;
  }
  set(patch: Partial<OpenCodeStatus>) {
    this.state = { ...this.state, ...patch };
    for (const l of this.listeners) l(this.status());
  }
  async sleep(reason: string) {
    if (this.state.state !== "ready") return false;
    this.sleeps.push(reason);
    this.set({ state: "sleeping", reason, pid: null, url: null });
    await new Promise((r) => setTimeout(r, this.exitMs));
    return true;
  }
  async wake() {
    if (this.state.state !== "sleeping") return;
    this.wakes++;
    this.readyAtMs = Date.now();
    this.set({ state: "ready", reason: null, pid: 2, url: "u2" });
  }
  async retryNow() {
    this.retries++;
    this.set({ state: "ready" });
  }
  async recycle() {
    this.recycles++;
  }
}

function keepAlive(p: FakeProcess, gate: RequestGate, ms: number | null, quiet?: () => Promise<void>) {
  const lines: string[] = [];
  const ka = new KeepAlive({
    process: p,
    gate,
    keepAliveMs: () => ms,
    log: (l) => lines.push(l),
    ...(quiet ? { quiet } : {}),
  });
  return { ka, lines };
}

describe("KeepAlive over a fake supervisor", () => {
  test("sleeps once idle for the keep-alive and counts it; forever never sleeps", async () => {
    const p = new FakeProcess();
    const { ka, lines } = keepAlive(p, new RequestGate(), 30);
    ka.start();
    try {
      await waitFor("sleep, counted once the process has exited", () => ka.status().sleeps === 1, 5_000);
      assert.equal(p.state.state, "sleeping");
      assert.equal(ka.status().sleepsAt, null);
      assert.match(lines.join("\n"), /going to sleep/);
    } finally {
      ka.stop();
    }
    const p2 = new FakeProcess();
    const forever = keepAlive(p2, new RequestGate(), null);
    forever.ka.start();
    await new Promise((r) => setTimeout(r, 100)); // (a negative check: nothing may happen in this time)
    forever.ka.stop();
    assert.equal(p2.state.state, "ready");
    assert.equal(forever.ka.status().sleepsAt, null);
  });

  test("never sleeps under a request in flight, nor under a history call; sleeps after they end", async () => {
    const p = new FakeProcess();
    const gate = new RequestGate();
    const { ka } = keepAlive(p, gate, 0);
    const ticket = await gate.enter();
    let endHistory!: () => void;
    const history = ka.use(() => new Promise<void>((r) => (endHistory = r)));
    ka.start();
    try {
      await new Promise((r) => setTimeout(r, 300)); // past the 250 ms recheck: still awake
      assert.equal(p.state.state, "ready");
      ticket.leave();
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(p.state.state, "ready", "the history call still holds it");
      endHistory();
      await history;
      await waitFor("sleep after the last use", () => p.state.state === "sleeping", 5_000);
    } finally {
      ka.stop();
    }
  });

  test("waits for background work (pre-warm) before sleeping", async () => {
    const p = new FakeProcess();
    let done!: () => void;
    const prewarm = new Promise<void>((r) => (done = r));
    const { ka } = keepAlive(p, new RequestGate(), 0, () => prewarm);
    ka.start();
    try {
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(p.state.state, "ready");
      done();
      await waitFor("sleep after the pre-warm", () => p.state.state === "sleeping", 5_000);
    } finally {
      ka.stop();
    }
  });

  test("around(): every method of a port counts as a use while it runs", async () => {
    const p = new FakeProcess();
    const { ka } = keepAlive(p, new RequestGate(), 0);
    let release!: () => void;
    const port = ka.around({ list: (n: number) => new Promise<number>((r) => (release = () => r(n * 2))) });
    const pending = port.list(21);
    ka.start();
    try {
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(p.state.state, "ready");
      release();
      assert.equal(await pending, 42);
      await waitFor("sleep", () => p.state.state === "sleeping", 5_000);
    } finally {
      ka.stop();
    }
  });

  test("wakeEarly wakes only a sleeping OpenCode", async () => {
    const p = new FakeProcess();
    const { ka, lines } = keepAlive(p, new RequestGate(), null);
    ka.wakeEarly("probe");
    assert.equal(p.wakes, 0);
    p.set({ state: "sleeping" });
    ka.wakeEarly("HEAD /");
    await waitFor("woken", () => p.state.state === "ready", 5_000);
    assert.equal(p.wakes, 1);
    assert.match(lines.join("\n"), /waking up early \(HEAD \/\)/);
  });
});

describe("restartOpenCode", () => {
  test("failed → retryNow; sleeping → wake; ready → hold, drain, recycle, release", async () => {
    const gate = new RequestGate();
    const p = new FakeProcess();
    p.set({ state: "failed" });
    await restartOpenCode(p, gate, () => {});
    assert.equal(p.retries, 1);
    p.set({ state: "sleeping" });
    await restartOpenCode(p, gate, () => {});
    assert.equal(p.wakes, 1);
    const ticket = await gate.enter();
    const restarting = restartOpenCode(p, gate, () => {});
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(gate.isHolding, true, "new requests are held");
    assert.equal(p.recycles, 0, "not while a request runs");
    ticket.leave();
    await restarting;
    assert.equal(p.recycles, 1);
    assert.equal(gate.isHolding, false);
  });
});
