// Routing by request role, fallback chains and per-app budgets through the whole Patchbay (real opencode serve +
// mock upstream), as the official OpenAI and Anthropic clients see them: the model a role is routed to, the next
// target after a 429 before the first byte (and the refused one skipped until its retry time), and a spent budget
// refused natively on all three wires with Retry-After and the utilization headers each client family reads; an alias
// whose own model is not offered falls back; a route to an unknown model is refused when set; an app created again
// under a deleted app's name starts with an empty log, no usage and its budgets at zero.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { AdminApiError } from "../../shared/admin/client";
import type { PatchbayFixture } from "../harness/patchbay-fixture";
import { releaseSharedPatchbay, useSharedPatchbay } from "../harness/shared-patchbay";
import { waitFor } from "../harness/wait-for";

type Json = Record<string, unknown>;

let fx: PatchbayFixture;
let root: string;
const A = "mock-model";
const B = "mock-vision";
const FIVE_HOURS_S = 5 * 3600;

before(async () => {
  fx = await useSharedPatchbay();
  root = fx.apiBase.replace(/\/v1$/, "");
});
after(async () => {
  await releaseSharedPatchbay(fx);
});

/** Models of the upstream requests that carry `marker` (a late request of an earlier test never matches). */
const upstreamModels = (marker: string) =>
  fx.mock
    .chatRequests()
    .filter((r) => r.rawBody.includes(marker))
    .map((r) => r.body.model);
/** An upstream body without its model: what must be the same for every target of a chain. */
const withoutModel = (b: Json) => Object.fromEntries(Object.entries(b).filter(([k]) => k !== "model"));

describe("fallback chains", () => {
  let key: string;
  let openai: OpenAI;
  let anthropic: Anthropic;
  before(async () => {
    key = await fx.createKey("chained", { models: ["mock/*"] });
    await fx.admin.updateApp({
      params: { name: "chained" },
      body: { aliases: { fast: `mock/${A}` }, fallbacks: { fast: [`mock/${B}`] } },
    });
    openai = fx.openai(key);
    anthropic = new Anthropic({ apiKey: key, baseURL: root, maxRetries: 0, timeout: 120_000 });
  });

  test("chat completions: A answers 429 before any byte → B answers, same body upstream; A skipped until its retry time", async () => {
    fx.mock.reset();
    fx.mock.setResponder((req) =>
      req.body.model === A
        ? { error: { status: 429, message: "rate limit exceeded", headers: { "retry-after": "30" } } }
        : { text: "FROM_B" },
    );
    const { data, response } = await openai.chat.completions
      .create({ model: "fast", messages: [{ role: "user", content: "hello chain" }] })
      .withResponse();
    assert.equal(data.choices[0]?.message.content, "FROM_B");
    assert.equal(data.model, "fast", "the client sees the model it asked for");
    assert.equal(response.headers.get("x-patchbay-served-model"), `mock/${B}`);
    assert.match(response.headers.get("x-patchbay-skipped") ?? "", new RegExp(`^mock/${A}; 429 upstream_rate_limited`));
    const seen = fx.mock.chatRequests().filter((r) => r.rawBody.includes("hello chain"));
    assert.deepEqual(
      seen.map((r) => r.body.model),
      [A, B],
    );
    assert.deepEqual(withoutModel(seen[1]!.body), withoutModel(seen[0]!.body), "the same request went to B");

    // Within A's retry time the next request goes to B at once.
    fx.mock.requests.length = 0;
    const again = await openai.chat.completions
      .create({ model: "fast", messages: [{ role: "user", content: "again" }], stream: true })
      .withResponse();
    let text = "";
    for await (const chunk of again.data) text += chunk.choices[0]?.delta.content ?? "";
    assert.equal(text, "FROM_B");
    assert.deepEqual(upstreamModels("again"), [B], "A was not tried while cooling down");
    assert.match(again.response.headers.get("x-patchbay-skipped") ?? "", /rate-limited until/);

    const log = await fx.admin.queryLogs({ query: { app: "chained", limit: 5 } });
    const entry = log.entries.find((e) => e.servedBy !== undefined);
    assert.equal(entry?.servedBy, `mock/${B}`);
    assert.ok(entry?.skipped?.some((s) => s.model === `mock/${A}`));
  });

  test("Anthropic Messages and Responses: the chain answers on every wire", async () => {
    fx.mock.reset();
    fx.mock.setResponder((req) =>
      req.body.model === A ? { error: { status: 503, message: "overloaded" } } : { text: "FROM_B" },
    );
    const m = await anthropic.messages
      .create({ model: "fast", max_tokens: 64, messages: [{ role: "user", content: "hi" }] })
      .withResponse();
    assert.deepEqual(
      m.data.content,
      [{ type: "text", text: "FROM_B", citations: null }].map(({ citations: _c, ...b }) => b),
    );
    assert.equal(m.response.headers.get("x-patchbay-served-model"), `mock/${B}`);
    const r = await openai.responses.create({ model: "fast", input: "hi" }).withResponse();
    assert.equal(r.data.output_text, "FROM_B");
    assert.equal(r.response.headers.get("x-patchbay-served-model"), `mock/${B}`);
  });

  test("after the first byte an upstream failure is not retried on the next target", async () => {
    fx.mock.reset();
    fx.mock.setResponder(() => ({ text: "partial answer that is cut", chunks: 6, paceMs: 400, dropAfterChunks: 3 }));
    // A is cooling from the first test; an alias whose first target is B and falls back to A shows the rule.
    await fx.admin.updateApp({
      params: { name: "chained" },
      body: {
        aliases: { fast: `mock/${A}`, other: `mock/${B}` },
        fallbacks: { fast: [`mock/${B}`], other: [`mock/${A}`] },
      },
    });
    const stream = await openai.chat.completions.create({
      model: "other",
      messages: [{ role: "user", content: "cut me" }],
      stream: true,
    });
    let got = "";
    let failed = false;
    try {
      for await (const chunk of stream) got += chunk.choices[0]?.delta.content ?? "";
    } catch {
      failed = true;
    }
    assert.ok(got.length > 0, "the client saw the first bytes");
    assert.ok(failed || !got.includes("cut"), "the stream did not complete normally");
    assert.deepEqual(upstreamModels("cut me").slice(0, 1), [B]);
    assert.ok(!upstreamModels("cut me").includes(A), "nothing was sent to the fallback after the first byte");
  });

  test("an alias whose own model no provider offers: the next model answers, and the headers say so", async () => {
    fx.mock.reset();
    fx.mock.setResponder(() => ({ text: "FROM_B" }));
    await fx.admin.updateApp({
      params: { name: "chained" },
      body: { aliases: { gone: "mock/not-offered" }, fallbacks: { gone: [`mock/${B}`] } },
    });
    const { data, response } = await openai.chat.completions
      .create({ model: "gone", messages: [{ role: "user", content: "gone-primary" }] })
      .withResponse();
    assert.equal(data.choices[0]?.message.content, "FROM_B");
    assert.equal(response.headers.get("x-patchbay-served-model"), `mock/${B}`);
    assert.equal(response.headers.get("x-patchbay-skipped"), "mock/not-offered; not offered by any connected provider");
    assert.deepEqual(upstreamModels("gone-primary"), [B]);
  });
});

describe("routes by request role", () => {
  test("Claude Code's subagent class goes to its route; main and unhinted requests keep their model", async () => {
    const key = await fx.createKey("routed", { models: ["mock/*"] });
    await fx.admin.updateApp({ params: { name: "routed" }, body: { routes: { subagent: `mock/${B}` } } });
    fx.mock.reset();
    fx.mock.setResponder(() => ({ text: "ok" }));
    const send = (headers: Record<string, string>, marker: string) =>
      fx.api("/v1/messages", {
        method: "POST",
        key,
        headers: { "content-type": "application/json", "anthropic-version": "2023-06-01", ...headers },
        body: JSON.stringify({ model: `mock/${A}`, max_tokens: 32, messages: [{ role: "user", content: marker }] }),
      });
    const sub = await send(
      { "x-claude-code-request-class": "subagent", "x-claude-code-agent-type": "general-purpose" },
      "route-sub",
    );
    assert.equal(sub.status, 200, await sub.clone().text());
    assert.equal(sub.headers.get("x-patchbay-served-model"), `mock/${B}`);
    assert.equal(((await sub.json()) as Json).model, `mock/${A}`, "the client's own model is echoed");
    assert.equal((await send({ "x-claude-code-request-class": "main" }, "route-main")).status, 200);
    assert.equal((await send({}, "route-none")).status, 200);
    assert.deepEqual(
      ["route-sub", "route-main", "route-none"].map((m) => upstreamModels(m)),
      [[B], [A], [A]],
    );
    const log = await fx.admin.queryLogs({ query: { app: "routed", limit: 3 } });
    const routed = log.entries.find((e) => e.role === "subagent");
    assert.equal(routed?.routedTo, `mock/${B}`);
    assert.equal(routed?.agentType, "general-purpose");
    assert.equal(routed?.modelResolved, `mock/${B}`);
    // A route to a model no connected provider offers is refused when set, naming the field.
    await assert.rejects(
      fx.admin.updateApp({ params: { name: "routed" }, body: { routes: { compaction: "mock/nonesuch" } } }),
      (e: unknown) => e instanceof AdminApiError && e.status === 400 && /no connected provider offers/.test(e.message),
    );
  });
});

describe("budgets", () => {
  test("N requests pass with their utilization, N+1 is refused natively on all three wires", async () => {
    const key = await fx.createKey("budgeted", { models: ["mock/*"] });
    await fx.admin.updateApp({
      params: { name: "budgeted" },
      body: { budgets: [{ metric: "requests", limit: 2, window: "5h" }] },
    });
    fx.mock.reset();
    fx.mock.setResponder(() => ({ text: "fine" }));
    const openai = fx.openai(key);
    const anthropic = new Anthropic({ apiKey: key, baseURL: root, maxRetries: 0, timeout: 120_000 });
    const t0 = Math.floor(Date.now() / 1000);

    const first = await openai.chat.completions
      .create({ model: `mock/${A}`, messages: [{ role: "user", content: "budget-1" }] })
      .withResponse();
    assert.equal(first.response.headers.get("x-ratelimit-limit-requests"), "2");
    assert.equal(first.response.headers.get("x-ratelimit-remaining-requests"), "1");
    assert.equal(first.response.headers.get("x-codex-primary-used-percent"), "50.0");
    assert.equal(first.response.headers.get("x-codex-primary-window-minutes"), "300");

    const second = await anthropic.messages
      .create({ model: `mock/${A}`, max_tokens: 32, messages: [{ role: "user", content: "budget-2" }] })
      .withResponse();
    const h = second.response.headers;
    assert.equal(h.get("anthropic-ratelimit-unified-status"), "allowed_warning");
    assert.equal(h.get("anthropic-ratelimit-unified-representative-claim"), "five_hour");
    assert.equal(h.get("anthropic-ratelimit-unified-5h-utilization"), "1.0000");
    const reset = Number(h.get("anthropic-ratelimit-unified-5h-reset"));
    assert.ok(reset >= t0 + FIVE_HOURS_S && reset <= t0 + FIVE_HOURS_S + 120, `5h reset ${reset}`);

    const checkRetry = (value: string | null) => {
      const s = Number(value);
      assert.ok(Number.isInteger(s) && s > FIVE_HOURS_S - 120 && s <= FIVE_HOURS_S, `retry-after ${value}`);
    };
    await assert.rejects(
      anthropic.messages.create({
        model: `mock/${A}`,
        max_tokens: 32,
        messages: [{ role: "user", content: "budget-3" }],
      }),
      (err: unknown) => {
        assert.ok(err instanceof Anthropic.RateLimitError);
        assert.equal((err.error as { error: Json }).error.type, "rate_limit_error");
        assert.match(String((err.error as { error: Json }).error.message), /budget of 2 requests per 5 hours/);
        checkRetry(err.headers?.get("retry-after") ?? null);
        assert.equal(err.headers?.get("anthropic-ratelimit-unified-status"), "rejected");
        assert.equal(err.headers?.get("anthropic-ratelimit-unified-reset"), String(reset));
        return true;
      },
    );
    for (const call of [
      () => openai.chat.completions.create({ model: `mock/${A}`, messages: [{ role: "user", content: "budget-3" }] }),
      () => openai.responses.create({ model: `mock/${A}`, input: "budget-3" }),
    ]) {
      await assert.rejects(call(), (err: unknown) => {
        assert.ok(err instanceof OpenAI.RateLimitError);
        assert.equal(err.code, "budget_exhausted");
        assert.equal(err.type, "usage_limit_reached");
        assert.equal((err.error as Json).resets_at, reset);
        checkRetry(err.headers?.get("retry-after") ?? null);
        assert.equal(err.headers?.get("x-ratelimit-remaining-requests"), "0");
        return true;
      });
    }
    assert.deepEqual(
      ["budget-1", "budget-2", "budget-3"].map((m) => upstreamModels(m).length),
      [1, 1, 0],
      "refused requests never reached the upstream",
    );
    const log = await fx.admin.queryLogs({ query: { app: "budgeted", limit: 5 } });
    assert.equal(log.entries.filter((e) => e.errorCode === "budget_exhausted").length, 3);
  });
});

describe("a request OpenCode cannot carry", () => {
  test("is a 400 naming the field, before the budget counts it or a response is stored", async () => {
    const key = await fx.createKey("uncarried", { models: ["mock/*"] });
    await fx.admin.updateApp({
      params: { name: "uncarried" },
      body: { budgets: [{ metric: "requests", limit: 5, window: "5h" }] },
    });
    fx.mock.reset();
    fx.mock.setResponder(() => ({ text: "fine" }));
    const openai = fx.openai(key);
    const storedFiles = () =>
      (fs.readdirSync(path.join(fx.dataDir, "responses"), { recursive: true }) as string[]).filter(
        (f) => f.startsWith("uncarried") && f.endsWith(".json"),
      );
    const param = (want: RegExp, message: RegExp) => (err: unknown) => {
      assert.ok(err instanceof OpenAI.BadRequestError, String(err));
      assert.match(String(err.param), want);
      assert.match(err.message, message);
      return true;
    };
    const tool = (name: string) => ({ type: "function" as const, name, parameters: { type: "object" }, strict: false });
    // `edit` reaches OpenCode as `client_edit`: the two cannot be told apart there.
    await assert.rejects(
      openai.responses.create({ model: `mock/${A}`, input: "uncarried-1", tools: [tool("edit"), tool("client_edit")] }),
      param(/^tools$/, /'edit' and 'client_edit' cannot be used together/),
    );
    const deep = '{"a":'.repeat(300) + "1" + "}".repeat(300);
    await assert.rejects(
      openai.responses.create({
        model: `mock/${A}`,
        input: [
          { role: "user", content: "uncarried-2" },
          { type: "function_call", call_id: "c1", name: "lookup", arguments: deep },
          { type: "function_call_output", call_id: "c1", output: "ok" },
        ],
        tools: [tool("lookup")],
      }),
      param(/^input\[1\]\.arguments$/, /Too deeply nested/),
    );
    await assert.rejects(
      openai.responses.create({
        model: `mock/${A}`,
        input: [
          { role: "user", content: "uncarried-3" },
          { type: "function_call", call_id: "c1", name: "lookup", arguments: "{}" },
          { type: "function_call", call_id: "c1", name: "lookup", arguments: "{}" },
        ],
        tools: [tool("lookup")],
      }),
      param(/^input\[2\]\.call_id$/, /call ids must be unique/),
    );
    assert.deepEqual(storedFiles(), [], "no failed response was stored");
    const ok = await openai.responses.create({ model: `mock/${A}`, input: "uncarried-4" }).withResponse();
    assert.equal(ok.response.headers.get("x-ratelimit-remaining-requests"), "4", "only the answered request counted");
    assert.equal(storedFiles().length, 1);
    assert.equal(fx.mock.chatRequests().filter((r) => r.rawBody.includes("uncarried")).length, 1);
  });
});

describe("an app created again under a deleted app's name (issue 21)", () => {
  test("starts with an empty request log, no usage and its budget at zero; the old entries stay the old app's", async () => {
    const budgets = [{ metric: "requests" as const, limit: 1, window: "5h" as const }];
    const since = Date.now() - 1000;
    fx.mock.reset();
    fx.mock.setResponder(() => ({ text: "fine" }));
    const oldKey = await fx.createKey("reborn", { models: ["mock/*"] });
    const old = await fx.admin.updateApp({ params: { name: "reborn" }, body: { budgets } });
    await fx.openai(oldKey).chat.completions.create({
      model: `mock/${A}`,
      messages: [{ role: "user", content: "reborn-old" }],
    });
    const rebornEntries = async () => (await fx.admin.queryLogs({ query: { app: "reborn", since } })).entries;
    await waitFor("the old app's log entry", async () => (await rebornEntries()).length === 1);
    const before = await fx.admin.getUsage({ params: { name: "reborn" }, query: { days: 1 } });
    assert.equal(before.days[0]?.requests, 1);
    assert.equal(before.budgets[0]?.used, 1, "the old app spent its budget");

    await fx.admin.deleteApp({ params: { name: "reborn" } });
    const newKey = await fx.createKey("reborn", { models: ["mock/*"] });
    const reborn = await fx.admin.updateApp({ params: { name: "reborn" }, body: { budgets } });
    assert.notEqual(reborn.id, old.id);
    assert.deepEqual(await rebornEntries(), [], "the new app's log is empty");
    const fresh = await fx.admin.getUsage({ params: { name: "reborn" }, query: { days: 1 } });
    assert.deepEqual(
      fresh.days.map((d) => [d.requests, d.errors, d.inputTokens, d.outputTokens]),
      [[0, 0, 0, 0]],
      "no usage",
    );
    assert.equal(fresh.budgets[0]?.used, 0, "its budget starts at zero");
    const answer = await fx
      .openai(newKey)
      .chat.completions.create({ model: `mock/${A}`, messages: [{ role: "user", content: "reborn-new" }] })
      .withResponse();
    assert.equal(answer.response.headers.get("x-ratelimit-remaining-requests"), "0", "its own first request counted");

    await waitFor("the new app's log entry", async () => (await rebornEntries()).length === 1);
    const [mine] = await rebornEntries();
    assert.equal(mine?.appId, reborn.id);
    const all = (await fx.admin.queryLogs({ query: { since, limit: 500 } })).entries.filter((e) => e.app === "reborn");
    assert.deepEqual(
      all.map((e) => e.appId),
      [reborn.id, old.id],
      "the deleted app's entry is kept in the all-apps view, under its own id",
    );
  });
});
