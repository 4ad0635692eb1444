// Sweeper scheduling: no limits → no sweep; requests coalesce; one sweep at a time; left-over work continues; the
// timer covers apps with limits; manual runs return their result; failures are recorded and logged.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { HistoryLimits } from "../../../shared/apps";
import type { SweepResult } from "../../../shared/admin/history";
import type { PruneOptions } from "../../../server/history/history-service";
import { Sweeper, describeSweep } from "../../../server/history/sweeper";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `cond` holds (polling), failing after `timeoutMs`: positive waits stay robust on a busy machine. */
async function until(cond: () => boolean, what: string, timeoutMs = 3000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) assert.fail(`timed out waiting for: ${what}`);
    await sleep(5);
  }
}

function result(app: string, opts: PruneOptions, extra: Partial<SweepResult> = {}): SweepResult {
  return {
    app,
    trigger: opts.trigger ?? "manual",
    startedAt: 1,
    finishedAt: 2,
    scanned: 10,
    removed: 0,
    alreadyMissing: 0,
    failed: 0,
    skippedRunning: 0,
    remaining: 0,
    dryRun: opts.dryRun === true,
    error: null,
    ...extra,
  };
}

function harness(
  limits: Record<string, HistoryLimits>,
  prune?: (app: string, o: PruneOptions) => Promise<SweepResult>,
) {
  const calls: { app: string; opts: PruneOptions; at: number }[] = [];
  const lines: string[] = [];
  let active = 0;
  let maxActive = 0;
  const sweeper = new Sweeper({
    prune: async (app, opts) => {
      calls.push({ app, opts, at: Date.now() });
      active++;
      maxActive = Math.max(maxActive, active);
      try {
        return prune ? await prune(app, opts) : (await sleep(5), result(app, opts, { removed: 1 }));
      } finally {
        active--;
      }
    },
    limitsOf: (app) => limits[app] ?? null,
    apps: () => Object.keys(limits),
    log: (l) => lines.push(l),
    debounceMs: 30,
    minGapMs: 200,
    continueAfterMs: 20,
    intervalMs: 60_000,
    sweep: { budget: 7 },
  });
  return { sweeper, calls, lines, maxActive: () => maxActive };
}

describe("Sweeper", () => {
  test("apps without limits are never swept automatically", async () => {
    const { sweeper, calls } = harness({ free: { maxSessions: null, maxAgeDays: null } });
    sweeper.notifyRequest("free");
    sweeper.notifyRequest("unknown");
    await sleep(80);
    assert.equal(calls.length, 0);
    await sweeper.stop();
  });

  test("requests coalesce into one background sweep, then the minimum gap applies", async () => {
    const { sweeper, calls, lines } = harness({ a: { maxSessions: 5, maxAgeDays: null } });
    const t0 = Date.now();
    for (let i = 0; i < 20; i++) sweeper.notifyRequest("a");
    assert.equal(calls.length, 0, "nothing runs on the request path");
    await until(() => sweeper.lastSweep("a") !== null, "the first sweep");
    assert.equal(calls.length, 1);
    assert.ok(calls[0]!.at - t0 >= 25, "debounced");
    assert.deepEqual(calls[0]!.opts, {
      budget: 7,
      limits: { maxSessions: 5, maxAgeDays: null },
      dryRun: false,
      trigger: "request",
    });
    assert.equal(sweeper.lastSweep("a")?.removed, 1);
    assert.match(lines[0] ?? "", /history: sweep app=a trigger=request scanned=10 removed=1/);
    sweeper.notifyRequest("a");
    // The request inside the gap is not dropped: it sweeps once the gap has passed, never before (timestamps of the
    // calls, not a sleep, so a busy machine cannot fail it).
    await until(() => calls.length === 2, "the sweep after the gap");
    // Measured from the first sweep's start (the gap runs from its end, later still): a lower bound no load can break.
    assert.ok(calls[1]!.at - calls[0]!.at >= 200, "not before the minimum gap");
    await sweeper.stop();
  });

  test("left-over work continues by itself until done", async () => {
    let left = 3;
    const { sweeper, calls } = harness({ a: { maxSessions: 1, maxAgeDays: null } }, async (app, opts) => {
      left--;
      return result(app, opts, { removed: 7, remaining: left * 7 });
    });
    sweeper.notifyRequest("a");
    await until(() => sweeper.lastSweep("a")?.remaining === 0, "the backlog to drain");
    assert.equal(calls.length, 3);
    await sweeper.stop();
  });

  test("one sweep at a time across apps and manual runs", async () => {
    const { sweeper, calls, maxActive } = harness(
      { a: { maxSessions: 1, maxAgeDays: null }, b: { maxSessions: null, maxAgeDays: 3 } },
      async (app, opts) => {
        await sleep(20);
        return result(app, opts);
      },
    );
    sweeper.notifyRequest("a");
    sweeper.notifyRequest("b");
    const manual = await Promise.all([sweeper.runNow("a"), sweeper.runNow("b", { dryRun: true })]);
    await until(() => sweeper.lastSweep("b") !== null, "both scheduled sweeps");
    assert.equal(maxActive(), 1);
    assert.equal(calls.length, 4);
    assert.equal(manual[1].dryRun, true);
    assert.equal(sweeper.lastSweep("b")?.dryRun, false, "a dry run is not remembered as the last sweep");
    await sweeper.stop();
  });

  test("a failing sweep is recorded with its error and logged", async () => {
    const { sweeper, lines } = harness({ a: { maxSessions: 1, maxAgeDays: null } }, async () => {
      throw new Error("OpenCode is not running.");
    });
    const r = await sweeper.runNow("a");
    assert.equal(r.error, "OpenCode is not running.");
    assert.equal(sweeper.lastSweep("a")?.error, "OpenCode is not running.");
    assert.match(lines.at(-1) ?? "", /error="OpenCode is not running\."/);
    await sweeper.stop();
  });

  test("the timer sweeps every app with limits", async () => {
    const calls: string[] = [];
    const sweeper = new Sweeper({
      prune: async (app, opts) => (calls.push(`${app}:${opts.trigger}`), result(app, opts)),
      limitsOf: (app) =>
        app === "free" ? { maxSessions: null, maxAgeDays: null } : { maxSessions: 3, maxAgeDays: null },
      apps: () => ["a", "free", "b"],
      log: () => {},
      intervalMs: 40,
    });
    sweeper.start();
    await until(() => calls.length >= 2, "the first timer tick");
    await sweeper.stop();
    assert.deepEqual(calls.slice(0, 2), ["a:timer", "b:timer"]);
    const n = calls.length;
    await sleep(60);
    assert.equal(calls.length, n, "stop() disarms the timer");
  });

  test("describeSweep names every count", () => {
    const line = describeSweep(
      result(
        "a",
        { limits: { maxSessions: 1, maxAgeDays: null }, trigger: "timer" },
        { removed: 3, alreadyMissing: 1, failed: 2, skippedRunning: 4, remaining: 5 },
      ),
    );
    assert.equal(
      line,
      "history: sweep app=a trigger=timer scanned=10 removed=3 alreadyMissing=1 failed=2 skippedRunning=4 remaining=5 in 1 ms",
    );
  });
});
