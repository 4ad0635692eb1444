// Pure runtime policies (issue 15): when to recycle OpenCode, what to reap, what to pre-warm, the default memory
// limit. No clocks: `now` is an input.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  defaultMemoryLimitBytes,
  effectiveMemoryLimitBytes,
  lowWatermarkBytes,
} from "../../../../server/opencode/runtime/memory-limit";
import { parseProcStat, parseProcStatusRss } from "../../../../server/opencode/process/process-memory";
import { isWedged, shouldProbe } from "../../../../server/opencode/process/wedge-policy";
import { planFolderReap, planInstanceReap } from "../../../../server/opencode/process/reap-policy";
import { planPrewarm } from "../../../../server/opencode/runtime/prewarm";
import { planRecycle, type RecycleInputs } from "../../../../server/opencode/runtime/recycle-policy";

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;
const MIN = 60_000;

const base: RecycleInputs = {
  now: 10 * 3600_000,
  rssBytes: 500 * MIB,
  limitBytes: 1 * GIB,
  lowWatermarkBytes: 600 * MIB,
  inFlight: 0,
  lastActivityAt: 10 * 3600_000 - 1000,
  readyAt: 0,
  overSince: null,
  busyGraceMs: 30_000,
  idleRecycleMs: 30 * MIN,
  minUptimeMs: 60_000,
};

describe("planRecycle", () => {
  test("under the limit and recently used: nothing", () => {
    assert.deepEqual(planRecycle(base), { action: "none" });
  });
  test("over the limit with nothing in flight: recycle now, no drain", () => {
    const d = planRecycle({ ...base, rssBytes: 1.2 * GIB, overSince: base.now });
    assert.equal(d.action, "recycle");
    assert.ok(d.action === "recycle" && !d.drain && /over the 1024 MB limit/.test(d.reason));
  });
  test("over the limit while busy: waits for a quiet moment, then drains after the grace period", () => {
    const busy = { ...base, rssBytes: 1.2 * GIB, inFlight: 3 };
    assert.deepEqual(planRecycle({ ...busy, overSince: base.now - 29_999 }), { action: "none" });
    const d = planRecycle({ ...busy, overSince: base.now - 30_000 });
    assert.ok(d.action === "recycle" && d.drain);
  });
  test("limit 0 switches recycling off, unknown RSS does nothing, a young process is left alone", () => {
    assert.deepEqual(planRecycle({ ...base, rssBytes: 9 * GIB, limitBytes: 0 }), { action: "none" });
    assert.deepEqual(planRecycle({ ...base, rssBytes: null }), { action: "none" });
    assert.deepEqual(planRecycle({ ...base, rssBytes: 9 * GIB, readyAt: base.now - 59_000 }), { action: "none" });
  });
  test("idle for long above the low watermark: recycle; below it, or never used since start: nothing", () => {
    const idle = { ...base, rssBytes: 700 * MIB, lastActivityAt: base.now - 31 * MIN, readyAt: base.now - 60 * MIN };
    const d = planRecycle(idle);
    assert.ok(d.action === "recycle" && /idle for 31 min/.test(d.reason));
    assert.deepEqual(planRecycle({ ...idle, rssBytes: 550 * MIB }), { action: "none" });
    assert.deepEqual(planRecycle({ ...idle, readyAt: idle.lastActivityAt + 1 }), { action: "none" });
    assert.deepEqual(planRecycle({ ...idle, inFlight: 1 }), { action: "none" });
  });
});

describe("memory limit", () => {
  test("default is clamp(total / 16, 1 GiB, 2 GiB)", () => {
    assert.equal(defaultMemoryLimitBytes(8 * GIB), 1 * GIB);
    assert.equal(defaultMemoryLimitBytes(24 * GIB), 1.5 * GIB);
    assert.equal(defaultMemoryLimitBytes(64 * GIB), 2 * GIB);
  });
  test("setting: null = automatic, 0 = off, else MiB; watermark 60 %", () => {
    assert.equal(effectiveMemoryLimitBytes(null, 16 * GIB), 1 * GIB);
    assert.equal(effectiveMemoryLimitBytes(0, 16 * GIB), 0);
    assert.equal(effectiveMemoryLimitBytes(700, 16 * GIB), 700 * MIB);
    assert.equal(lowWatermarkBytes(1000), 600);
  });
  test("VmRSS is read from /proc/<pid>/status text", () => {
    assert.equal(parseProcStatusRss("Name:\topencode\nVmRSS:\t  524288 kB\nThreads: 19\n"), 512 * MIB);
    assert.equal(parseProcStatusRss("Name:\tzombie\nState:\tZ\n"), null);
  });
});

describe("reaping", () => {
  test("only instances with nothing in use, not already disposing, idle for maxIdle", () => {
    const now = 100 * MIN;
    const dirs = planInstanceReap(
      [
        { directory: "busy", inUse: 1, disposing: false, lastUsedAt: 0 },
        { directory: "old", inUse: 0, disposing: false, lastUsedAt: now - 10 * MIN },
        { directory: "recent", inUse: 0, disposing: false, lastUsedAt: now - 9 * MIN },
        { directory: "going", inUse: 0, disposing: true, lastUsedAt: 0 },
      ],
      now,
      10 * MIN,
    );
    assert.deepEqual(dirs, ["old"]);
  });
  test("folders: unused for maxAge and not live", () => {
    const day = 24 * 3600_000;
    const now = 30 * day;
    const dirs = planFolderReap(
      [
        { directory: "stale", lastUsedAt: now - 8 * day, live: false },
        { directory: "stale-live", lastUsedAt: now - 8 * day, live: true },
        { directory: "fresh", lastUsedAt: now - 6 * day, live: false },
      ],
      now,
      7 * day,
    );
    assert.deepEqual(dirs, ["stale"]);
  });
});

describe("planPrewarm", () => {
  test("the most recent per app, newest first, capped in total and by age", () => {
    const now = 1_000_000;
    const f = (app: string, dir: string, usedAt: number) => ({ app, directory: dir, usedAt });
    const picked = planPrewarm(
      [f("a", "a1", now - 10), f("a", "a2", now - 20), f("a", "a3", now - 5), f("b", "b1", now - 1), f("c", "c1", 0)],
      { now, perApp: 2, maxTotal: 3, maxAgeMs: 100_000 },
    );
    assert.deepEqual(picked, ["b1", "a3", "a1"]);
  });
});

describe("isWedged", () => {
  const w = { misses: 2, state: "S", cpuTicksSinceFirstMiss: 0, msSinceFirstMiss: 8000, minMisses: 2, maxMisses: 4 };
  test("stopped or idle while not answering: wedged after the minimum misses", () => {
    assert.equal(isWedged({ ...w, misses: 1, state: "T" }), false);
    assert.equal(isWedged({ ...w, state: "T", cpuTicksSinceFirstMiss: 500 }), true);
    assert.equal(isWedged(w), true);
    assert.equal(isWedged({ ...w, state: null, cpuTicksSinceFirstMiss: null }), true);
  });
  test("busy (CPU progressing) gets more time, up to the maximum", () => {
    const busy = { ...w, state: "R", cpuTicksSinceFirstMiss: 600 };
    assert.equal(isWedged(busy), false);
    assert.equal(isWedged({ ...busy, misses: 3 }), false);
    assert.equal(isWedged({ ...busy, misses: 4 }), true);
  });
  test("/proc/<pid>/stat is parsed after the last parenthesis", () => {
    const line = "4242 (open code) (x)) T 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 19 0 100 0 0";
    assert.deepEqual(parseProcStat(line), { state: "T", cpuTicks: 300 });
  });
});

describe("shouldProbe", () => {
  const p = { misses: 0, idle: true, sinceLastProbeMs: 5_000, idlePeriodMs: 60_000 };
  test("idle: once per idle period; busy or in a miss streak: every tick", () => {
    assert.equal(shouldProbe(p), false);
    assert.equal(shouldProbe({ ...p, sinceLastProbeMs: 60_000 }), true);
    assert.equal(shouldProbe({ ...p, sinceLastProbeMs: Infinity }), true, "the first probe always runs");
    assert.equal(shouldProbe({ ...p, idle: false }), true);
    assert.equal(shouldProbe({ ...p, misses: 1 }), true, "a wedge is still caught in seconds once suspected");
  });
});
