// Routes, fallbacks and budgets through the real HTTP stack (createOpenAiApp + the request runner) over a scripted
// backend and a fake clock: what each wire answers, its headers, what the backend was asked, and the log entry.
import { after, before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { App } from "../../../shared/apps";
import { createBudgetGuard } from "../../../server/budgets/budget-guard";
import { openBudgetUsage, type BudgetUsageStore } from "../../../server/budgets/usage-store";
import type { ModelInfo, NeutralRequest } from "../../../server/core/contract";
import { PatchbayError } from "../../../server/core/errors";
import { ConcurrencyGate } from "../../../server/core/concurrency";
import { Listener } from "../../../server/http/listener";
import { createApiApp } from "../../../server/http/api-app";
import { WIRES as WIRE_TABLE } from "../../../server/wires/table";
import { ResponseStore } from "../../../server/responses-store/response-store";
import { Cooldowns } from "../../../server/routing/cooldowns";
import { modelInfo } from "../../harness/builders";
import { KEY, MODELS, MemoryLog, OneApp, OneKey, ScriptedBackend, textAnswer, type Step } from "../http/fakes";
import { bareCli } from "../../../server/core/cli-command";

type Json = Record<string, unknown>;
const H = 3_600_000;
const OTHER = modelInfo({ modelID: "other", name: "Other" });

class TwoModels extends ScriptedBackend {
  check?: (request: NeutralRequest) => void;
  override async listModels(): Promise<ModelInfo[]> {
    return [...MODELS, OTHER];
  }
}

let now = Date.UTC(2026, 0, 1, 12);
let dir: string;
let store: BudgetUsageStore;
let listener: Listener;
let base: string;
const apps = new OneApp();
const backend = new TwoModels();
const log = new MemoryLog();
const cooldowns = new Cooldowns(() => now);

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-route-unit-"));
  store = await openBudgetUsage({ dataDir: dir, clock: () => now });
  const app = createApiApp(
    {
      apps,
      cli: bareCli,
      keys: new OneKey(),
      responses: new ResponseStore({ dataDir: dir }),
      backend,
      catalog: () => backend.listModels(),
      gate: new ConcurrencyGate(),
      requestLog: log,
      logBodies: () => false,
      inlineImages: async (request) => request,
      now: () => now,
      lanExposure: () => false,
      health: () => ({ ok: true, opencode: "ready" }),
      log: () => undefined,
      budgets: createBudgetGuard(store),
      cooldowns,
    },
    WIRE_TABLE,
  );
  listener = new Listener(app, "127.0.0.1", 0, WIRE_TABLE.unmatchedErrorBody);
  base = `http://127.0.0.1:${(await listener.start()).port}`;
});
after(async () => {
  await listener.stop(0);
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  backend.streams = [];
  log.entries = [];
  backend.script = () => textAnswer("hi");
});

function setApp(extra: Json): void {
  apps.app = App.parse({ id: "app_1", name: "unit", createdAt: 0, ...extra });
}

const WIRES = {
  chat: (model: string) => ["/v1/chat/completions", { model, messages: [{ role: "user", content: "x" }] }],
  responses: (model: string) => ["/v1/responses", { model, input: "x" }],
  messages: (model: string) => ["/v1/messages", { model, max_tokens: 16, messages: [{ role: "user", content: "x" }] }],
} as const;

function call(wire: keyof typeof WIRES, model: string, headers: Record<string, string> = {}): Promise<Response> {
  const [p, body] = WIRES[wire](model);
  return fetch(base + p, {
    method: "POST",
    headers: {
      authorization: `Bearer ${KEY}`,
      "content-type": "application/json",
      ...(wire === "messages" ? { "anthropic-version": "2023-06-01" } : {}),
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

const refuse429: Step[] = [
  { type: "start", sessionId: "s", warnings: [] },
  { type: "error", error: { code: "upstream_rate_limited", status: 429, message: "slow down", retryAfter: 60 } },
];

test("a fallback chain answers on every wire; the refused model cools down until its retry time", async () => {
  setApp({ aliases: { fast: "mock/mock-model" }, fallbacks: { fast: ["mock/other"] } });
  for (const wire of ["chat", "responses", "messages"] as const) {
    backend.streams = [];
    backend.script = (_r, b) => (b.model.modelID === "mock-model" ? refuse429 : textAnswer(`from other (${wire})`));
    now += 61_000; // past the previous cooldown: the first target is tried again
    const r = await call(wire, "fast");
    const text = await r.text();
    assert.equal(r.status, 200, text);
    assert.match(text, new RegExp(`from other \\(${wire}\\)`));
    assert.equal(r.headers.get("x-patchbay-served-model"), "mock/other");
    assert.match(r.headers.get("x-patchbay-skipped") ?? "", /^mock\/mock-model; 429 upstream_rate_limited/);
    assert.deepEqual(
      backend.streams.map((s) => s.request.model.id),
      ["mock/mock-model", "mock/other"],
    );
    assert.strictEqual(backend.streams[0]!.request.request, backend.streams[1]!.request.request, "same request");
    assert.ok(backend.streams.every((s) => s.closed));
  }
  backend.streams = [];
  now += 30_000; // inside the 60 s retry time
  assert.equal((await call("chat", "fast")).status, 200);
  assert.deepEqual(
    backend.streams.map((s) => s.request.model.id),
    ["mock/other"],
  );
  const entry = log.entries.at(-1)!;
  assert.equal(entry.servedBy, "mock/other");
  assert.match(entry.skipped?.[0]?.reason ?? "", /rate-limited until/);
});

test("a role's route picks the model; other roles and unhinted requests are unchanged", async () => {
  setApp({ aliases: { cheap: "mock/other" }, routes: { subagent: "cheap", review: "mock/other" } });
  await call("messages", "mock/mock-model", { "x-claude-code-request-class": "subagent" });
  await call("messages", "mock/mock-model", { "x-claude-code-request-class": "main" });
  await call("responses", "mock/mock-model", { "x-openai-subagent": "review" });
  await call("chat", "mock/mock-model");
  assert.deepEqual(
    backend.streams.map((s) => s.request.model.id),
    ["mock/other", "mock/mock-model", "mock/other", "mock/mock-model"],
  );
  assert.deepEqual(
    log.entries.map((e) => [e.role, e.routedTo, e.modelResolved]),
    [
      ["subagent", "cheap", "mock/other"],
      ["main", undefined, "mock/mock-model"],
      ["review", "mock/other", "mock/other"],
      [undefined, undefined, "mock/mock-model"],
    ],
  );
});

test("budgets: N pass with utilization headers, N+1 is refused natively on all three wires, tokens count", async () => {
  setApp({
    budgets: [
      { metric: "requests", limit: 2, window: "5h" },
      { metric: "tokens", limit: 1000, window: "week" },
    ],
  });
  // Every request is counted, budget or not: the earlier tests' requests leave both windows first.
  now += 8 * 24 * H;
  const t0 = now;
  const first = await call("chat", "mock/mock-model");
  assert.equal(first.status, 200);
  assert.equal(first.headers.get("x-ratelimit-remaining-requests"), "1");
  assert.equal(first.headers.get("x-codex-primary-used-percent"), "50.0");
  assert.equal(first.headers.get("x-codex-secondary-window-minutes"), String(7 * 24 * 60));
  now += 1000;
  const second = await call("messages", "mock/mock-model");
  assert.equal(second.status, 200);
  assert.equal(second.headers.get("anthropic-ratelimit-unified-status"), "allowed_warning");
  assert.equal(second.headers.get("anthropic-ratelimit-unified-5h-utilization"), "1.0000");
  // The first request's 2 tokens (1 in + 1 out) count against the weekly token budget.
  assert.equal(second.headers.get("anthropic-ratelimit-unified-7d-utilization"), "0.0020");
  now += 1000;
  const resetS = Math.ceil((t0 + 5 * H) / 1000);
  for (const wire of ["chat", "responses", "messages"] as const) {
    const r = await call(wire, "mock/mock-model");
    const body = (await r.json()) as { error: Json; type?: string };
    assert.equal(r.status, 429, wire);
    assert.equal(r.headers.get("retry-after"), String(resetS - Math.floor(now / 1000)), wire);
    assert.equal(r.headers.get("x-should-retry"), "false", wire);
    if (wire === "messages") {
      assert.equal(body.type, "error");
      assert.equal(body.error.type, "rate_limit_error");
      assert.equal(r.headers.get("anthropic-ratelimit-unified-status"), "rejected");
      assert.equal(r.headers.get("anthropic-ratelimit-unified-reset"), String(resetS));
    } else {
      assert.equal(body.error.type, "usage_limit_reached", `${wire}: ${JSON.stringify(body)}`);
      assert.equal(body.error.code, "budget_exhausted");
      assert.equal(body.error.resets_at, resetS);
      assert.equal(r.headers.get("x-ratelimit-remaining-requests"), "0");
    }
    assert.match(String(body.error.message), /budget of 2 requests per 5 hours/);
  }
  assert.equal(backend.streams.length, 2, "refused requests never reached the backend");
  now = t0 + 5 * H + 1;
  assert.equal((await call("chat", "mock/mock-model")).status, 200, "the window moved on");
});

test("a single model's 429 with a retry time is recorded with its log entry (Overview, tray); it is still tried", async () => {
  setApp({});
  now += 3 * H; // past earlier tests' cooldowns
  backend.script = () => refuse429;
  const r = await call("messages", "mock/mock-model");
  assert.equal(r.status, 429);
  assert.equal(r.headers.get("retry-after"), "60");
  const entry = log.entries.at(-1);
  assert.ok(entry);
  assert.deepEqual(
    cooldowns.list().map((c) => [c.model, c.until, c.logId]),
    [["mock/mock-model", now + 60_000, entry.id]],
  );
  assert.match(cooldowns.list()[0]?.message ?? "", /slow down/);
  backend.script = () => textAnswer("fine again");
  const again = await call("chat", "mock/mock-model");
  assert.equal(again.status, 200, "without a chain the model is asked (the provider decides)");
  // A budget's 429 is Patchbay's, not the provider's: nothing is noted.
  setApp({ budgets: [{ metric: "requests", limit: 1, window: "5h" }] });
  now += 61_000;
  await call("chat", "mock/other");
  assert.equal((await call("chat", "mock/other")).status, 429);
  assert.deepEqual(cooldowns.list(), []);
});

test("an alias whose own model no provider offers falls back; the answer names what served and why it skipped", async () => {
  now += 3 * H; // past earlier tests' cooldowns
  setApp({ aliases: { fast: "mock/gone" }, fallbacks: { fast: ["mock/other"] } });
  backend.script = () => textAnswer("from other");
  for (const wire of ["chat", "responses", "messages"] as const) {
    backend.streams = [];
    const r = await call(wire, "fast");
    const text = await r.text();
    assert.equal(r.status, 200, `${wire}: ${text}`);
    assert.match(text, /from other/);
    assert.equal(r.headers.get("x-patchbay-served-model"), "mock/other", wire);
    assert.equal(r.headers.get("x-patchbay-skipped"), "mock/gone; not offered by any connected provider", wire);
    assert.deepEqual(
      backend.streams.map((s) => s.request.model.id),
      ["mock/other"],
    );
  }
  assert.equal(log.entries.at(-1)?.servedBy, "mock/other");

  // No model of the chain is offered: one 404 in the wire's envelope naming the alias and its models.
  setApp({ aliases: { fast: "mock/gone" }, fallbacks: { fast: ["mock/also-gone"] } });
  backend.streams = [];
  const chat = await call("chat", "fast");
  const chatBody = (await chat.json()) as { error: Json };
  assert.equal(chat.status, 404);
  assert.equal(chatBody.error.code, "model_not_found");
  assert.match(String(chatBody.error.message), /alias "fast" points to mock\/gone → mock\/also-gone/);
  const messages = await call("messages", "fast");
  const messagesBody = (await messages.json()) as { type: string; error: Json };
  assert.equal(messages.status, 404);
  assert.equal(messagesBody.type, "error");
  assert.equal(messagesBody.error.type, "not_found_error");
  assert.equal(backend.streams.length, 0);
});

test("an alias naming a model id no header can carry (non-ASCII, control characters) falls back, percent-encoded", async () => {
  now += 3 * H;
  // Aliases accept any provider/model; Node throws on such a header value, which made this answer a 500.
  setApp({ aliases: { odd: "mock/中\u0000,x" }, fallbacks: { odd: ["mock/other"] } });
  backend.script = () => textAnswer("from other");
  for (const wire of ["chat", "responses", "messages"] as const) {
    const r = await call(wire, "odd");
    assert.equal(r.status, 200, `${wire}: ${await r.text()}`);
    assert.equal(r.headers.get("x-patchbay-skipped"), "mock/%E4%B8%AD%00%2Cx; not offered by any connected provider");
    assert.equal(r.headers.get("x-patchbay-served-model"), "mock/other");
  }
  assert.deepEqual(log.entries.at(-1)?.skipped, [
    { model: "mock/中\u0000,x", reason: "not offered by any connected provider" },
  ]);
});

test("x-patchbay-skipped names only models the chain reached, each with its true reason", async () => {
  now += 3 * H;
  setApp({ aliases: { fast: "mock/mock-model" }, fallbacks: { fast: ["mock/gone", "mock/other"] } });
  // A later target cooling down and a later one not offered: the first answers, nothing was skipped.
  cooldowns.note("mock/other", now + 60_000);
  backend.streams = [];
  backend.script = () => textAnswer("first");
  const r = await call("chat", "fast");
  assert.equal(r.status, 200);
  assert.equal(r.headers.get("x-patchbay-served-model"), "mock/mock-model");
  assert.equal(r.headers.get("x-patchbay-skipped"), null, "nothing the chain did not reach");
  assert.equal(log.entries.at(-1)?.skipped, undefined);

  // A 503 with a retry time is skipped as a 503 (not "rate-limited"), and does not cool the model down.
  now += 61_000;
  const overloaded: Step[] = [
    { type: "start", sessionId: "s", warnings: [] },
    { type: "error", error: { code: "upstream_error", status: 503, message: "overloaded", retryAfter: 30 } },
  ];
  backend.script = (_r, b) => (b.model.modelID === "mock-model" ? overloaded : textAnswer("from other"));
  const second = await call("chat", "fast");
  assert.equal(second.status, 200);
  assert.equal(
    second.headers.get("x-patchbay-skipped"),
    "mock/mock-model; 503 upstream_error: overloaded, mock/gone; not offered by any connected provider",
  );
  assert.equal(second.headers.get("x-patchbay-served-model"), "mock/other");
  assert.equal(cooldowns.coolingUntil("mock/mock-model"), null, "only a provider's 429 cools a model down");
});

test("x-patchbay-served-model on answers through an alias or a route; a plain request has none", async () => {
  now += 3 * H;
  setApp({ aliases: { cheap: "mock/other" }, routes: { subagent: "mock/other", compaction: "cheap" } });
  backend.script = () => textAnswer("ok");
  const routed = await call("messages", "mock/mock-model", { "x-claude-code-request-class": "subagent" });
  assert.equal(routed.status, 200);
  assert.equal(routed.headers.get("x-patchbay-served-model"), "mock/other");
  const viaAlias = await call("responses", "mock/mock-model", { "x-claude-code-request-class": "compaction" });
  assert.equal(viaAlias.headers.get("x-patchbay-served-model"), "mock/other");
  assert.equal((await call("chat", "cheap")).headers.get("x-patchbay-served-model"), "mock/other");
  const plain = await call("chat", "mock/mock-model");
  assert.equal(plain.status, 200);
  assert.equal(plain.headers.get("x-patchbay-served-model"), null);
});

test("a route to a model no provider offers: the wire's 404 names the route and the missing model", async () => {
  setApp({ aliases: { cheap: "mock/gone" }, routes: { subagent: "mock/nowhere", compaction: "cheap" } });
  backend.streams = [];
  const messages = await call("messages", "mock/mock-model", { "x-claude-code-request-class": "subagent" });
  const body = (await messages.json()) as { type: string; error: Json };
  assert.equal(messages.status, 404);
  assert.equal(body.type, "error");
  assert.equal(body.error.type, "not_found_error");
  assert.match(
    String(body.error.message),
    /App 'unit' routes subagent requests \(this one asked for 'mock\/mock-model'\) to 'mock\/nowhere', which no connected OpenCode provider offers\. Change the route with: patchbay app route unit subagent MODEL/,
  );
  const chat = await call("chat", "mock/mock-model", { "x-claude-code-request-class": "compaction" });
  const chatBody = (await chat.json()) as { error: Json };
  assert.equal(chat.status, 404);
  assert.equal(chatBody.error.code, "model_not_found");
  assert.equal(chatBody.error.param, "model");
  assert.match(String(chatBody.error.message), /routes compaction requests .* to its alias 'cheap'.*'mock\/gone'/);
  assert.equal(backend.streams.length, 0);
});

test("a request the backend cannot carry is a 400 at admission: it neither counts against the budget nor is stored", async () => {
  setApp({ budgets: [{ metric: "requests", limit: 5, window: "5h" }] });
  now += 6 * H; // a fresh window
  backend.check = (request) => {
    if (request.tools.some((t) => t.name === "refused"))
      throw new PatchbayError("invalid_request_error", "The backend cannot carry tool 'refused'.", { param: "tools" });
  };
  const withTool = {
    chat: { tools: [{ type: "function", function: { name: "refused", parameters: { type: "object" } } }] },
    responses: { tools: [{ type: "function", name: "refused", parameters: { type: "object" } }] },
    messages: { tools: [{ name: "refused", input_schema: { type: "object" } }] },
  };
  const filesBefore = listFiles(dir);
  try {
    for (const wire of ["chat", "responses", "messages"] as const) {
      const [p, body] = WIRES[wire]("mock/mock-model");
      const r = await fetch(base + p, {
        method: "POST",
        headers: {
          authorization: `Bearer ${KEY}`,
          "content-type": "application/json",
          "anthropic-version": "2023-06-01",
        },
        body: JSON.stringify({ ...(body as object), ...withTool[wire] }),
      });
      const answer = (await r.json()) as { error: Json };
      assert.equal(r.status, 400, wire);
      assert.match(String(answer.error.message), /cannot carry tool 'refused'/, wire);
      assert.equal(r.headers.get("x-ratelimit-remaining-requests"), null, `${wire}: no budget headers on a refusal`);
    }
    assert.equal(backend.streams.length, 0, "the backend was never asked");
    assert.deepEqual(listFiles(dir), filesBefore, "nothing stored (no failed response, no budget use)");
    const ok = await call("chat", "mock/mock-model");
    assert.equal(ok.headers.get("x-ratelimit-remaining-requests"), "4", "only this request counted");
  } finally {
    delete backend.check;
  }
});

/** Every file under `root`, relative, sorted. */
function listFiles(root: string): string[] {
  return (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((d) => d.isFile())
    .map((d) => path.relative(root, path.join(d.parentPath, d.name)))
    .sort();
}
