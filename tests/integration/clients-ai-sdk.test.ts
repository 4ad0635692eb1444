// The Vercel AI SDK (`ai` v6) against Patchbay: `@ai-sdk/openai-compatible` on chat completions (generateText with a
// client-side tool round trip, streamText, generateObject) and the `@ai-sdk/openai` default provider on the Responses
// API (generateText, streamText with a tool, generateObject, with store: false; and once with the default store: true). Asserts what the SDK got AND what the
// mock upstream saw.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { generateObject, generateText, stepCountIs, streamText, tool } from "ai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { createOpenAI } from "@ai-sdk/openai";
import { z } from "zod";
import type { PatchbayFixture } from "../harness/patchbay-fixture";
import { releaseSharedPatchbay, useSharedPatchbay } from "../harness/shared-patchbay";

type Json = Record<string, unknown>;

let fx: PatchbayFixture;
let key: string;
const MODEL = "mock/mock-model";
const NO_STORE = { openai: { store: false } };

before(async () => {
  // The SDK logs its own warnings (e.g. json_object without structuredOutputs) to the console; the tests assert them.
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
  fx = await useSharedPatchbay();
  key = await fx.createKey("ai-sdk");
});
after(async () => {
  await releaseSharedPatchbay(fx);
});

const bodies = () => fx.mock.chatRequests().map((r) => r.body);

/** A client-side tool: the SDK runs `execute` itself; Patchbay must only return the call. Records its calls. */
function weatherTool(calls: string[]) {
  return tool({
    description: "Current weather for a city",
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => {
      calls.push(city);
      return { city, tempC: 17 };
    },
  });
}

const Person = z.object({ name: z.string(), age: z.number().int() });

describe("@ai-sdk/openai-compatible (chat completions)", () => {
  const provider = () => createOpenAICompatible({ baseURL: fx.apiBase, apiKey: key, name: "patchbay" });

  test("generateText with a tool: call → the SDK runs it → the second request carries the result → answer", async () => {
    fx.mock.reset();
    fx.mock.script(
      { toolCalls: [{ id: "call_bern", name: "get_weather", arguments: { city: "Bern" } }] },
      { text: "Bern: 17°C." },
    );
    const ran: string[] = [];
    const r = await generateText({
      model: provider()(MODEL),
      system: "You are WeatherBot.",
      prompt: "Weather in Bern?",
      tools: { get_weather: weatherTool(ran) },
      stopWhen: stepCountIs(3),
    });
    assert.equal(r.text, "Bern: 17°C.");
    assert.deepEqual(ran, ["Bern"], "the SDK ran the tool once, client-side");
    assert.equal(r.steps.length, 2);
    assert.equal(r.steps[0]!.finishReason, "tool-calls");
    const [b1, b2, ...more] = bodies();
    assert.equal(more.length, 0, "two upstream calls, one per step");
    assert.deepEqual(b1?.messages, [
      { role: "system", content: "You are WeatherBot." },
      { role: "user", content: "Weather in Bern?" },
    ]);
    assert.deepEqual(((b1?.tools as Json[])[0]!.function as Json).name, "get_weather");
    assert.deepEqual((b2?.messages as Json[]).slice(2), [
      {
        role: "assistant",
        content: "",
        tool_calls: [
          { id: "call_bern", type: "function", function: { name: "get_weather", arguments: '{"city":"Bern"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_bern", content: '{"city":"Bern","tempC":17}' },
    ]);
  });

  test("streamText", async () => {
    fx.mock.reset();
    fx.mock.script({ text: "Rivers run to the sea.", chunks: 4, usage: { prompt_tokens: 6, completion_tokens: 5 } });
    // includeUsage: the provider asks for usage only when told to (stream_options.include_usage).
    const withUsage = createOpenAICompatible({
      baseURL: fx.apiBase,
      apiKey: key,
      name: "patchbay",
      includeUsage: true,
    });
    const r = streamText({ model: withUsage(MODEL), prompt: "One line about rivers." });
    const parts: string[] = [];
    for await (const p of r.textStream) parts.push(p);
    assert.equal(parts.join(""), "Rivers run to the sea.");
    assert.ok(parts.length >= 2, "streamed in several parts");
    assert.equal(await r.finishReason, "stop");
    assert.equal((await r.usage).inputTokens, 6);
    assert.equal((await r.usage).outputTokens, 5);
    assert.equal(bodies().length, 1);
  });

  test("generateObject with a zod schema (json_object by default; json_schema with supportsStructuredOutputs)", async () => {
    fx.mock.reset();
    fx.mock.script({ text: '{"name":"Alice","age":30}' });
    const plain = await generateObject({ model: provider()(MODEL), schema: Person, prompt: "Alice, 30" });
    assert.deepEqual(plain.object, { name: "Alice", age: 30 });
    assert.deepEqual(bodies()[0]?.response_format, { type: "json_object" });

    fx.mock.reset();
    fx.mock.script({ text: '{"name":"Bob","age":41}' });
    const strict = createOpenAICompatible({
      baseURL: fx.apiBase,
      apiKey: key,
      name: "patchbay",
      supportsStructuredOutputs: true,
    });
    const r = await generateObject({ model: strict(MODEL), schema: Person, schemaName: "person", prompt: "Bob, 41" });
    assert.deepEqual(r.object, { name: "Bob", age: 41 });
    const rf = bodies()[0]?.response_format as {
      type: string;
      json_schema: { name: string; strict: boolean; schema: Json };
    };
    assert.equal(rf.type, "json_schema");
    assert.equal(rf.json_schema.name, "person");
    assert.deepEqual(Object.keys(rf.json_schema.schema.properties as Json).sort(), ["age", "name"]);
  });
});

describe("@ai-sdk/openai default provider (Responses API)", () => {
  const openai = () => createOpenAI({ baseURL: fx.apiBase, apiKey: key });

  test("generateText", async () => {
    fx.mock.reset();
    fx.mock.script({ text: "Hello from the Responses API.", usage: { prompt_tokens: 9, completion_tokens: 6 } });
    const r = await generateText({
      model: openai()(MODEL),
      system: "Be brief.",
      prompt: "Say hello.",
      providerOptions: NO_STORE,
    });
    assert.equal(r.text, "Hello from the Responses API.");
    assert.equal(r.finishReason, "stop");
    assert.equal(r.usage.inputTokens, 9);
    assert.deepEqual(bodies()[0]?.messages, [
      { role: "system", content: "Be brief." },
      { role: "user", content: "Say hello." },
    ]);
  });

  test("streamText with a tool (round trip over two steps)", async () => {
    fx.mock.reset();
    fx.mock.script(
      { toolCalls: [{ id: "call_lima", name: "get_weather", arguments: { city: "Lima" } }] },
      { text: "Lima is 17°C.", chunks: 3 },
    );
    const ran: string[] = [];
    const r = streamText({
      model: openai()(MODEL),
      prompt: "Weather in Lima?",
      tools: { get_weather: weatherTool(ran) },
      stopWhen: stepCountIs(3),
      providerOptions: NO_STORE,
    });
    let text = "";
    for await (const p of r.textStream) text += p;
    assert.equal(text, "Lima is 17°C.");
    assert.deepEqual(ran, ["Lima"]);
    assert.equal((await r.steps).length, 2);
    const [b1, b2, ...more] = bodies();
    assert.equal(more.length, 0);
    assert.equal(((b1?.tools as Json[])[0]!.function as Json).name, "get_weather");
    assert.deepEqual((b2?.messages as Json[]).slice(1), [
      {
        role: "assistant",
        content: "",
        tool_calls: [
          { id: "call_lima", type: "function", function: { name: "get_weather", arguments: '{"city":"Lima"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_lima", content: '{"city":"Lima","tempC":17}' },
    ]);
  });

  test("generateObject", async () => {
    fx.mock.reset();
    fx.mock.script({ text: '{"name":"Carol","age":52}' });
    const r = await generateObject({
      model: openai()(MODEL),
      schema: Person,
      schemaName: "person",
      prompt: "Carol, 52",
      providerOptions: NO_STORE,
    });
    assert.deepEqual(r.object, { name: "Carol", age: 52 });
    const rf = bodies()[0]?.response_format as { type: string; json_schema: { name: string; schema: Json } };
    assert.equal(rf.type, "json_schema");
    assert.equal(rf.json_schema.name, "person");
  });

  test("without store: false the second step refers to stored items, which Patchbay resolves", async () => {
    fx.mock.reset();
    // The first step's text comes back with an item id, which the SDK (store defaults to true) then sends as an
    // item_reference; Patchbay stored the response, so the reference expands to the text. Details and the comparison
    // with store: false: tests/integration/responses-stored.test.ts.
    fx.mock.script(
      { text: "Let me check.", toolCalls: [{ id: "call_x", name: "get_weather", arguments: { city: "Quito" } }] },
      { text: "Quito: 14°C." },
    );
    const r = await generateText({
      model: openai()(MODEL),
      prompt: "Weather in Quito?",
      tools: { get_weather: weatherTool([]) },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    });
    assert.equal(r.text, "Quito: 14°C.");
    const [, b2, ...more] = bodies();
    assert.equal(more.length, 0);
    assert.equal(
      ((b2?.messages as Json[])[1] as Json).content,
      "Let me check.",
      "the referenced text reached the upstream",
    );
  });
});
