// ResponsesEncoder: golden streams and bodies for representative event sequences, and the Responses streaming rules
// of issue 4 and the RESP-* compat cases.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { ModelEvent } from "../../../../server/core/contract";
import { ResponsesEncoder } from "../../../../server/wires/openai-responses/encode";
import { responseErrorCode, toResponseUsage } from "../../../../server/wires/openai-responses/encode-fields";
import type { ResponseEcho } from "../../../../server/wires/openai-responses/wire-types";
import {
  DEFAULT_ECHO,
  RESPONSES_OPTIONS,
  USAGE,
  assertResponsesAgreement,
  checkResponsesStream,
  errorData,
  framesForGolden,
  matchGolden,
  runResponses,
} from "./helpers";
import { SCENARIOS } from "./scenarios";

const SUMMARY_ECHO: ResponseEcho = { ...DEFAULT_ECHO, reasoning: { effort: "low", summary: "auto" } };
const RICH_ECHO: ResponseEcho = {
  ...DEFAULT_ECHO,
  instructions: "Be terse.",
  max_output_tokens: 256,
  metadata: { session: "abc" },
  parallel_tool_calls: false,
  temperature: 0.2,
  top_p: 0.9,
  tool_choice: { type: "function", name: "get_weather" },
  tools: [{ type: "function", name: "get_weather", description: null, parameters: { type: "object" }, strict: true }],
  user: "user-1",
};

const GOLDENS: { name: string; scenario: string; echo?: ResponseEcho }[] = [
  { name: "responses-text", scenario: "text", echo: RICH_ECHO },
  { name: "responses-tool-call", scenario: "tool-call" },
  { name: "responses-parallel-tool-calls", scenario: "parallel-tool-calls" },
  { name: "responses-length", scenario: "length" },
  { name: "responses-content-filter", scenario: "content-filter" },
  { name: "responses-error-before-output", scenario: "error-before-output" },
  { name: "responses-error-after-output", scenario: "error-after-output" },
  { name: "responses-reasoning-summary", scenario: "reasoning", echo: SUMMARY_ECHO },
  { name: "responses-reasoning-dropped", scenario: "reasoning" },
  { name: "responses-empty-answer", scenario: "empty-answer" },
  { name: "responses-cut-stream", scenario: "cut-stream" },
];

describe("ResponsesEncoder golden files", () => {
  for (const g of GOLDENS) {
    test(g.name, () => {
      const events = SCENARIOS[g.scenario]!;
      const run = runResponses(events, g.echo ? { echo: g.echo } : {});
      const summary = checkResponsesStream(run.frames);
      assertResponsesAgreement(summary, run);
      matchGolden(g.name, {
        events,
        echo: g.echo ?? DEFAULT_ECHO,
        stream: framesForGolden(run.frames),
        body: run.body,
        thrown: errorData(run.thrown),
      });
    });
  }
});

const typesOf = (events: ModelEvent[], echo?: ResponseEcho) =>
  runResponses(events, echo ? { echo } : {}).frames.map((f) => f.event);

describe("ResponsesEncoder rules", () => {
  test("text lifecycle follows RESP-STREAM-TEXT-EVENT-LIFECYCLE exactly", () => {
    assert.deepEqual(typesOf(SCENARIOS.text!), [
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    const run = runResponses(SCENARIOS.text!);
    const events = run.frames.map((f) => JSON.parse(f.data));
    const added = events[2];
    assert.deepEqual(added.item, {
      id: "msg_test1_0",
      type: "message",
      status: "in_progress",
      role: "assistant",
      content: [],
    });
    assert.deepEqual(events[3].part, { type: "output_text", text: "", annotations: [], logprobs: [] });
    for (const delta of events.filter((e) => e.type === "response.output_text.delta")) {
      assert.deepEqual(
        [delta.item_id, delta.output_index, delta.content_index, delta.logprobs],
        ["msg_test1_0", 0, 0, []],
      );
      assert.equal(typeof delta.delta, "string");
    }
    assert.equal(events[6].text, "Hello, world.");
    assert.equal(events[8].item.status, "completed");
    assert.equal(events[9].response.output[0].content[0].text, "Hello, world.");
    assert.equal(events[0].sequence_number, 0, "sequence_number 0 is serialised");
  });

  test("nothing is emitted for start: an error before output can still become an HTTP error", () => {
    const enc = new ResponsesEncoder(RESPONSES_OPTIONS);
    assert.deepEqual(enc.push({ type: "start", sessionId: "s", warnings: [] }), []);
    const frames = enc.push({
      type: "error",
      error: { code: "upstream_auth_error", status: 502, message: "bad credential" },
    });
    assert.deepEqual(
      frames.map((f) => f.event),
      ["response.created", "response.in_progress", "response.failed"],
    );
    assert.equal(enc.outputStarted, false);
    assert.equal(enc.failure?.code, "upstream_auth_error");
    assert.throws(
      () => enc.body(),
      (err: Error & { code?: string }) => err.code === "upstream_auth_error",
    );
  });

  test("completed response echoes the request fields, store false, and usage with details", () => {
    const run = runResponses(SCENARIOS.text!, { echo: RICH_ECHO });
    const body = run.body!;
    assert.equal(body.store, false);
    assert.equal(body.instructions, "Be terse.");
    assert.equal(body.max_output_tokens, 256);
    assert.deepEqual(body.metadata, { session: "abc" });
    assert.equal(body.parallel_tool_calls, false);
    assert.equal(body.temperature, 0.2);
    assert.equal(body.top_p, 0.9);
    assert.deepEqual(body.tool_choice, { type: "function", name: "get_weather" });
    const tool = body.tools[0];
    assert.equal(tool && "name" in tool ? tool.name : null, "get_weather");
    assert.equal(body.user, "user-1");
    assert.equal(body.error, null);
    assert.deepEqual(body.usage, toResponseUsage(USAGE));
    assert.deepEqual(body.usage, {
      input_tokens: 21,
      input_tokens_details: { cached_tokens: 5, cache_write_tokens: 0 },
      output_tokens: 9,
      output_tokens_details: { reasoning_tokens: 3 },
      total_tokens: 30,
    });
  });

  test("function calls: fc_ ids, call_id, name, complete arguments ({} for none), status completed", () => {
    const run = runResponses(SCENARIOS["parallel-tool-calls"]!);
    const output = run.body!.output;
    assert.deepEqual(
      output.map((item) => item.type),
      ["message", "function_call", "function_call"],
    );
    assert.deepEqual(output[1], {
      id: "fc_test1_1",
      type: "function_call",
      status: "completed",
      call_id: "call_a",
      name: "get_weather",
      arguments: '{"city":"Paris"}',
    });
    assert.deepEqual(output[2], {
      id: "fc_test1_2",
      type: "function_call",
      status: "completed",
      call_id: "call_b",
      name: "get_time",
      arguments: "{}",
    });
    assert.equal(run.body!.status, "completed");
    const types = run.frames.map((f) => f.event);
    assert.deepEqual(types.slice(-5), [
      "response.output_item.added",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
  });

  test("length and content_filter end incomplete with the reason and an incomplete message item", () => {
    for (const [scenario, reason] of [
      ["length", "max_output_tokens"],
      ["content-filter", "content_filter"],
    ] as const) {
      const run = runResponses(SCENARIOS[scenario]!);
      assert.equal(run.frames.at(-1)?.event, "response.incomplete");
      assert.equal(run.body?.status, "incomplete");
      assert.deepEqual(run.body?.incomplete_details, { reason });
      assert.equal(run.body?.output[0]?.status, "incomplete");
    }
  });

  test("an error after output closes the open item and ends with response.failed only", () => {
    const run = runResponses(SCENARIOS["error-after-output"]!);
    const types = run.frames.map((f) => f.event);
    assert.ok(!types.includes("response.completed"));
    assert.equal(types.at(-1), "response.failed");
    const failed = JSON.parse(run.frames.at(-1)!.data);
    assert.deepEqual(failed.response.error, { code: "server_error", message: "The provider closed the connection." });
    assert.equal(failed.response.output[0].content[0].text, "Partial answ");
    assert.equal(failed.response.output[0].status, "incomplete");
    assert.equal(run.thrown?.status, 502);
  });

  test("429 errors use OpenAI's rate_limit_exceeded code in response.error", () => {
    assert.equal(
      responseErrorCode({ code: "upstream_rate_limited", status: 429, message: "x" }),
      "rate_limit_exceeded",
    );
    assert.equal(responseErrorCode({ code: "timeout", status: 504, message: "x" }), "server_error");
    assert.equal(responseErrorCode({ code: "upstream_bad_request", status: 400, message: "x" }), "invalid_prompt");
  });

  test("reasoning becomes a reasoning item only when a summary was requested", () => {
    const withSummary = runResponses(SCENARIOS.reasoning!, { echo: SUMMARY_ECHO });
    assert.deepEqual(
      withSummary.body?.output.map((i) => i.type),
      ["reasoning", "message"],
    );
    assert.deepEqual(withSummary.body?.output[0], {
      id: "rs_test1_0",
      type: "reasoning",
      status: "completed",
      summary: [{ type: "summary_text", text: "The user greets; answer briefly." }],
    });
    const dropped = runResponses(SCENARIOS.reasoning!);
    assert.deepEqual(
      dropped.body?.output.map((i) => i.type),
      ["message"],
    );
    assert.equal(dropped.body?.output[0]?.id, "msg_test1_0");
    assert.equal(dropped.body?.usage?.output_tokens_details.reasoning_tokens, 3, "reasoning tokens still count");
    const forced = runResponses(SCENARIOS.reasoning!, { emitReasoning: true });
    assert.equal(forced.body?.output[0]?.type, "reasoning");
  });

  test("injected newId names the items", () => {
    let n = 0;
    const run = runResponses(SCENARIOS["parallel-tool-calls"]!, { newId: (prefix) => `${prefix}_custom${n++}` });
    assert.deepEqual(
      run.body?.output.map((i) => i.id),
      ["msg_custom0", "fc_custom1", "fc_custom2"],
    );
  });

  test("a cut stream ends with response.failed (upstream_error) from end(); end() is idempotent", () => {
    const enc = new ResponsesEncoder(RESPONSES_OPTIONS);
    enc.push({ type: "text-delta", delta: "x" });
    const frames = enc.end();
    assert.equal(frames.at(-1)?.event, "response.failed");
    assert.equal(JSON.parse(frames.at(-1)!.data).response.error.code, "server_error");
    assert.deepEqual(enc.end(), []);
  });

  test("events after the terminal event are ignored; end() adds nothing after completion", () => {
    const enc = new ResponsesEncoder(RESPONSES_OPTIONS);
    enc.push({ type: "text-delta", delta: "ok" });
    enc.push({ type: "finish", reason: "stop", usage: USAGE });
    assert.deepEqual(enc.push({ type: "text-delta", delta: "late" }), []);
    assert.deepEqual(enc.push({ type: "error", error: { code: "upstream_error", status: 502, message: "x" } }), []);
    assert.deepEqual(enc.end(), []);
    assert.equal(enc.body().status, "completed");
    assert.equal(enc.failure, null);
  });

  test("response() returns a copy: mutating it does not change the encoder", () => {
    const enc = new ResponsesEncoder(RESPONSES_OPTIONS);
    enc.push({ type: "text-delta", delta: "ok" });
    enc.push({ type: "finish", reason: "stop", usage: USAGE });
    const a = enc.body();
    a.output.length = 0;
    assert.equal(enc.body().output.length, 1);
  });
});
