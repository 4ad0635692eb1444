// ChatEncoder: golden streams and bodies for representative event sequences, and the wire rules clients rely on.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { ModelEvent } from "../../../../server/core/contract";
import { warn } from "../../../../server/core/warnings";
import { ChatEncoder, chatFinishReason, toChatUsage } from "../../../../server/wires/openai-chat/encode";
import {
  CHAT_OPTIONS,
  USAGE,
  assertChatAgreement,
  checkChatStream,
  errorData,
  framesForGolden,
  matchGolden,
  runChat,
} from "./helpers";
import { SCENARIOS } from "./scenarios";

const GOLDENS: { name: string; scenario: string; includeUsage: boolean }[] = [
  { name: "chat-text", scenario: "text", includeUsage: false },
  { name: "chat-text-usage", scenario: "text", includeUsage: true },
  { name: "chat-tool-call", scenario: "tool-call", includeUsage: false },
  { name: "chat-parallel-tool-calls-usage", scenario: "parallel-tool-calls", includeUsage: true },
  { name: "chat-length", scenario: "length", includeUsage: false },
  { name: "chat-content-filter", scenario: "content-filter", includeUsage: false },
  { name: "chat-error-before-output", scenario: "error-before-output", includeUsage: true },
  { name: "chat-error-after-output", scenario: "error-after-output", includeUsage: true },
  { name: "chat-reasoning", scenario: "reasoning", includeUsage: false },
  { name: "chat-empty-answer", scenario: "empty-answer", includeUsage: false },
  { name: "chat-cut-stream", scenario: "cut-stream", includeUsage: false },
];

describe("ChatEncoder golden files", () => {
  for (const g of GOLDENS) {
    test(g.name, () => {
      const events = SCENARIOS[g.scenario]!;
      const run = runChat(events, { includeUsage: g.includeUsage });
      const summary = checkChatStream(run.frames, g.includeUsage);
      assertChatAgreement(summary, run);
      matchGolden(g.name, {
        events,
        includeUsage: g.includeUsage,
        stream: framesForGolden(run.frames),
        body: run.body,
        thrown: errorData(run.thrown),
      });
    });
  }
});

describe("ChatEncoder rules", () => {
  test("start alone emits nothing; the role rides on the first output chunk", () => {
    const enc = new ChatEncoder(CHAT_OPTIONS);
    assert.deepEqual(enc.push({ type: "start", sessionId: "s", warnings: [warn.ignored("w")] }), []);
    assert.equal(enc.outputStarted, false);
    const [frame] = enc.push({ type: "text-delta", delta: "Hi" });
    assert.deepEqual(JSON.parse(frame!.data).choices[0].delta, { role: "assistant", content: "Hi" });
    assert.equal(enc.outputStarted, true);
    const [second] = enc.push({ type: "text-delta", delta: "!" });
    assert.deepEqual(JSON.parse(second!.data).choices[0].delta, { content: "!" });
  });

  test("empty deltas produce no chunk", () => {
    const enc = new ChatEncoder(CHAT_OPTIONS);
    assert.deepEqual(enc.push({ type: "text-delta", delta: "" }), []);
    assert.deepEqual(enc.push({ type: "reasoning-delta", delta: "" }), []);
    assert.equal(enc.outputStarted, false);
  });

  test("a tool call is one chunk with index, id, type, complete name and arguments, and no content", () => {
    const run = runChat([
      { type: "tool-call", id: "call_1", name: "get_weather", arguments: '{"city":"Oslo"}' },
      { type: "finish", reason: "tool_calls", usage: USAGE },
    ]);
    const first = JSON.parse(run.frames[0]!.data);
    assert.deepEqual(first.choices[0].delta, {
      role: "assistant",
      tool_calls: [
        { index: 0, id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } },
      ],
    });
    assert.equal(run.body?.choices[0].message.content, null, "content is null when the turn is only tool calls");
    assert.equal(run.body?.choices[0].finish_reason, "tool_calls");
  });

  test("empty or whitespace arguments become {} in stream and JSON", () => {
    for (const args of ["", "  "]) {
      const run = runChat([
        { type: "tool-call", id: "c", name: "now", arguments: args },
        { type: "finish", reason: "tool_calls", usage: USAGE },
      ]);
      const summary = checkChatStream(run.frames, false);
      assert.equal(summary.toolCalls[0]?.arguments, "{}");
      assert.equal(run.body?.choices[0].message.tool_calls?.[0]?.function.arguments, "{}");
    }
  });

  test("finish_reason is tool_calls exactly when calls are present", () => {
    assert.equal(chatFinishReason("stop", 2), "tool_calls");
    assert.equal(chatFinishReason("length", 1), "tool_calls");
    assert.equal(chatFinishReason("tool_calls", 0), "stop");
    assert.equal(chatFinishReason("length", 0), "length");
    assert.equal(chatFinishReason("content_filter", 0), "content_filter");
  });

  test("usage maps to the OpenAI shape with cached and reasoning details", () => {
    assert.deepEqual(toChatUsage(USAGE), {
      prompt_tokens: 21,
      completion_tokens: 9,
      total_tokens: 30,
      prompt_tokens_details: { cached_tokens: 5 },
      completion_tokens_details: { reasoning_tokens: 3 },
    });
  });

  test("usage chunk only with includeUsage, last before [DONE], same id as the other chunks", () => {
    const withUsage = runChat(SCENARIOS.text!, { includeUsage: true });
    const frames = withUsage.frames.map((f) => f.data);
    assert.equal(frames.at(-1), "[DONE]");
    const usageChunk = JSON.parse(frames.at(-2)!);
    assert.deepEqual(usageChunk.choices, []);
    assert.equal(usageChunk.id, CHAT_OPTIONS.id);
    assert.equal(usageChunk.usage.total_tokens, usageChunk.usage.prompt_tokens + usageChunk.usage.completion_tokens);
    const without = runChat(SCENARIOS.text!, { includeUsage: false });
    assert.ok(without.frames.every((f) => f.data === "[DONE]" || JSON.parse(f.data).choices.length === 1));
  });

  test("an error after output: one in-band error frame, no finish_reason, no [DONE], completion() throws", () => {
    const run = runChat(SCENARIOS["error-after-output"]!, { includeUsage: true });
    assert.equal(run.frames.length, 2);
    assert.deepEqual(JSON.parse(run.frames[1]!.data), {
      error: {
        message: "The provider closed the connection.",
        type: "server_error",
        param: null,
        code: "upstream_error",
      },
    });
    assert.equal(run.thrown?.status, 502);
    assert.equal(run.thrown?.code, "upstream_error");
  });

  test("an error before output: outputStarted stays false and failure carries status and Retry-After", () => {
    const enc = new ChatEncoder(CHAT_OPTIONS);
    const frames = enc.push({
      type: "error",
      error: { code: "upstream_rate_limited", status: 429, message: "slow down", retryAfter: 7 },
    });
    assert.equal(frames.length, 1, "the in-band frame is offered in case headers were already committed");
    assert.equal(enc.outputStarted, false);
    assert.equal(enc.failure?.status, 429);
    assert.equal(enc.failure?.code, "upstream_rate_limited");
    assert.equal(enc.failure?.retryAfter, 7);
    assert.deepEqual(enc.end(), []);
    assert.throws(
      () => enc.body(),
      (err: Error & { status?: number }) => err.status === 429,
    );
  });

  test("a backend error code outside shared/errors becomes upstream_error and keeps its status", () => {
    const run = runChat([{ type: "error", error: { code: "weird_code", status: 503, message: "busy" } }]);
    assert.deepEqual(JSON.parse(run.frames[0]!.data).error, {
      message: "busy",
      type: "service_unavailable",
      param: null,
      code: "upstream_error",
    });
    assert.equal(run.thrown?.status, 503);
  });

  test("a stream cut without finish or error ends with an upstream_error frame and no [DONE]", () => {
    const run = runChat(SCENARIOS["cut-stream"]!);
    const last = JSON.parse(run.frames.at(-1)!.data);
    assert.equal(last.error.code, "upstream_error");
    assert.equal(run.thrown?.code, "upstream_error");
  });

  test("events after the terminal event are ignored and end() is idempotent", () => {
    const enc = new ChatEncoder(CHAT_OPTIONS);
    enc.push({ type: "text-delta", delta: "a" });
    enc.push({ type: "finish", reason: "stop", usage: USAGE });
    const extra: ModelEvent[] = [
      { type: "text-delta", delta: "late" },
      { type: "finish", reason: "stop", usage: USAGE },
      { type: "error", error: { code: "upstream_error", status: 502, message: "x" } },
    ];
    for (const e of extra) assert.deepEqual(enc.push(e), []);
    assert.deepEqual(enc.end(), [{ data: "[DONE]" }]);
    assert.deepEqual(enc.end(), []);
    assert.equal(enc.body().choices[0].message.content, "a");
  });

  test("an empty answer still sends a role chunk; JSON content is an empty string", () => {
    const run = runChat(SCENARIOS["empty-answer"]!);
    assert.deepEqual(JSON.parse(run.frames[0]!.data).choices[0].delta, { role: "assistant", content: "" });
    assert.equal(run.body?.choices[0].message.content, "");
  });

  test("reasoning goes to delta.reasoning_content and message.reasoning_content", () => {
    const run = runChat(SCENARIOS.reasoning!);
    assert.deepEqual(JSON.parse(run.frames[0]!.data).choices[0].delta, {
      role: "assistant",
      reasoning_content: "The user greets; ",
    });
    assert.equal(run.body?.choices[0].message.reasoning_content, "The user greets; answer briefly.");
    assert.equal(run.body?.choices[0].message.content, "Hi!");
  });

  test("id, created and model are the injected ones on every chunk and on the completion", () => {
    const run = runChat(SCENARIOS["parallel-tool-calls"]!, {
      includeUsage: true,
      id: "chatcmpl-xyz",
      created: 42,
      model: "alias-1",
    });
    for (const f of run.frames.slice(0, -1)) {
      const c = JSON.parse(f.data);
      assert.deepEqual([c.id, c.created, c.model], ["chatcmpl-xyz", 42, "alias-1"]);
    }
    assert.deepEqual(
      [run.body?.id, run.body?.created, run.body?.model, run.body?.object],
      ["chatcmpl-xyz", 42, "alias-1", "chat.completion"],
    );
  });
});
