// ResponsesEncoder as Codex reads it: namespaced calls come back as `function_call` items with `namespace`, custom
// tools as `custom_tool_call` items (with `response.custom_tool_call_input.*` events), backend errors as the
// `error.code` values Codex acts on; and a stream parsed the way Codex's SSE parser does
// (openai/codex codex-rs/codex-api/src/sse/responses.rs): every `output_item.done` item complete for its type, exactly
// one terminal event, `response.completed` with an id and usage.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { z } from "zod";
import type { ModelError, ModelEvent } from "../../../../server/core/contract";
import { decodeResponsesRequest } from "../../../../server/wires/openai-responses/decode";
import {
  customInputOf,
  responseErrorCode,
  responseErrorMessage,
  toResponseUsage,
} from "../../../../server/wires/openai-responses/encode-fields";
import { formatSseFrame } from "../../../../server/core/sse-frame";
import {
  USAGE,
  assertResponsesAgreement,
  checkResponsesStream,
  framesForGolden,
  matchGolden,
  runResponses,
} from "./helpers";

const start: ModelEvent = { type: "start", sessionId: "ses_codex", warnings: [] };
const codexBody = JSON.parse(
  readFileSync(new URL("../../../fixtures/codex/exec-first-request.json", import.meta.url), "utf8"),
) as Record<string, unknown>;

/** Codex's `ResponseItem` variants that it acts on (codex-rs/protocol/src/models.rs), as far as their required fields
 *  go: serde would drop an item missing one of these ("failed to parse ResponseItem") and Codex would never see it. */
const CodexResponseItem = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("message"),
    role: z.string(),
    content: z.array(z.object({ type: z.enum(["output_text", "input_text"]), text: z.string() })),
  }),
  z.object({
    type: z.literal("function_call"),
    name: z.string().min(1),
    namespace: z.string().min(1).optional(),
    arguments: z.string(),
    call_id: z.string().min(1),
  }),
  z.object({
    type: z.literal("custom_tool_call"),
    status: z.string().optional(),
    call_id: z.string().min(1),
    name: z.string().min(1),
    input: z.string(),
  }),
  z.object({
    type: z.literal("reasoning"),
    summary: z.array(z.object({ type: z.literal("summary_text"), text: z.string() })),
  }),
]);
/** Codex's `ResponseCompleted` (id required) and its usage. */
const CodexCompleted = z.object({
  id: z.string().min(1),
  usage: z.object({
    input_tokens: z.int(),
    input_tokens_details: z.object({ cached_tokens: z.int() }).nullable(),
    output_tokens: z.int(),
    output_tokens_details: z.object({ reasoning_tokens: z.int() }).nullable(),
    total_tokens: z.int(),
  }),
});

interface CodexView {
  items: Array<z.output<typeof CodexResponseItem>>;
  textDeltas: string;
  reasoningDeltas: string;
  terminal: { type: string; id?: string; error?: { code?: string; message?: string } };
}

/** Parses SSE text the way Codex does: `data` JSON by `type`; output_item.done → ResponseItem (must parse);
 *  response.completed → ResponseCompleted (must parse); response.failed → error {code, message}. */
function parseAsCodex(sse: string): CodexView {
  const view: CodexView = { items: [], textDeltas: "", reasoningDeltas: "", terminal: { type: "" } };
  const terminals: string[] = [];
  for (const block of sse.split("\n\n")) {
    const data = block
      .split("\n")
      .filter((l) => l.startsWith("data: "))
      .map((l) => l.slice(6))
      .join("\n");
    if (!data) continue;
    const event = JSON.parse(data) as {
      type: string;
      item?: unknown;
      delta?: string;
      response?: Record<string, unknown>;
    };
    switch (event.type) {
      case "response.output_item.done":
        view.items.push(CodexResponseItem.parse(event.item));
        break;
      case "response.output_text.delta":
        view.textDeltas += event.delta ?? "";
        break;
      case "response.reasoning_summary_text.delta":
        view.reasoningDeltas += event.delta ?? "";
        break;
      case "response.completed":
        terminals.push(event.type);
        view.terminal = { type: event.type, id: CodexCompleted.parse(event.response).id };
        break;
      case "response.failed":
      case "response.incomplete":
        terminals.push(event.type);
        view.terminal = {
          type: event.type,
          error: (event.response?.error ?? undefined) as CodexView["terminal"]["error"],
        };
        break;
      default:
        break;
    }
  }
  assert.equal(terminals.length, 1, `exactly one terminal event: ${terminals.join(", ")}`);
  return view;
}

describe("a Codex turn through the encoder", () => {
  const { echo, toolNames } = decodeResponsesRequest(codexBody);
  const events: ModelEvent[] = [
    start,
    { type: "reasoning-delta", delta: "Need to look around first." },
    { type: "text-delta", delta: "Let me check." },
    { type: "tool-call", id: "call_exec", name: "exec_command", arguments: '{"cmd":"ls"}' },
    { type: "tool-call", id: "call_ns", name: "multi_agent_v1__close_agent", arguments: '{"target":"a1"}' },
    { type: "finish", reason: "tool_calls", usage: USAGE },
  ];

  test("stream: complete items Codex can parse, namespaced call with its namespace, one terminal event", () => {
    const run = runResponses(events, { echo, toolNames });
    const summary = checkResponsesStream(run.frames);
    assertResponsesAgreement(summary, run);
    const view = parseAsCodex(run.frames.map(formatSseFrame).join(""));
    assert.deepEqual(
      view.items.map((i) => i.type),
      ["reasoning", "message", "function_call", "function_call"],
    );
    assert.equal(view.reasoningDeltas, "Need to look around first.", "reasoning.summary: auto → summary events");
    assert.equal(view.textDeltas, "Let me check.");
    assert.deepEqual(view.items[2], {
      type: "function_call",
      name: "exec_command",
      arguments: '{"cmd":"ls"}',
      call_id: "call_exec",
    });
    assert.deepEqual(view.items[3], {
      type: "function_call",
      name: "close_agent",
      namespace: "multi_agent_v1",
      arguments: '{"target":"a1"}',
      call_id: "call_ns",
    });
    assert.deepEqual(view.terminal, { type: "response.completed", id: "resp_test1" });
    const usage = summary.terminal.response.usage;
    assert.deepEqual(usage?.input_tokens_details, { cached_tokens: 5, cache_write_tokens: 0 });
    assert.deepEqual(usage?.output_tokens_details, { reasoning_tokens: 3 });
    matchGolden("responses-codex-turn", { events, stream: framesForGolden(run.frames), body: run.body });
  });
});

describe("usage", () => {
  test("cache writes the provider reported become input_tokens_details.cache_write_tokens (0 when none)", () => {
    assert.deepEqual(toResponseUsage({ ...USAGE, cacheWriteTokens: 7 }).input_tokens_details, {
      cached_tokens: 5,
      cache_write_tokens: 7,
    });
    assert.equal(toResponseUsage(USAGE).input_tokens_details.cache_write_tokens, 0);
  });
});

describe("custom tool calls", () => {
  const { echo, toolNames } = decodeResponsesRequest({
    model: "m/x",
    input: "patch it",
    tools: [
      { type: "custom", name: "apply_patch", description: "Apply a patch." },
      { type: "namespace", name: "ns", description: "", tools: [{ type: "custom", name: "note" }] },
    ],
  });
  const patch = "*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch";

  test("a call of the one-argument function comes back as a custom_tool_call with its input, in JSON and stream", () => {
    const run = runResponses(
      [
        start,
        { type: "tool-call", id: "call_p", name: "apply_patch", arguments: JSON.stringify({ input: patch }) },
        { type: "tool-call", id: "call_n", name: "ns__note", arguments: '{"input":"remember"}' },
        { type: "finish", reason: "tool_calls", usage: USAGE },
      ],
      { echo, toolNames },
    );
    const summary = checkResponsesStream(run.frames);
    assertResponsesAgreement(summary, run);
    const types = run.frames.map((f) => f.event);
    assert.deepEqual(types.slice(2, 6), [
      "response.output_item.added",
      "response.custom_tool_call_input.delta",
      "response.custom_tool_call_input.done",
      "response.output_item.done",
    ]);
    assert.deepEqual(run.body?.output, [
      {
        id: "ctc_test1_0",
        type: "custom_tool_call",
        call_id: "call_p",
        name: "apply_patch",
        status: "completed",
        input: patch,
      },
      {
        id: "ctc_test1_1",
        type: "custom_tool_call",
        call_id: "call_n",
        namespace: "ns",
        name: "note",
        status: "completed",
        input: "remember",
      },
    ]);
    const view = parseAsCodex(run.frames.map(formatSseFrame).join(""));
    assert.equal(view.items.length, 2);
    matchGolden("responses-custom-tool-call", { stream: framesForGolden(run.frames), body: run.body });
  });

  test("arguments that are not {input: string} are passed on as the input text itself", () => {
    assert.equal(customInputOf('{"input":"x"}'), "x");
    assert.equal(customInputOf("raw patch text"), "raw patch text");
    assert.equal(customInputOf('{"other":1}'), '{"other":1}');
    assert.equal(customInputOf('["input"]'), '["input"]');
  });

  test("an empty input sends no delta event", () => {
    const run = runResponses(
      [
        start,
        { type: "tool-call", id: "c", name: "apply_patch", arguments: '{"input":""}' },
        { type: "finish", reason: "tool_calls", usage: USAGE },
      ],
      { echo, toolNames },
    );
    checkResponsesStream(run.frames);
    assert.ok(!run.frames.some((f) => f.event === "response.custom_tool_call_input.delta"));
    assert.equal((run.body?.output[0] as { input?: string }).input, "");
  });
});

describe("errors in the codes Codex acts on", () => {
  const failWith = (error: ModelError) => {
    const run = runResponses([start, { type: "text-delta", delta: "par" }, { type: "error", error }]);
    return parseAsCodex(run.frames.map(formatSseFrame).join("")).terminal;
  };

  test("context window, quota, rate limit with 'try again in N s', other errors are server_error", () => {
    assert.deepEqual(
      failWith({ code: "upstream_bad_request", status: 400, message: "Too long.", kind: "context_length" }).error?.code,
      "context_length_exceeded",
    );
    assert.equal(
      failWith({ code: "upstream_rate_limited", status: 429, message: "No credit.", kind: "quota" }).error?.code,
      "insufficient_quota",
    );
    const limited = failWith({ code: "upstream_rate_limited", status: 429, message: "Slow down", retryAfter: 20 });
    assert.equal(limited.error?.code, "rate_limit_exceeded");
    assert.equal(limited.error?.message, "Slow down. Please try again in 20s.");
    // Codex's own regex (codex-api/src/sse/responses.rs).
    assert.match(limited.error?.message ?? "", /try again in\s*(\d+(?:\.\d+)?)\s*(s|ms|seconds?)/i);
    assert.equal(failWith({ code: "upstream_error", status: 502, message: "Boom." }).error?.code, "server_error");
  });

  test("a rate limit without a known wait, or one that already says when, is left as it is", () => {
    const noWait: ModelError = { code: "upstream_rate_limited", status: 429, message: "Slow down." };
    assert.equal(responseErrorMessage(noWait), "Slow down.");
    const said: ModelError = { ...noWait, message: "Please try again in 1.5s.", retryAfter: 2 };
    assert.equal(responseErrorMessage(said), "Please try again in 1.5s.");
    assert.equal(responseErrorCode({ code: "timeout", status: 504, message: "late" }), "server_error");
  });
});
