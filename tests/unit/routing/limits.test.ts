// Upstream limits made visible and budgets at a glance (issue 24 §4–5): the cooldown registry's details, which 429s
// are a provider's word, the status's `limits` (tightest budget of the apps in use, models cooling), when that
// picture next changes by itself, and the texts the tray and the Overview show.
import { test } from "node:test";
import assert from "node:assert/strict";
import { App } from "../../../shared/apps";
import { budgetLine, rateLimitLine, tightestBudget, type AppBudgetGlance } from "../../../shared/limits";
import { createBudgetGuard } from "../../../server/budgets/budget-guard";
import { limitsGlance, nextGlanceChange, watchLimits } from "../../../server/compose/limits-glance";
import type { BudgetUsageStore } from "../../../server/budgets/usage-store";
import type { UsageRecord } from "../../../server/budgets/policy";
import { Cooldowns, noteRefusal } from "../../../server/routing/cooldowns";

const H = 3_600_000;
const T0 = Date.UTC(2026, 0, 1, 12);
const hhmm = (t: number) => new Date(t).toISOString().slice(11, 16);

/** A usage store in memory. */
function memoryUsage(): BudgetUsageStore {
  const uses = new Map<string, UsageRecord[]>();
  const add = (a: string, r: UsageRecord) => uses.set(a, [...(uses.get(a) ?? []), r]);
  return {
    uses: (a) => uses.get(a) ?? [],
    recordRequest: (a, t) => add(a, { t, requests: 1, tokens: 0 }),
    recordTokens: (a, t, k) => add(a, { t, requests: 0, tokens: k }),
    lastError: () => null,
    close: async () => undefined,
  };
}

test("cooldowns keep who refused, when, until when and the refusal's log entry; a later time wins", () => {
  let now = T0;
  const c = new Cooldowns(() => now);
  let changes = 0;
  c.onChange(() => changes++);
  c.note("mock/a", T0 + 60_000, { logId: "log-1", message: "slow down" });
  c.note("mock/a", T0 + 30_000, { logId: "log-2" }); // earlier: ignored
  c.note("other/b#high", T0 + 10_000);
  assert.equal(changes, 2);
  assert.deepEqual(c.list(), [
    { model: "other/b#high", provider: "other", until: T0 + 10_000, since: T0, logId: null, message: null },
    { model: "mock/a", provider: "mock", until: T0 + 60_000, since: T0, logId: "log-1", message: "slow down" },
  ]);
  now = T0 + 10_000;
  assert.deepEqual(
    c.list().map((r) => r.model),
    ["mock/a"],
    "a cooldown ends at its time",
  );
});

test("only a provider's 429 with a retry time is noted: not budgets, not Patchbay's own 'every model cools'", () => {
  const c = new Cooldowns(() => T0);
  const limited = { code: "upstream_rate_limited", status: 429, message: "The provider is rate limiting requests: x" };
  noteRefusal(c, "mock/a", { ...limited, retryAfter: 30 }, T0, "log-a");
  noteRefusal(c, "mock/b", limited, T0); // no retry time
  noteRefusal(c, "mock/c", { code: "budget_exhausted", status: 429, message: "budget", retryAfter: 99 }, T0);
  noteRefusal(c, "mock/d", { code: "upstream_error", status: 502, message: "boom", retryAfter: 5 }, T0);
  noteRefusal(
    c,
    "mock/e",
    { ...limited, message: "Every model of this request is rate-limited by its provider (mock/e)", retryAfter: 9 },
    T0,
  );
  assert.deepEqual(
    c.list().map((r) => [r.model, r.until, r.logId]),
    [["mock/a", T0 + 30_000, "log-a"]],
  );
});

test("the status's limits: the tightest budget among apps in use, models cooling, and the next change by time", () => {
  const store = memoryUsage();
  const guard = createBudgetGuard(store);
  const mk = (id: string, name: string, budgets: unknown[]) => App.parse({ id, name, createdAt: 0, budgets });
  const idle = mk("app_1", "idle", [{ metric: "requests", limit: 1, window: "5h" }]);
  const busy = mk("app_2", "busy", [
    { metric: "requests", limit: 10, window: "5h" },
    { metric: "requests", limit: 100, window: "week" },
  ]);
  const calm = mk("app_3", "calm", [{ metric: "requests", limit: 10, window: "day" }]);
  for (let i = 0; i < 8; i++) store.recordRequest("app_2", T0 - H + i);
  store.recordRequest("app_3", T0 - 2 * H);
  const cooldowns = new Cooldowns(() => T0);
  cooldowns.note("mock/a", T0 + 90_000, { logId: "log-9" });

  const glance = limitsGlance([idle, busy, calm], guard, cooldowns, T0);
  assert.equal(glance.tightestBudget?.app, "busy", "the idle app's budget is not in use (nothing counted)");
  assert.deepEqual(
    [glance.tightestBudget?.used, glance.tightestBudget?.limit, glance.tightestBudget?.window],
    [8, 10, "5h"],
  );
  assert.equal(glance.tightestBudget?.resetAt, T0 - H + 5 * H, "when the oldest use leaves the window");
  assert.deepEqual(
    glance.rateLimited.map((r) => r.model),
    ["mock/a"],
  );
  assert.equal(nextGlanceChange(glance, T0), T0 + 90_000, "the cooldown ends before the budget resets");
  assert.equal(nextGlanceChange({ rateLimited: [], tightestBudget: null }, T0), null);
  assert.equal(tightestBudget([]), null);
});

test("a spent budget is the tightest, and its line says until when", () => {
  const base = { metric: "requests" as const, window: "5h" as const, resetAt: T0 + H, retryAt: null, spent: false };
  const half: AppBudgetGlance = { ...base, app: "a", limit: 10, used: 5 };
  const spent: AppBudgetGlance = { ...base, app: "b", limit: 2, used: 2, spent: true, retryAt: T0 + 2 * H };
  assert.equal(tightestBudget([half, spent])?.app, "b");
  assert.equal(budgetLine(half, hhmm), `a: 5/10 requests per 5 hours, resets ${hhmm(T0 + H)}`);
  assert.equal(budgetLine(spent, hhmm), `b: 2/2 requests per 5 hours, spent until ${hhmm(T0 + 2 * H)}`);
  assert.equal(
    rateLimitLine(
      { model: "mock/a", provider: "mock", until: T0 + 60_000, since: T0, logId: null, message: null },
      hhmm,
    ),
    `mock/a rate-limited until ${hhmm(T0 + 60_000)}`,
  );
});

test("watchLimits emits after a refusal and after a request of an app with budgets, not of one without", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  let now = T0;
  const cooldowns = new Cooldowns(() => now);
  const requestListeners: ((appId: string | null) => void)[] = [];
  let emitted = 0;
  const stop = watchLimits({
    cooldowns,
    glance: () => ({ rateLimited: cooldowns.list(), tightestBudget: null }),
    onRequest: (l) => {
      requestListeners.push(l);
      return () => undefined;
    },
    appHasBudgets: (appId) => appId === "id-budgeted",
    emit: () => emitted++,
    now: () => now,
    debounceMs: 100,
  });
  requestListeners[0]!("id-plain");
  t.mock.timers.tick(200);
  assert.equal(emitted, 0, "an app without budgets changes nothing");
  requestListeners[0]!("id-budgeted");
  requestListeners[0]!("id-budgeted");
  t.mock.timers.tick(100);
  assert.equal(emitted, 1, "debounced into one");
  cooldowns.note("mock/a", T0 + 60_000);
  t.mock.timers.tick(100);
  assert.equal(emitted, 2, "a refusal");
  now = T0 + 60_100;
  t.mock.timers.tick(60_100);
  assert.equal(emitted, 3, "and again when the cooldown ends, without a request");
  stop();
});
