// The official `@anthropic-ai/sdk` client against Patchbay's Messages API: create, stream (parsed by the SDK's own
// MessageStream), a tool round trip, an image, count_tokens, Anthropic-shaped models, and every error class.
// Asserts what the client got AND what the mock upstream saw.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import Anthropic from "@anthropic-ai/sdk";
import type { PatchbayFixture } from "../harness/patchbay-fixture";
import { releaseSharedPatchbay, useSharedPatchbay } from "../harness/shared-patchbay";

type Json = Record<string, unknown>;

let fx: PatchbayFixture;
let client: Anthropic;
let key: string;
let root: string;
const MODEL = "mock/mock-model";
const RED_PNG = fs.readFileSync(new URL("../fixtures/red16.b64", import.meta.url), "utf8").trim();

before(async () => {
  fx = await useSharedPatchbay();
  key = await fx.createKey("anthropic-client");
  root = fx.apiBase.replace(/\/v1$/, "");
  client = new Anthropic({ apiKey: key, baseURL: root, maxRetries: 0, timeout: 120_000 });
});
after(async () => {
  await releaseSharedPatchbay(fx);
});

const bodies = () => fx.mock.chatRequests().map((r) => r.body);
const weatherTool: Anthropic.Tool = {
  name: "get_weather",
  description: "Current weather for a city",
  input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};

describe("anthropic sdk: messages", () => {
  test("create: text, system, usage without cache reads, model echoed", async () => {
    fx.mock.reset();
    fx.mock.script({ text: "Hello, human.", usage: { prompt_tokens: 20, completion_tokens: 3, cached_tokens: 5 } });
    const r = await client.messages.create({
      model: MODEL,
      max_tokens: 100,
      system: [{ type: "text", text: "Be kind.", cache_control: { type: "ephemeral" } }],
      messages: [{ role: "user", content: "Hi" }],
      metadata: { user_id: "u1" },
    });
    assert.equal(r.type, "message");
    assert.match(r.id, /^msg_/);
    assert.equal(r.model, MODEL);
    assert.deepEqual(r.content, [{ type: "text", text: "Hello, human." }]);
    assert.equal(r.stop_reason, "end_turn");
    assert.equal(r.usage.input_tokens, 15);
    assert.equal(r.usage.cache_read_input_tokens, 5);
    assert.equal(r.usage.output_tokens, 3);
    assert.deepEqual(bodies()[0]?.messages, [
      { role: "system", content: "Be kind." },
      { role: "user", content: "Hi" },
    ]);
    assert.equal(bodies()[0]?.max_tokens, 100);
  });

  test("stream: the SDK's MessageStream assembles the same message", async () => {
    fx.mock.reset();
    fx.mock.script({ text: "one two three", chunks: 3, usage: { prompt_tokens: 5, completion_tokens: 3 } });
    const stream = client.messages.stream({
      model: MODEL,
      max_tokens: 50,
      messages: [{ role: "user", content: "Count" }],
    });
    let deltas = "";
    stream.on("text", (t) => (deltas += t));
    const final = await stream.finalMessage();
    assert.equal(deltas, "one two three");
    assert.deepEqual(final.content, [{ type: "text", text: "one two three" }]);
    assert.equal(final.stop_reason, "end_turn");
    assert.equal(final.usage.output_tokens, 3);
    assert.equal(final.usage.input_tokens, 5);
  });

  test("stream: raw events follow the Anthropic event order", async () => {
    fx.mock.reset();
    fx.mock.script({
      reasoning: "think",
      text: "ok",
      toolCalls: [{ name: "get_weather", arguments: { city: "Oslo" } }],
    });
    const res = await fetch(`${root}/v1/messages?beta=true`, {
      method: "POST",
      headers: { "x-api-key": key, "anthropic-version": "2023-06-01", "content-type": "application/json" },
      body: JSON.stringify({
        model: "mock/mock-reasoner",
        max_tokens: 50,
        stream: true,
        tools: [weatherTool],
        messages: [{ role: "user", content: "weather?" }],
      }),
    });
    assert.equal(res.status, 200);
    const text = await res.text();
    const events = [...text.matchAll(/^event: (\S+)$/gm)].map((m) => m[1]);
    assert.deepEqual(events, [
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    assert.match(text, /"type":"thinking_delta","thinking":"think"/);
    assert.match(text, /"partial_json":"\{\\"city\\":\\"Oslo\\"\}"/);
    assert.match(text, /"stop_reason":"tool_use"/);
  });

  test("tool round trip: tool_use out, tool_result back to the upstream as a tool message", async () => {
    fx.mock.reset();
    fx.mock.script(
      { toolCalls: [{ id: "call_w1", name: "get_weather", arguments: { city: "Paris" } }] },
      { text: "It is 21 degrees in Paris." },
    );
    const first = await client.messages.create({
      model: MODEL,
      max_tokens: 100,
      tools: [weatherTool],
      tool_choice: { type: "auto", disable_parallel_tool_use: true },
      messages: [{ role: "user", content: "Weather in Paris?" }],
    });
    assert.equal(first.stop_reason, "tool_use");
    const use = first.content.find((b): b is Anthropic.ToolUseBlock => b.type === "tool_use");
    assert.ok(use, JSON.stringify(first.content));
    assert.equal(use.name, "get_weather");
    assert.deepEqual(use.input, { city: "Paris" });
    const upstreamTools = bodies()[0]?.tools as Json[];
    assert.deepEqual(
      upstreamTools.map((t) => (t.function as Json).name),
      ["get_weather"],
    );
    assert.deepEqual((upstreamTools[0]?.function as Json).parameters, weatherTool.input_schema);

    const second = await client.messages.create({
      model: MODEL,
      max_tokens: 100,
      tools: [weatherTool],
      messages: [
        { role: "user", content: "Weather in Paris?" },
        { role: "assistant", content: first.content },
        {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: use.id, content: [{ type: "text", text: '{"tempC":21}' }] }],
        },
      ],
    });
    assert.deepEqual(second.content, [{ type: "text", text: "It is 21 degrees in Paris." }]);
    const msgs = bodies()[1]?.messages as Json[];
    const assistant = msgs.find((m) => m.role === "assistant");
    assert.deepEqual(
      (assistant?.tool_calls as Json[]).map((c) => [c.id, (c.function as Json).name, (c.function as Json).arguments]),
      [[use.id, "get_weather", '{"city":"Paris"}']],
    );
    const tool = msgs.find((m) => m.role === "tool");
    assert.equal(tool?.tool_call_id, use.id);
    assert.equal(tool?.content, '{"tempC":21}');
  });

  test("an image (base64) reaches the upstream as a data URL", async () => {
    fx.mock.reset();
    fx.mock.script({ text: "red" });
    const r = await client.messages.create({
      model: "mock/mock-vision",
      max_tokens: 20,
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Colour?" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: RED_PNG } },
          ],
        },
      ],
    });
    assert.deepEqual(r.content, [{ type: "text", text: "red" }]);
    const user = (bodies()[0]?.messages as Json[]).find((m) => m.role === "user");
    const parts = user?.content as Json[];
    assert.equal(parts[0]?.text, "Colour?");
    assert.equal((parts[1]?.image_url as Json).url, `data:image/png;base64,${RED_PNG}`);
  });

  test("count_tokens: an estimate that grows with the input", async () => {
    const small = await client.messages.countTokens({ model: MODEL, messages: [{ role: "user", content: "Hi" }] });
    const big = await client.messages.countTokens({
      model: MODEL,
      system: "You are a helpful assistant.",
      tools: [weatherTool],
      messages: [{ role: "user", content: "Hello there, how are you doing today? ".repeat(20) }],
    });
    assert.ok(small.input_tokens > 0 && small.input_tokens < 20, `small ${small.input_tokens}`);
    assert.ok(big.input_tokens > small.input_tokens + 150, `big ${big.input_tokens}`);
  });

  test("models: Anthropic shape for Anthropic clients, OpenAI shape otherwise", async () => {
    const page = await client.models.list();
    const ids = page.data.map((m) => m.id);
    assert.ok(ids.includes(MODEL), ids.join(","));
    assert.equal(page.data[0]?.type, "model");
    assert.equal(typeof page.data[0]?.display_name, "string");
    const one = await client.models.retrieve(MODEL);
    assert.equal(one.id, MODEL);
    const openai = (await (await fx.api("/v1/models", { key })).json()) as Json;
    assert.equal(openai.object, "list");
    const head = await fetch(`${root}/`, { method: "HEAD" });
    assert.equal(head.status, 200);
  });

  test("Authorization: Bearer works as well as x-api-key", async () => {
    fx.mock.reset();
    fx.mock.script({ text: "bearer ok" });
    const bearer = new Anthropic({ authToken: key, apiKey: null, baseURL: root, maxRetries: 0 });
    const r = await bearer.messages.create({
      model: MODEL,
      max_tokens: 10,
      messages: [{ role: "user", content: "x" }],
    });
    assert.deepEqual(r.content, [{ type: "text", text: "bearer ok" }]);
  });
});

describe("anthropic sdk: errors", () => {
  const ask = (c: Anthropic, model = MODEL) =>
    c.messages.create({ model, max_tokens: 10, messages: [{ role: "user", content: "x" }] });

  async function expectError(p: Promise<unknown>, cls: new (...a: never[]) => Error, status: number, type: string) {
    const err = await p.then(
      () => assert.fail("expected an error"),
      (e: unknown) => e,
    );
    assert.ok(err instanceof cls, `expected ${cls.name}, got ${String(err)}`);
    const api = err as InstanceType<typeof Anthropic.APIError>;
    assert.equal(api.status, status);
    assert.equal((api.error as Json).type, "error");
    assert.equal(((api.error as Json).error as Json).type, type);
    assert.ok(String(((api.error as Json).error as Json).message).length > 0);
    return api;
  }

  test("401 bad key", async () => {
    const bad = new Anthropic({ apiKey: "pb-nope", baseURL: root, maxRetries: 0 });
    await expectError(ask(bad), Anthropic.AuthenticationError, 401, "authentication_error");
  });

  test("403 model not allowed for this app", async () => {
    const limited = await fx.createKey("anthropic-limited", { models: [MODEL] });
    const c = new Anthropic({ apiKey: limited, baseURL: root, maxRetries: 0 });
    await expectError(ask(c, "mock/mock-reasoner"), Anthropic.PermissionDeniedError, 403, "permission_error");
  });

  test("404 unknown model", async () => {
    const e = await expectError(ask(client, "mock/nope"), Anthropic.NotFoundError, 404, "not_found_error");
    assert.match(e.message, /mock\/nope/);
  });

  test("400 bad body names the field", async () => {
    const e = await expectError(
      client.messages.create({ model: MODEL, messages: [{ role: "user", content: "x" }] } as never),
      Anthropic.BadRequestError,
      400,
      "invalid_request_error",
    );
    assert.match(e.message, /max_tokens/);
  });

  test("429 from the upstream with retry-after", async () => {
    fx.mock.reset();
    fx.mock.script({ error: { status: 429, message: "slow down", headers: { "retry-after": "7" } } });
    const e = await expectError(ask(client), Anthropic.RateLimitError, 429, "rate_limit_error");
    const retry = Number(e.headers?.get("retry-after"));
    assert.ok(retry >= 5 && retry <= 8, `retry-after ${retry}`);
  });

  test("5xx from the upstream", async () => {
    fx.mock.reset();
    fx.mock.setResponder(() => ({ error: { status: 500, message: "boom" } }));
    const e = await expectError(ask(client), Anthropic.InternalServerError, 502, "api_error");
    assert.match(e.message, /boom|upstream|model/i);
    fx.mock.reset();
  });
});
