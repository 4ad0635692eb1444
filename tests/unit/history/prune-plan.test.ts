// Pure prune planning: keep-newest-N, age by session time, the stricter of both, running sessions never planned.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { DAY_MS, hasLimits, planPrune, spreadSample } from "../../../server/history/prune-plan";

const NOW = Date.UTC(2030, 0, 31);

/** `n` sessions, one per hour going back from NOW (s0 is the newest). */
function sessions(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    id: `ses_${String(i).padStart(4, "0")}`,
    createdAt: NOW - i * 3_600_000,
    updatedAt: NOW - i * 3_600_000,
  }));
}

const none = new Set<string>();

describe("planPrune", () => {
  test("unset limits keep everything", () => {
    const plan = planPrune(sessions(50), { maxSessions: null, maxAgeDays: null }, NOW, none);
    assert.deepEqual(plan, { toDelete: [], skippedRunning: [] });
    assert.equal(hasLimits({ maxSessions: null, maxAgeDays: null }), false);
    assert.equal(hasLimits({ maxSessions: 3, maxAgeDays: null }), true);
  });

  test("maxSessions keeps the newest N and deletes the rest oldest first", () => {
    const all = sessions(300);
    const plan = planPrune(all, { maxSessions: 50, maxAgeDays: null }, NOW, none);
    assert.equal(plan.toDelete.length, 250);
    assert.deepEqual(
      plan.toDelete.map((s) => s.id),
      all
        .slice(50)
        .reverse()
        .map((s) => s.id),
    );
  });

  test("maxSessions keeps the first N in list order (creation), even if an older one was used recently", () => {
    const all = sessions(3);
    all[2] = { ...all[2]!, updatedAt: NOW + 1 };
    const plan = planPrune(all, { maxSessions: 1, maxAgeDays: null }, NOW, none);
    assert.deepEqual(
      plan.toDelete.map((s) => s.id),
      ["ses_0002", "ses_0001"],
    );
  });

  test("maxAgeDays uses session time: older than N days goes, exactly N days stays", () => {
    const fresh = { id: "ses_fresh", createdAt: NOW - 100 * DAY_MS, updatedAt: NOW - 1000 };
    const edge = { id: "ses_edge", createdAt: NOW - 3 * DAY_MS, updatedAt: NOW - 3 * DAY_MS };
    const old = { id: "ses_old", createdAt: NOW - 4 * DAY_MS, updatedAt: NOW - 3 * DAY_MS - 1 };
    const plan = planPrune([fresh, edge, old], { maxSessions: null, maxAgeDays: 3 }, NOW, none);
    assert.deepEqual(
      plan.toDelete.map((s) => s.id),
      ["ses_old"],
    );
  });

  test("with both limits the union goes (the stricter wins either way)", () => {
    const all = sessions(24 * 10); // ten days, hourly
    const byCount = planPrune(all, { maxSessions: 24, maxAgeDays: null }, NOW, none).toDelete.length;
    const byAge = planPrune(all, { maxSessions: null, maxAgeDays: 5 }, NOW, none).toDelete.length;
    const both = planPrune(all, { maxSessions: 24, maxAgeDays: 5 }, NOW, none).toDelete.length;
    assert.equal(both, Math.max(byCount, byAge));
    const both2 = planPrune(all, { maxSessions: 200, maxAgeDays: 1 }, NOW, none).toDelete.length;
    assert.equal(
      both2,
      all.length - 25,
      "age is stricter here: keeps the last day (25 hourly sessions incl. the edge)",
    );
  });

  test("running sessions are never planned, but keep their place among the newest", () => {
    const all = sessions(10);
    const running = new Set(["ses_0009", "ses_0000"]);
    const plan = planPrune(all, { maxSessions: 5, maxAgeDays: null }, NOW, running);
    assert.deepEqual(
      plan.skippedRunning.map((s) => s.id),
      ["ses_0009"],
    );
    assert.deepEqual(
      plan.toDelete.map((s) => s.id),
      ["ses_0008", "ses_0007", "ses_0006", "ses_0005"],
    );
  });
});

describe("spreadSample", () => {
  test("keeps both ends and at most n", () => {
    const items = Array.from({ length: 101 }, (_, i) => i);
    const s = spreadSample(items, 10);
    assert.equal(s.length, 10);
    assert.equal(s[0], 0);
    assert.equal(s.at(-1), 100);
    assert.deepEqual(spreadSample([1, 2], 10), [1, 2]);
  });
});
