// Bounded sweeps against the real OpenCode (one `opencode serve` + mock upstream for this file): with 650 sessions over
// the limit one sweep stops at its budget and the next continues oldest first; a sweep yields to requests in flight
// (checked by the order of events, not by latency); paging through 500 sessions and a whole prune. Timings of
// listing and pruning at scale are the benchmark's (they were printed here; a shared test pass is no place for them).
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { DEFAULT_SWEEP_BUDGET, HistoryService } from "../../server/history/history-service";
import { compareNewestFirst } from "../../server/history/session-pager";
import type { SweepResult } from "../../shared/admin/history";
import { createSessions, startHistoryEnv, type Created, type HistoryEnv } from "./history-support";

const MODEL = { providerID: "mock", modelID: "mock-model" };
const LIMIT_50 = { maxSessions: 50, maxAgeDays: null };
/** A deadline no sweep here reaches: the budget, not the clock, must stop them (exact counts on a loaded machine). */
const BUDGET_ONLY = 600_000;
const SESSIONS = 50 + 2 * DEFAULT_SWEEP_BUDGET + 50;

let env: HistoryEnv;
let history: HistoryService;
let s: Created[];
/** Requests in flight, as the request service would report them to the history service. */
let inFlight = 0;

before(async () => {
  env = await startHistoryEnv();
  history = new HistoryService({ opencode: env.supervisor, appsDir: env.appsDir, activeRequests: () => inFlight });
  const dirs = ["t1", "t2"].map((t) => env.toolSetDir("s", t));
  // 50 kept + two sweeps' budgets (2 × 300) + 50 left for a third: enough to show a sweep stops at its budget.
  s = await createSessions(
    env,
    SESSIONS,
    (i) => dirs[i % 2] as string,
    (i) => `S-${i}`,
  );
});

after(async () => {
  await env?.stop();
});

/** One client request as the backend makes it: a new session, one prompt, answer complete. */
async function request(dir: string, n: number): Promise<void> {
  const client = env.supervisor.client();
  inFlight++;
  try {
    const created = await client.session.create({ directory: dir, title: `req-${n}` });
    const r = await client.session.prompt({
      sessionID: created.data!.id,
      directory: dir,
      model: MODEL,
      parts: [{ type: "text", text: `question ${n}` }],
    });
    assert.ok(r.data, `request ${n} failed: ${JSON.stringify(r.error)}`);
  } finally {
    inFlight--;
  }
}

describe("bounded sweeps with the real OpenCode", () => {
  test("paging: 500 sessions of two tool sets in pages of 100 and 200, newest first, none twice", async () => {
    for (const limit of [100, 200]) {
      const ids: string[] = [];
      let cursor: string | undefined;
      while (ids.length < 500) {
        const page = await history.list("s", { limit, ...(cursor ? { cursor } : {}) });
        assert.ok(page.sessions.length > 0 && page.sessions.length <= limit, `a page of at most ${limit}`);
        ids.push(...page.sessions.map((x) => x.id));
        cursor = page.nextCursor ?? undefined;
      }
      assert.equal(new Set(ids).size, ids.length, "no session listed twice");
      const newestFirst = [...s].sort(compareNewestFirst).map((x) => x.id);
      assert.deepEqual(ids.slice(0, 500), newestFirst.slice(0, 500));
    }
  });

  test("with 650 over the limit one sweep stops at its budget and the next continues, oldest first", async () => {
    const oldestFirst = [...s].sort(compareNewestFirst).reverse();
    const client = env.supervisor.client();
    const exists = async (c: Created) => (await client.session.get({ sessionID: c.id })).response.status === 200;

    const first = await history.prune("s", { limits: LIMIT_50, deadlineMs: BUDGET_ONLY });
    console.log(`# sweep 1: ${JSON.stringify(pick(first))}`);
    assert.equal(first.removed, DEFAULT_SWEEP_BUDGET);
    assert.ok(first.remaining > 0, "it knows more is left");
    assert.ok(
      first.scanned < SESSIONS,
      `a bounded sweep does not read all ${SESSIONS} sessions (read ${first.scanned})`,
    );
    assert.equal(await exists(oldestFirst[0]!), false);
    assert.equal(await exists(oldestFirst[DEFAULT_SWEEP_BUDGET - 1]!), false);
    assert.equal(await exists(oldestFirst[DEFAULT_SWEEP_BUDGET]!), true, "the budget stops it");

    const second = await history.prune("s", { limits: LIMIT_50, deadlineMs: BUDGET_ONLY });
    console.log(`# sweep 2: ${JSON.stringify(pick(second))}`);
    assert.equal(second.removed, DEFAULT_SWEEP_BUDGET);
    assert.ok(second.remaining > 0);
    assert.ok(second.scanned < first.scanned, "the next sweep reads only what is still over the limit");
    assert.equal(await exists(oldestFirst[2 * DEFAULT_SWEEP_BUDGET - 1]!), false);
    assert.equal(await exists(oldestFirst[2 * DEFAULT_SWEEP_BUDGET]!), true);
    assert.equal(await exists(oldestFirst.at(-1)!), true, "the newest stay");
  });

  // The latency cost of sweeps is a performance claim (the benchmark's to make); what this file checks is the
  // behaviour behind it, by the order of events: a sweep makes no deletion while requests are in flight (one OpenCode
  // call per busy interval, here longer than the test), those requests are answered meanwhile, and it resumes at once
  // when they end.
  test("a sweep yields to requests in flight: they are answered while it waits, and it resumes when they end", async () => {
    const dir = env.toolSetDir("r", "t1");
    const over = async () => (await history.previewPrune("s", LIMIT_50)).count;
    const overBefore = await over();
    assert.ok(overBefore >= 20, `app s still has ${overBefore} sessions over its limit`);
    let settled = false;
    inFlight++; // one request the sweep must yield to, in flight for the whole first phase
    const sweep = history
      .prune("s", { limits: LIMIT_50, budget: 20, busyIntervalMs: BUDGET_ONLY, deadlineMs: BUDGET_ONLY })
      .finally(() => (settled = true));
    try {
      for (let n = 0; n < 3; n++) await request(dir, n);
      assert.equal(settled, false, "the sweep waits while requests are in flight");
      assert.equal(await over(), overBefore, "no session deleted while requests are in flight");
    } finally {
      inFlight--;
    }
    const r = await sweep;
    assert.deepEqual([r.removed, r.failed], [20, 0], "with no request in flight it does its whole budget");
    assert.equal(await over(), overBefore - 20);
  });

  test("a whole prune: 150 sessions over a limit of 50, one sweep with a budget above the excess removes all 100", async () => {
    const dirs = ["t1", "t2"].map((t) => env.toolSetDir("p", t));
    await createSessions(
      env,
      150,
      (i) => dirs[i % 2] as string,
      (i) => `P-${i}`,
    );
    const r = await history.prune("p", { limits: LIMIT_50, budget: 500, deadlineMs: BUDGET_ONLY });
    assert.deepEqual([r.removed, r.remaining, r.failed], [100, 0, 0]);
  });
});

function pick(r: SweepResult) {
  return {
    scanned: r.scanned,
    removed: r.removed,
    remaining: r.remaining,
    failed: r.failed,
    skippedRunning: r.skippedRunning,
  };
}
