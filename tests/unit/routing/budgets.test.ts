// Budget policy, headers, guard and durable counting, with a fake clock.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { App } from "../../../shared/apps";
import { parseBudgetSpec, type Budget } from "../../../shared/routing";
import { BudgetExhaustedError, createBudgetGuard } from "../../../server/budgets/budget-guard";
import { anthropicBudgetHeaders, openAiBudgetHeaders, openAiDuration } from "../../../server/budgets/headers";
import { budgetStatus } from "../../../server/budgets/policy";
import { BUDGET_USAGE_FILE, openBudgetUsage } from "../../../server/budgets/usage-store";
import { toOpenAiErrorBody } from "../../../server/wires/openai/error-envelope";

const H = 3_600_000;
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

function app(budgets: Budget[]): App {
  return App.parse({ id: "app-1", name: "cc", createdAt: 0, budgets });
}

test("parseBudgetSpec reads N/window and refuses malformed windows", () => {
  assert.deepEqual(parseBudgetSpec("requests", "500/5h"), { metric: "requests", limit: 500, window: "5h" });
  assert.deepEqual(parseBudgetSpec("tokens", " 2000 / Week "), { metric: "tokens", limit: 2000, window: "week" });
  const huge = parseBudgetSpec("requests", "99999999999999/week");
  assert.ok("error" in huge && /at most 1,000,000,000,000/.test(huge.error), JSON.stringify(huge));
  for (const bad of ["10/7x", "10", "/5h", "-1/day", "0/day", "1.5/day", "ten/day"]) {
    const r = parseBudgetSpec("requests", bad);
    assert.ok("error" in r, bad);
    assert.match(r.error, /5h, day, week|at least 1/, bad);
  }
});

test("a rolling window counts uses inside it; retryAt is when the next request fits", () => {
  const b: Budget = { metric: "requests", limit: 2, window: "5h" };
  const uses = [
    { t: T0, requests: 1, tokens: 0 },
    { t: T0 + H, requests: 1, tokens: 0 },
  ];
  const s = budgetStatus(b, uses, T0 + 2 * H);
  assert.equal(s.used, 2);
  assert.equal(s.spent, true);
  assert.equal(s.retryAt, T0 + 5 * H);
  assert.equal(s.resetAt, T0 + 5 * H);
  const later = budgetStatus(b, uses, T0 + 5 * H);
  assert.equal(later.used, 1);
  assert.equal(later.spent, false);
  assert.equal(later.retryAt, null);
});

test("token budgets sum tokens and wait until the sum drops below the limit", () => {
  const b: Budget = { metric: "tokens", limit: 100, window: "day" };
  const uses = [
    { t: T0, requests: 0, tokens: 60 },
    { t: T0 + H, requests: 0, tokens: 30 },
    { t: T0 + 2 * H, requests: 0, tokens: 30 },
  ];
  const s = budgetStatus(b, uses, T0 + 3 * H);
  assert.equal(s.used, 120);
  assert.equal(s.spent, true);
  // Dropping the 60 leaves 60 < 100.
  assert.equal(s.retryAt, T0 + 24 * H);
});

test("the guard lets N requests pass, refuses N+1 with the reset time, and counts in-flight requests", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-budget-"));
  let now = T0;
  const store = await openBudgetUsage({ dataDir: dir, clock: () => now });
  const guard = createBudgetGuard(store);
  const a = app([{ metric: "requests", limit: 3, window: "5h" }]);
  const first = guard.reserve(a, now, "anthropic");
  const second = guard.reserve(a, now, "anthropic");
  // Two in flight, not yet committed: they count.
  assert.equal(guard.statuses(a, now)[0]!.used, 2);
  first.commit();
  second.cancel(); // admission failed: not counted
  assert.equal(guard.statuses(a, now)[0]!.used, 1);
  now += 1000;
  guard.reserve(a, now, "anthropic").commit();
  now += 1000;
  const third = guard.reserve(a, now, "anthropic");
  third.commit();
  assert.equal(third.headers["anthropic-ratelimit-unified-status"], "allowed_warning");
  assert.equal(third.headers["anthropic-ratelimit-unified-5h-utilization"], "1.0000");
  now += 1000;
  let refused: unknown;
  try {
    guard.reserve(a, now, "anthropic");
  } catch (err) {
    refused = err;
  }
  assert.ok(refused instanceof BudgetExhaustedError);
  assert.equal(refused.status, 429);
  assert.equal(refused.code, "budget_exhausted");
  // The first counted request (T0) leaves the window at T0 + 5h.
  assert.equal(refused.resetsAt, T0 + 5 * H);
  assert.equal(refused.retryAfter, Math.ceil((T0 + 5 * H - now) / 1000));
  assert.equal(refused.headers["anthropic-ratelimit-unified-status"], "rejected");
  assert.equal(refused.headers["anthropic-ratelimit-unified-reset"], String((T0 + 5 * H) / 1000));
  assert.equal(refused.headers["anthropic-ratelimit-unified-representative-claim"], "five_hour");
  assert.match(refused.message, /3 requests per 5 hours.*2026-01-01T17:00:00\.000Z.*patchbay app budget cc/);
  // OpenAI envelope: the form Codex reads as "usage limit reached, try again at".
  const body = toOpenAiErrorBody(refused);
  assert.equal(body.error.type, "usage_limit_reached");
  assert.equal(body.error.code, "budget_exhausted");
  assert.equal(body.error.resets_at, (T0 + 5 * H) / 1000);
  await store.close();

  // Counting survives a restart: a new store on the same folder refuses too, until the window moved on.
  const reopened = await openBudgetUsage({ dataDir: dir, clock: () => now });
  const guard2 = createBudgetGuard(reopened);
  assert.throws(() => guard2.reserve(a, now, "openai"), BudgetExhaustedError);
  now = T0 + 5 * H + 1;
  const ok = guard2.reserve(a, now, "openai");
  ok.commit();
  assert.equal(ok.headers["x-ratelimit-limit-requests"], "3");
  assert.equal(ok.headers["x-ratelimit-remaining-requests"], "0");
  await reopened.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("an app created again under a deleted app's name starts with nothing used (budgets count by app id)", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-budget-"));
  const store = await openBudgetUsage({ dataDir: dir, clock: () => T0 });
  const guard = createBudgetGuard(store);
  const budgets: Budget[] = [{ metric: "requests", limit: 1, window: "5h" }];
  const old = app(budgets);
  guard.reserve(old, T0, "openai").commit();
  assert.throws(() => guard.reserve(old, T0, "openai"), BudgetExhaustedError);
  const reborn = App.parse({ id: "app-2", name: old.name, createdAt: T0, budgets });
  assert.equal(guard.statuses(reborn, T0)[0]!.used, 0);
  guard.reserve(reborn, T0, "openai").commit();
  await store.close();
  const reopened = createBudgetGuard(await openBudgetUsage({ dataDir: dir, clock: () => T0 }));
  assert.equal(reopened.statuses(reborn, T0)[0]!.used, 1, "its own use only, after a restart too");
  fs.rmSync(dir, { recursive: true, force: true });
});

test("the usage file skips torn lines and drops uses older than a week when opened", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-budget-"));
  const file = path.join(dir, BUDGET_USAGE_FILE);
  fs.writeFileSync(
    file,
    [
      JSON.stringify({ a: "x", t: T0 - 8 * 24 * H, r: 1 }),
      JSON.stringify({ a: "x", t: T0 - H, r: 1 }),
      JSON.stringify({ a: "x", t: T0 - H, k: 42 }),
      '{"a":"x","t":',
    ].join("\n"),
  );
  const store = await openBudgetUsage({ dataDir: dir, clock: () => T0 });
  assert.deepEqual(store.uses("x"), [
    { t: T0 - H, requests: 1, tokens: 0 },
    { t: T0 - H, requests: 0, tokens: 42 },
  ]);
  await store.close();
  assert.equal(fs.readFileSync(file, "utf8").trim().split("\n").length, 2, "compacted on open");
  fs.rmSync(dir, { recursive: true, force: true });
});

test("headers: Claude Code's unified windows, OpenAI's x-ratelimit-*, Codex's primary/secondary", () => {
  const now = T0;
  const statuses = [
    {
      metric: "requests" as const,
      limit: 10,
      window: "5h" as const,
      used: 9,
      resetAt: now + H,
      spent: false,
      retryAt: null,
    },
    {
      metric: "tokens" as const,
      limit: 1000,
      window: "week" as const,
      used: 100,
      resetAt: now + 2 * H,
      spent: false,
      retryAt: null,
    },
  ];
  const a = anthropicBudgetHeaders(statuses, now);
  assert.equal(a["anthropic-ratelimit-unified-status"], "allowed_warning");
  assert.equal(a["anthropic-ratelimit-unified-representative-claim"], "five_hour");
  assert.equal(a["anthropic-ratelimit-unified-5h-utilization"], "0.9000");
  assert.equal(a["anthropic-ratelimit-unified-5h-surpassed-threshold"], "0.8");
  assert.equal(a["anthropic-ratelimit-unified-7d-utilization"], "0.1000");
  assert.equal(a["anthropic-ratelimit-unified-7d-reset"], String((now + 2 * H) / 1000));
  assert.equal(a["anthropic-ratelimit-unified-7d-surpassed-threshold"], undefined);
  const o = openAiBudgetHeaders(statuses, now);
  assert.equal(o["x-ratelimit-remaining-requests"], "1");
  assert.equal(o["x-ratelimit-reset-requests"], "1h0m0s");
  assert.equal(o["x-ratelimit-remaining-tokens"], "900");
  assert.equal(o["x-codex-primary-used-percent"], "90.0");
  assert.equal(o["x-codex-primary-window-minutes"], "300");
  assert.equal(o["x-codex-secondary-window-minutes"], String(7 * 24 * 60));
  assert.equal(o["x-codex-secondary-reset-at"], String((now + 2 * H) / 1000));
  assert.deepEqual(anthropicBudgetHeaders([], now), {});
  assert.equal(openAiDuration(61_000), "1m1s");
  assert.equal(openAiDuration(400), "1s");
});

test("every request counts, budget or not: a budget set later sees the use already in its window", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-budget-always-"));
  let now = T0;
  const store = await openBudgetUsage({ dataDir: dir, clock: () => now });
  const guard = createBudgetGuard(store);
  const free = app([]);
  for (let i = 0; i < 3; i++) {
    const r = guard.reserve(free, now, "openai");
    assert.deepEqual(r.headers, {}, "no budget: no budget headers");
    r.commit();
    guard.recordTokens(free, now, 10);
    now += 1000;
  }
  // A refused (cancelled) request does not count.
  guard.reserve(free, now, "openai").cancel();
  const limited = app([
    { metric: "requests", limit: 3, window: "5h" },
    { metric: "tokens", limit: 100, window: "day" },
  ]);
  const [requests, tokens] = guard.statuses(limited, now);
  assert.equal(requests?.used, 3);
  assert.equal(requests?.spent, true);
  assert.equal(tokens?.used, 30);
  assert.throws(() => guard.reserve(limited, now, "openai"), BudgetExhaustedError);
  // Counted durably: a restart sees the same.
  await store.close();
  const reopened = await openBudgetUsage({ dataDir: dir, clock: () => now });
  assert.equal(createBudgetGuard(reopened).statuses(limited, now)[0]?.used, 3);
  await reopened.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("describeBudget: singular for a limit of 1", async () => {
  const { describeBudget } = await import("../../../shared/routing");
  assert.equal(describeBudget({ metric: "requests", limit: 1, window: "5h" }), "1 request per 5 hours");
  assert.equal(describeBudget({ metric: "tokens", limit: 2000, window: "week" }), "2000 tokens per week");
});
