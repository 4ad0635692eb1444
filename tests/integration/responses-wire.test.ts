// The Responses API end to end (issue 4): the same conversation as chat completions and as Responses input gives the
// SAME upstream body; every refused field is a 400 naming it; streams number their events without gaps; a failure
// before any output is a real HTTP error even when streaming; function calls and structured output come back right.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { PatchbayFixture } from "../harness/patchbay-fixture";
import { releaseSharedPatchbay, useSharedPatchbay } from "../harness/shared-patchbay";
import type { MockReply } from "../harness/mock-upstream";
import { red16Base64 } from "../compat/cases";
import { exchange, type Exchange } from "../compat/exchange";
import { expectEnvelope, expectStatus, upstreamBody } from "../compat/expect";
import { diffFields } from "../compat/fidelity";
import { responseEvents, responseText, terminalResponse } from "../compat/responses-specs";

type Json = Record<string, unknown>;

let fx: PatchbayFixture;
let key: string;
let origin: string;

before(async () => {
  fx = await useSharedPatchbay();
  key = await fx.createKey("responses");
  origin = fx.apiBase.replace(/\/v1$/, "");
});
after(async () => {
  await releaseSharedPatchbay(fx);
});

function post(pathname: string, body: unknown): Promise<Exchange> {
  return exchange(origin, { method: "POST", path: pathname, headers: { authorization: `Bearer ${key}` }, body });
}

/** Sends `body` to `pathname` with the mock scripted; returns the exchange and the one upstream body. */
async function run(
  pathname: string,
  body: Json,
  script: MockReply[] = [{ text: "OK." }],
): Promise<{ res: Exchange; upstream: Json }> {
  fx.mock.reset();
  fx.mock.script(...script);
  const res = await post(pathname, body);
  expectStatus(res, 200);
  return { res, upstream: upstreamBody(fx.mock.chatRequests()) };
}

const RED = red16Base64();
const weatherParams = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
const personSchema = {
  type: "object",
  properties: { name: { type: "string" }, age: { type: "integer" } },
  required: ["name", "age"],
  additionalProperties: false,
};

/** One conversation in both wires. */
const pairs: Array<{ name: string; chat: Json; responses: Json; script?: MockReply[] }> = [
  {
    name: "instructions + plain input",
    chat: {
      messages: [
        { role: "system", content: "Be terse." },
        { role: "user", content: "Hello" },
      ],
    },
    responses: { instructions: "Be terse.", input: "Hello" },
  },
  {
    name: "multi-turn with developer message",
    chat: {
      messages: [
        { role: "developer", content: "Answer in French." },
        { role: "user", content: "Hi" },
        { role: "assistant", content: "Bonjour" },
        { role: "user", content: "Thanks" },
      ],
    },
    responses: {
      input: [
        { type: "message", role: "developer", content: "Answer in French." },
        { type: "message", role: "user", content: [{ type: "input_text", text: "Hi" }] },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "Bonjour" }] },
        { role: "user", content: "Thanks" },
      ],
    },
  },
  {
    name: "tool calls → results, with tools and tool_choice",
    chat: {
      messages: [
        { role: "user", content: "Weather in Oslo and Rome?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } },
            { id: "call_2", type: "function", function: { name: "get_weather", arguments: '{"city":"Rome"}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_1", content: "-3C" },
        { role: "tool", tool_call_id: "call_2", content: "18C" },
      ],
      tools: [
        { type: "function", function: { name: "get_weather", description: "Weather", parameters: weatherParams } },
      ],
      tool_choice: "auto",
      parallel_tool_calls: true,
    },
    responses: {
      input: [
        { role: "user", content: "Weather in Oslo and Rome?" },
        { type: "function_call", call_id: "call_1", name: "get_weather", arguments: '{"city":"Oslo"}' },
        { type: "function_call", call_id: "call_2", name: "get_weather", arguments: '{"city":"Rome"}' },
        { type: "function_call_output", call_id: "call_1", output: "-3C" },
        { type: "function_call_output", call_id: "call_2", output: "18C" },
      ],
      tools: [{ type: "function", name: "get_weather", description: "Weather", parameters: weatherParams }],
      tool_choice: "auto",
      parallel_tool_calls: true,
    },
  },
  {
    name: "image + generation parameters",
    chat: {
      model: "mock/mock-vision",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Colour?" },
            { type: "image_url", image_url: { url: `data:image/png;base64,${RED}` } },
          ],
        },
      ],
      temperature: 0.3,
      top_p: 0.8,
      max_completion_tokens: 40,
    },
    responses: {
      model: "mock/mock-vision",
      input: [
        {
          role: "user",
          content: [
            { type: "input_text", text: "Colour?" },
            { type: "input_image", image_url: `data:image/png;base64,${RED}` },
          ],
        },
      ],
      temperature: 0.3,
      top_p: 0.8,
      max_output_tokens: 40,
    },
  },
  {
    name: "json_schema",
    chat: {
      messages: [{ role: "user", content: "Alice, 30" }],
      response_format: { type: "json_schema", json_schema: { name: "person", strict: true, schema: personSchema } },
    },
    responses: {
      input: "Alice, 30",
      text: { format: { type: "json_schema", name: "person", strict: true, schema: personSchema } },
    },
    script: [{ text: '{"name":"Alice","age":30}' }],
  },
  {
    name: "reasoning effort → variant, named tool_choice",
    chat: {
      model: "mock/mock-reasoner",
      messages: [{ role: "user", content: "Think, then call." }],
      reasoning_effort: "high",
      tools: [
        { type: "function", function: { name: "get_weather", parameters: weatherParams } },
        { type: "function", function: { name: "edit", parameters: { type: "object", properties: {} } } },
      ],
      tool_choice: { type: "function", function: { name: "edit" } },
    },
    responses: {
      model: "mock/mock-reasoner",
      input: "Think, then call.",
      reasoning: { effort: "high" },
      tools: [
        { type: "function", name: "get_weather", parameters: weatherParams },
        { type: "function", name: "edit", parameters: { type: "object", properties: {} } },
      ],
      tool_choice: { type: "function", name: "edit" },
    },
    script: [{ toolCalls: [{ id: "call_e", name: "client_edit", arguments: {} }] }],
  },
];

describe("the same conversation through both wires reaches the upstream identically", () => {
  for (const p of pairs) {
    test(p.name, async () => {
      const chat = await run("/v1/chat/completions", { model: "mock/mock-model", ...p.chat }, p.script);
      const resp = await run("/v1/responses", { model: "mock/mock-model", ...p.responses }, p.script);
      const diff = diffFields(resp.upstream, chat.upstream);
      assert.deepEqual(diff, [], `upstream bodies differ:\n${diff.join("\n")}`);
    });
  }
});

describe("refused fields: 400 naming the field, saying what to do instead", () => {
  const base = { model: "mock/mock-model", input: "hi" };
  const refused: Array<{ field: string; body: Json; param: string | RegExp; hint?: RegExp }> = [
    {
      field: "conversation",
      body: { ...base, conversation: "conv_123" },
      param: "conversation",
      hint: /whole conversation/,
    },
    { field: "background", body: { ...base, background: true }, param: "background" },
    { field: "prompt", body: { ...base, prompt: { id: "pmpt_123" } }, param: "prompt", hint: /instructions/ },
    {
      // A hosted tool Patchbay does not run (web_search it runs itself: server/server-tools).
      field: "tool_choice forcing a hosted tool",
      body: { ...base, tools: [{ type: "file_search" }], tool_choice: { type: "file_search" } },
      param: "tool_choice",
      hint: /file_search \(tools\[0\]\)/,
    },
    {
      field: "unknown tool type",
      body: {
        ...base,
        tools: [
          { type: "function", name: "f", parameters: { type: "object" } },
          { type: "teleport", destination: "mars" },
        ],
      },
      param: "tools[1].type",
    },
    { field: "truncation auto", body: { ...base, truncation: "auto" }, param: "truncation", hint: /disabled/ },
    { field: "top_logprobs > 0", body: { ...base, top_logprobs: 3 }, param: "top_logprobs" },
  ];
  for (const r of refused) {
    test(`${r.field} → 400 (streaming or not), nothing sent upstream`, async () => {
      for (const stream of [false, true]) {
        fx.mock.reset();
        const res = await post("/v1/responses", { ...r.body, stream });
        const e = expectEnvelope(res, 400);
        if (typeof r.param === "string") assert.equal(e.param, r.param);
        else assert.match(String(e.param), r.param);
        assert.ok(["unsupported_parameter", "unsupported_value"].includes(String(e.code)), `code ${e.code}`);
        if (r.hint) assert.match(e.message, r.hint);
        assert.equal(fx.mock.chatRequests().length, 0);
      }
    });
  }
  test("accepted look-alikes: background false, truncation disabled, top_logprobs 0, store true/false", async () => {
    for (const extra of [
      { background: false },
      { truncation: "disabled" },
      { top_logprobs: 0 },
      { store: true },
      { store: false, metadata: { a: "b" }, user: "u1" },
    ]) {
      const { res } = await run("/v1/responses", { ...base, ...extra });
      const r = res.json();
      assert.equal(r.status, "completed", JSON.stringify(extra));
      assert.equal(r.store, (extra as Json).store !== false, "the response says whether it was stored");
    }
  });
  test("unknown stored state: previous_response_id → 400, item_reference → 404, nothing sent upstream", async () => {
    for (const stream of [false, true]) {
      fx.mock.reset();
      const prev = expectEnvelope(
        await post("/v1/responses", { ...base, stream, previous_response_id: "resp_123" }),
        400,
      );
      assert.equal(prev.param, "previous_response_id");
      assert.equal(prev.code, "previous_response_not_found");
      assert.equal(prev.message, "Previous response with id 'resp_123' not found.");
      const input = [
        { role: "user", content: "hi" },
        { type: "item_reference", id: "msg_1" },
      ];
      const ref = expectEnvelope(await post("/v1/responses", { ...base, stream, input }), 404);
      assert.equal(ref.param, "input[1].id");
      assert.equal(ref.message, "Item with id 'msg_1' not found.");
      assert.equal(fx.mock.chatRequests().length, 0);
    }
  });
});

describe("agent tools: hosted dropped with a warning, namespace and custom tools round-trip", () => {
  const tools = [
    { type: "web_search", external_web_access: false },
    { type: "file_search", vector_store_ids: ["vs_1"] },
    {
      type: "namespace",
      name: "crm",
      description: "CRM tools.",
      tools: [
        { type: "function", name: "lookup", parameters: { type: "object", properties: { q: { type: "string" } } } },
      ],
    },
    { type: "custom", name: "apply_patch", description: "Apply a patch.", format: { type: "text" } },
  ];
  test("hosted tools Patchbay does not run are not sent upstream and are named in x-patchbay-warnings", async () => {
    const { res, upstream } = await run("/v1/responses", { model: "mock/mock-model", input: "hi", tools });
    const names = (upstream.tools as Array<{ function: { name: string } }>).map((t) => t.function.name).sort();
    // web_search is offered as the function Patchbay runs itself (server/server-tools); file_search is dropped.
    assert.deepEqual(names, ["client_apply_patch", "crm__lookup", "web_search"]);
    const warnings = String(res.headers["x-patchbay-warnings"] ?? "");
    assert.match(warnings, /file_search \(tools\[1\]\)/);
    assert.doesNotMatch(warnings, /web_search \(tools\[0\]\)/);
  });
  test("the model's calls come back as a namespaced function_call and a custom_tool_call; history maps back", async () => {
    const { res } = await run("/v1/responses", { model: "mock/mock-model", input: "go", tools, stream: true }, [
      {
        toolCalls: [
          { id: "call_l", name: "crm__lookup", arguments: { q: "acme" } },
          { id: "call_p", name: "client_apply_patch", arguments: { input: "*** Begin Patch" } },
        ],
      },
    ]);
    const output = terminalResponse(responseEvents(res)).output as Json[];
    assert.deepEqual(
      output.map((o) => [o.type, o.namespace ?? null, o.name, o.arguments ?? o.input]),
      [
        ["function_call", "crm", "lookup", '{"q":"acme"}'],
        ["custom_tool_call", null, "apply_patch", "*** Begin Patch"],
      ],
    );
    const { upstream } = await run("/v1/responses", {
      model: "mock/mock-model",
      tools,
      input: [
        { role: "user", content: "go" },
        ...output,
        { type: "function_call_output", call_id: "call_l", output: "found" },
        { type: "custom_tool_call_output", call_id: "call_p", output: "patched" },
      ],
    });
    const msgs = upstream.messages as Array<{ role: string; tool_calls?: Array<Json>; content?: unknown }>;
    const calls = msgs.find((m) => m.tool_calls)?.tool_calls?.map((c) => c.function) as Json[];
    assert.deepEqual(calls, [
      { name: "crm__lookup", arguments: '{"q":"acme"}' },
      { name: "client_apply_patch", arguments: '{"input":"*** Begin Patch"}' },
    ]);
    assert.deepEqual(
      msgs.filter((m) => m.role === "tool").map((m) => m.content),
      ["found", "patched"],
    );
  });
});

describe("streams", () => {
  test("text: contiguous sequence numbers, usage with cached and reasoning tokens", async () => {
    const { res } = await run("/v1/responses", { model: "mock/mock-reasoner", input: "hi", stream: true }, [
      {
        reasoning: "thinking",
        text: "Hello world",
        chunks: 4,
        usage: { prompt_tokens: 30, completion_tokens: 12, cached_tokens: 10, reasoning_tokens: 5 },
      },
    ]);
    const events = responseEvents(res);
    const r = terminalResponse(events);
    assert.equal(r.status, "completed");
    assert.equal(responseText(r), "Hello world");
    assert.deepEqual(r.usage, {
      input_tokens: 30,
      input_tokens_details: { cached_tokens: 10, cache_write_tokens: 0 },
      output_tokens: 12,
      output_tokens_details: { reasoning_tokens: 5 },
      total_tokens: 42,
    });
  });

  test("function calls: items with call_id/name/arguments, argument events, contiguous numbers", async () => {
    const tools = [
      { type: "function", name: "get_weather", parameters: weatherParams },
      { type: "function", name: "now", parameters: { type: "object", properties: {} } },
    ];
    const { res } = await run(
      "/v1/responses",
      { model: "mock/mock-model", input: "Weather in Oslo, and the time?", tools, stream: true },
      [
        {
          text: "Checking.",
          toolCalls: [
            { id: "call_w", name: "get_weather", arguments: { city: "Oslo" } },
            { id: "call_n", name: "now", arguments: "" },
          ],
        },
      ],
    );
    const events = responseEvents(res);
    const r = terminalResponse(events);
    assert.equal(r.status, "completed");
    const calls = (r.output as Json[]).filter((i) => i.type === "function_call");
    assert.deepEqual(
      calls.map((c) => [c.call_id, c.name, c.arguments, c.status]),
      [
        ["call_w", "get_weather", '{"city":"Oslo"}', "completed"],
        ["call_n", "now", "{}", "completed"],
      ],
    );
    for (const c of calls) assert.ok(typeof c.id === "string" && c.id.length > 0);
    const argsDone = events.filter((e) => e.type === "response.function_call_arguments.done");
    assert.deepEqual(
      argsDone.map((e) => e.arguments),
      ['{"city":"Oslo"}', "{}"],
    );
    const deltas = events.filter((e) => e.type === "response.function_call_arguments.delta");
    assert.ok(deltas.length >= 2 && deltas.every((d) => typeof d.delta === "string"));
    const itemsDone = events.filter((e) => e.type === "response.output_item.done").map((e) => e.item);
    assert.deepEqual(r.output, itemsDone, "the final output equals the streamed items");
    // Output indexes are distinct and follow the item order.
    assert.deepEqual(
      events.filter((e) => e.type === "response.output_item.added").map((e) => e.output_index),
      [0, 1, 2],
    );
  });

  test("max tokens: response.incomplete with reason max_output_tokens, numbers contiguous; JSON says the same", async () => {
    const body = { model: "mock/mock-model", input: "A long story.", max_output_tokens: 16 };
    const script: MockReply[] = [
      { text: "Once upon a time", finishReason: "length", usage: { completion_tokens: 16 } },
    ];
    const streamed = await run("/v1/responses", { ...body, stream: true }, script);
    const events = responseEvents(streamed.res);
    const r = terminalResponse(events);
    assert.equal(events.at(-1)!.type, "response.incomplete");
    assert.equal(r.status, "incomplete");
    assert.deepEqual(r.incomplete_details, { reason: "max_output_tokens" });
    assert.equal(streamed.upstream.max_tokens, 16);
    const json = (await run("/v1/responses", body, script)).res.json();
    assert.equal(json.status, "incomplete");
    assert.deepEqual(json.incomplete_details, { reason: "max_output_tokens" });
    assert.equal(responseText(json), "Once upon a time");
  });

  test("a failure after output started: response.failed continues the numbering; no response.completed", async () => {
    const { res } = await run("/v1/responses", { model: "mock/mock-model", input: "essay", stream: true }, [
      { text: "Tides are caused by the moon and the sun.", chunks: 8, dropAfterChunks: 2, paceMs: 50 },
      { text: "never" },
    ]);
    const events = responseEvents(res);
    const last = events.at(-1)!;
    assert.ok(last.type === "response.failed" || last.type === "error", String(last.type));
    assert.ok(!events.some((e) => e.type === "response.completed"));
  });
});

describe("a failure before any output is a real HTTP error, also when streaming", () => {
  const cases: Array<{ name: string; script: MockReply[]; status: number[]; body?: Json }> = [
    {
      name: "upstream 400",
      script: [{ error: { status: 400, message: "Invalid value for 'input': too long" } }],
      status: [400],
    },
    {
      name: "upstream 429",
      script: [0, 1].map(() => ({
        error: { status: 429, message: "Rate limit reached", headers: { "retry-after": "7" } },
      })),
      status: [429],
    },
    {
      name: "upstream 503",
      script: [0, 1].map(() => ({ error: { status: 503, message: "overloaded" } })),
      status: [502, 503],
    },
    { name: "unknown model", script: [], status: [404], body: { model: "mock/nope" } },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      for (const stream of [true, false]) {
        fx.mock.reset();
        fx.mock.script(...c.script);
        const res = await post("/v1/responses", { model: "mock/mock-model", input: "hi", stream, ...c.body });
        const e = expectEnvelope(res, c.status);
        assert.ok(!res.body.includes("event:"), "no SSE body");
        if (c.name === "upstream 400") assert.match(e.message, /too long/);
        if (c.name === "upstream 429") assert.equal(res.headers["retry-after"], "7");
      }
    });
  }
});

describe("structured output with caller tools", () => {
  const body = {
    model: "mock/mock-model",
    input: "Who is Alice? Use lookup if you must.",
    tools: [
      {
        type: "function",
        name: "lookup",
        parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
      },
    ],
    text: { format: { type: "json_schema", name: "person", schema: personSchema, strict: true } },
  };
  test("a call to a caller tool is the response (function_call items)", async () => {
    const { res, upstream } = await run("/v1/responses", body, [
      { toolCalls: [{ id: "call_l", name: "lookup", arguments: { q: "Alice" } }] },
    ]);
    const r = res.json();
    assert.equal(r.status, "completed");
    assert.deepEqual(
      (r.output as Json[]).map((i) => i.type),
      ["function_call"],
    );
    assert.equal((r.output as Json[])[0]!.name, "lookup");
    assert.deepEqual(upstream.response_format, {
      type: "json_schema",
      json_schema: { name: "person", schema: personSchema, strict: true },
    });
    assert.deepEqual((r.text as Json).format, body.text.format, "text.format is echoed");
  });
  test("otherwise the structured answer is the message text", async () => {
    const { res } = await run("/v1/responses", body, [{ text: '{"name":"Alice","age":30}' }]);
    assert.deepEqual(JSON.parse(responseText(res.json())), { name: "Alice", age: 30 });
  });
});
