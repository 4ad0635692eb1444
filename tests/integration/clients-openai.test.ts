// The official `openai` npm client against Patchbay (issues 3 and 4): chat (plain, stream, tool round trip, structured
// output) and Responses (`client.responses.create`, streaming and not, tool round trip). Asserts what the client got
// AND what the mock upstream saw.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type OpenAI from "openai";
import { zodResponseFormat, zodTextFormat } from "openai/helpers/zod";
import { z } from "zod";
import type { PatchbayFixture } from "../harness/patchbay-fixture";
import { releaseSharedPatchbay, useSharedPatchbay } from "../harness/shared-patchbay";

type Json = Record<string, unknown>;

let fx: PatchbayFixture;
let client: OpenAI;
const MODEL = "mock/mock-model";

before(async () => {
  fx = await useSharedPatchbay();
  client = fx.openai(await fx.createKey("openai-client"));
});
after(async () => {
  await releaseSharedPatchbay(fx);
});

const bodies = () => fx.mock.chatRequests().map((r) => r.body);
const weatherTool = {
  type: "function" as const,
  function: {
    name: "get_weather",
    description: "Current weather for a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};
/** The client-side implementation of the tool (the model only asks for it). */
const runWeather = (args: { city: string }) =>
  JSON.stringify({ city: args.city, tempC: args.city === "Paris" ? 21 : 9 });

describe("openai client: chat completions", () => {
  test("plain", async () => {
    fx.mock.reset();
    fx.mock.script({ text: "Hello, human.", usage: { prompt_tokens: 8, completion_tokens: 3 } });
    const r = await client.chat.completions.create({
      model: MODEL,
      messages: [
        { role: "system", content: "Be kind." },
        { role: "user", content: "Hi" },
      ],
    });
    assert.equal(r.object, "chat.completion");
    assert.equal(r.model, MODEL);
    assert.equal(r.choices[0]?.message.content, "Hello, human.");
    assert.equal(r.choices[0]?.finish_reason, "stop");
    assert.deepEqual(r.usage && [r.usage.prompt_tokens, r.usage.completion_tokens, r.usage.total_tokens], [8, 3, 11]);
    assert.deepEqual(bodies()[0]?.messages, [
      { role: "system", content: "Be kind." },
      { role: "user", content: "Hi" },
    ]);
  });

  test("stream (with include_usage, and the SDK's finalChatCompletion)", async () => {
    fx.mock.reset();
    fx.mock.script({ text: "one two three", chunks: 3, usage: { prompt_tokens: 5, completion_tokens: 3 } });
    const stream = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: "Count" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    let usage: OpenAI.CompletionUsage | null | undefined;
    let chunks = 0;
    for await (const c of stream) {
      chunks++;
      text += c.choices[0]?.delta.content ?? "";
      if (c.usage) usage = c.usage;
    }
    assert.equal(text, "one two three");
    assert.ok(chunks >= 4, `${chunks} chunks`);
    assert.equal(usage?.total_tokens, 8);
    fx.mock.reset();
    fx.mock.script({ text: "streamed via helper", chunks: 2 });
    const helper = client.chat.completions.stream({ model: MODEL, messages: [{ role: "user", content: "Again" }] });
    const final = await helper.finalChatCompletion();
    assert.equal(final.choices[0]?.message.content, "streamed via helper");
    assert.equal(bodies().length, 1);
  });

  test("tool round trip: the model asks, the client runs the tool, the second request carries the result", async () => {
    fx.mock.reset();
    fx.mock.script(
      { toolCalls: [{ id: "call_paris", name: "get_weather", arguments: { city: "Paris" } }] },
      { text: "It is 21°C in Paris." },
    );
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: "Weather in Paris?" }];
    const first = await client.chat.completions.create({ model: MODEL, messages, tools: [weatherTool] });
    const call = first.choices[0]?.message.tool_calls?.[0];
    assert.equal(first.choices[0]?.finish_reason, "tool_calls");
    assert.ok(call && call.type === "function");
    assert.equal(call.function.name, "get_weather");
    messages.push(first.choices[0]!.message);
    messages.push({
      role: "tool",
      tool_call_id: call.id,
      content: runWeather(JSON.parse(call.function.arguments) as { city: string }),
    });
    const second = await client.chat.completions.create({ model: MODEL, messages, tools: [weatherTool] });
    assert.equal(second.choices[0]?.message.content, "It is 21°C in Paris.");
    const [b1, b2, ...more] = bodies();
    assert.equal(more.length, 0, "exactly two upstream calls");
    assert.deepEqual(b1?.messages, [{ role: "user", content: "Weather in Paris?" }]);
    assert.deepEqual((b2?.messages as Json[]).slice(1), [
      {
        role: "assistant",
        content: "",
        tool_calls: [
          { id: "call_paris", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_paris", content: '{"city":"Paris","tempC":21}' },
    ]);
  });

  test("structured output via response_format (zodResponseFormat + chat.completions.parse)", async () => {
    const Person = z.object({ name: z.string(), age: z.number().int() });
    fx.mock.reset();
    fx.mock.script({ text: '{"name":"Alice","age":30}' });
    const r = await client.chat.completions.parse({
      model: MODEL,
      messages: [{ role: "user", content: "Alice, 30" }],
      response_format: zodResponseFormat(Person, "person"),
    });
    assert.deepEqual(r.choices[0]?.message.parsed, { name: "Alice", age: 30 });
    const rf = bodies()[0]?.response_format as {
      type: string;
      json_schema: { name: string; strict: boolean; schema: Json };
    };
    assert.equal(rf.type, "json_schema");
    assert.equal(rf.json_schema.name, "person");
    assert.equal(rf.json_schema.strict, true);
    assert.deepEqual(Object.keys(rf.json_schema.schema.properties as Json).sort(), ["age", "name"]);
  });
});

describe("openai client: responses", () => {
  const tools: OpenAI.Responses.Tool[] = [
    {
      type: "function",
      name: "get_weather",
      description: "Current weather for a city",
      strict: false,
      parameters: weatherTool.function.parameters,
    },
  ];

  test("responses.create, not streamed", async () => {
    fx.mock.reset();
    fx.mock.script({
      text: "Hello from Responses.",
      usage: { prompt_tokens: 12, completion_tokens: 4, cached_tokens: 2 },
    });
    const r = await client.responses.create({ model: MODEL, instructions: "Be terse.", input: "Hello", store: false });
    assert.equal(r.object, "response");
    assert.equal(r.status, "completed");
    assert.equal(r.output_text, "Hello from Responses.");
    assert.equal(r.usage?.input_tokens, 12);
    assert.equal(r.usage?.input_tokens_details.cached_tokens, 2);
    assert.deepEqual(bodies()[0]?.messages, [
      { role: "system", content: "Be terse." },
      { role: "user", content: "Hello" },
    ]);
  });

  test("responses.inputTokens.count: an estimate, no model call", async () => {
    fx.mock.reset();
    const small = await client.responses.inputTokens.count({ model: MODEL, input: "Hello" });
    assert.equal(small.object, "response.input_tokens");
    const big = await client.responses.inputTokens.count({
      model: MODEL,
      instructions: "Be terse.",
      input: "Hello there. ".repeat(200),
      tools,
    });
    assert.ok(
      small.input_tokens > 0 && big.input_tokens > small.input_tokens + 300,
      `${small.input_tokens} → ${big.input_tokens}`,
    );
    assert.equal(fx.mock.chatRequests().length, 0, "counting calls no model");
  });

  test("responses.create, streamed (events and the SDK's finalResponse)", async () => {
    fx.mock.reset();
    fx.mock.script({ text: "Streaming works fine.", chunks: 4 });
    const stream = await client.responses.create({ model: MODEL, input: "Stream please", stream: true });
    const types: string[] = [];
    let text = "";
    let lastSeq = -1;
    for await (const e of stream) {
      types.push(e.type);
      assert.equal(e.sequence_number, lastSeq + 1, "contiguous sequence numbers");
      lastSeq = e.sequence_number;
      if (e.type === "response.output_text.delta") text += e.delta;
    }
    assert.equal(text, "Streaming works fine.");
    assert.equal(types[0], "response.created");
    assert.equal(types.at(-1), "response.completed");
    fx.mock.reset();
    fx.mock.script({ text: "Via the helper.", chunks: 2 });
    const final = await client.responses.stream({ model: MODEL, input: "Again" }).finalResponse();
    assert.equal(final.output_text, "Via the helper.");
  });

  test("responses tool round trip (function_call → function_call_output → answer)", async () => {
    fx.mock.reset();
    fx.mock.script(
      { toolCalls: [{ id: "call_oslo", name: "get_weather", arguments: { city: "Oslo" } }] },
      { text: "9°C in Oslo." },
    );
    const input: OpenAI.Responses.ResponseInput = [{ role: "user", content: "Weather in Oslo?" }];
    const first = await client.responses.create({ model: MODEL, input, tools, store: false });
    const calls = first.output.filter(
      (i): i is OpenAI.Responses.ResponseFunctionToolCall => i.type === "function_call",
    );
    assert.equal(calls.length, 1);
    assert.equal(calls[0]!.call_id, "call_oslo");
    assert.equal(calls[0]!.name, "get_weather");
    input.push(...calls);
    input.push({
      type: "function_call_output",
      call_id: calls[0]!.call_id,
      output: runWeather(JSON.parse(calls[0]!.arguments) as { city: string }),
    });
    const second = await client.responses.create({ model: MODEL, input, tools, store: false });
    assert.equal(second.output_text, "9°C in Oslo.");
    const b2 = bodies()[1]!;
    assert.deepEqual((b2.messages as Json[]).slice(1), [
      {
        role: "assistant",
        content: "",
        tool_calls: [
          { id: "call_oslo", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_oslo", content: '{"city":"Oslo","tempC":9}' },
    ]);
  });

  test("structured output via text.format (zodTextFormat + responses.parse)", async () => {
    const City = z.object({ city: z.string(), country: z.string() });
    fx.mock.reset();
    fx.mock.script({ text: '{"city":"Lyon","country":"France"}' });
    const r = await client.responses.parse({
      model: MODEL,
      input: "A French city",
      text: { format: zodTextFormat(City, "city") },
    });
    assert.deepEqual(r.output_parsed, { city: "Lyon", country: "France" });
    assert.equal((bodies()[0]?.response_format as Json).type, "json_schema");
  });

  test("errors surface as the SDK's typed errors (status, param)", async () => {
    await assert.rejects(
      client.responses.create({ model: MODEL, input: "hi", previous_response_id: "resp_1" }),
      (err: unknown) => {
        const e = err as { status?: number; param?: string; code?: string };
        assert.equal(e.status, 400);
        assert.equal(e.param, "previous_response_id");
        return true;
      },
    );
    await assert.rejects(
      client.chat.completions.create({ model: "mock/nope", messages: [{ role: "user", content: "x" }] }),
      (err: unknown) => {
        assert.equal((err as { status?: number }).status, 404);
        return true;
      },
    );
  });
});
