// Property: for any event sequence, each encoder's stream (reassembled as a client would) and its JSON body agree, the
// stream obeys every wire rule, and no text or tool call is lost. fast-check generates the sequences.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import type { FinishReason, ModelEvent } from "../../../../server/core/contract";
import { normaliseArguments } from "../../../../server/core/tool-helpers";
import {
  DEFAULT_ECHO,
  assertChatAgreement,
  assertResponsesAgreement,
  checkChatStream,
  checkResponsesStream,
  runChat,
  runResponses,
} from "./helpers";

const text = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.string({ unit: "grapheme", maxLength: 4 }),
  fc.constantFrom("", "\n", "\r\n", "data: [DONE]", "\u2028", "🙂"),
);

const middleEvent: fc.Arbitrary<ModelEvent> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ type: fc.constant("text-delta" as const), delta: text }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant("reasoning-delta" as const), delta: text }) },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant("tool-call" as const),
      id: fc.stringMatching(/^call_[a-z0-9]{1,6}$/),
      name: fc.stringMatching(/^[a-z_]{1,10}$/),
      arguments: fc.oneof(fc.constantFrom("", " ", "{}"), fc.json({ maxDepth: 2 })),
    }),
  },
);

const usage = fc.record({
  inputTokens: fc.nat(5000),
  outputTokens: fc.nat(5000),
  cachedInputTokens: fc.nat(100),
  reasoningTokens: fc.nat(100),
});

const terminal: fc.Arbitrary<ModelEvent | null> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      type: fc.constant("finish" as const),
      reason: fc.constantFrom<FinishReason>("stop", "length", "tool_calls", "content_filter"),
      usage,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant("error" as const),
      error: fc.record({
        code: fc.constantFrom("upstream_error", "upstream_rate_limited", "timeout", "something_else", ""),
        status: fc.constantFrom(429, 500, 502, 503, 504),
        message: fc.oneof(fc.constant(""), fc.string({ minLength: 1, maxLength: 20 })),
      }),
    }),
  },
  { weight: 1, arbitrary: fc.constant(null) },
);

const sequence = fc
  .tuple(fc.array(middleEvent, { maxLength: 12 }), terminal)
  .map(([middle, end]): ModelEvent[] => [
    { type: "start", sessionId: "ses_p", warnings: [] },
    ...middle,
    ...(end ? [end] : []),
  ]);

const textOf = (events: ModelEvent[], type: "text-delta" | "reasoning-delta") =>
  events.map((e) => (e.type === type ? e.delta : "")).join("");
const callsOf = (events: ModelEvent[]) =>
  events.flatMap((e) =>
    e.type === "tool-call" ? [{ id: e.id, name: e.name, arguments: normaliseArguments(e.arguments) }] : [],
  );

describe("stream and JSON agree for generated event sequences", () => {
  test("chat completions", () => {
    fc.assert(
      fc.property(sequence, fc.boolean(), (events, includeUsage) => {
        const run = runChat(events, { includeUsage });
        const summary = checkChatStream(run.frames, includeUsage);
        assertChatAgreement(summary, run);
        assert.equal(summary.content, textOf(events, "text-delta"), "no text lost or added");
        assert.equal(summary.reasoning, textOf(events, "reasoning-delta"));
        assert.deepEqual(summary.toolCalls, callsOf(events), "no tool call lost or changed");
      }),
      { numRuns: 400 },
    );
  });

  test("responses", () => {
    fc.assert(
      fc.property(sequence, fc.boolean(), (events, summaryRequested) => {
        const echo = summaryRequested
          ? { ...DEFAULT_ECHO, reasoning: { effort: null, summary: "auto" } }
          : DEFAULT_ECHO;
        const run = runResponses(events, { echo });
        const summary = checkResponsesStream(run.frames);
        assertResponsesAgreement(summary, run);
        const items = summary.terminal.response.output;
        const messageText = items.map((i) => (i.type === "message" ? (i.content[0]?.text ?? "") : "")).join("");
        assert.equal(messageText, textOf(events, "text-delta"), "no text lost or added");
        const reasoning = items.map((i) => (i.type === "reasoning" ? (i.summary[0]?.text ?? "") : "")).join("");
        assert.equal(reasoning, summaryRequested ? textOf(events, "reasoning-delta") : "");
        assert.deepEqual(
          items.flatMap((i) =>
            i.type === "function_call" ? [{ id: i.call_id, name: i.name, arguments: i.arguments }] : [],
          ),
          callsOf(events),
        );
        const last = events.at(-1);
        const expected =
          last?.type === "finish"
            ? last.reason === "length" || last.reason === "content_filter"
              ? "response.incomplete"
              : "response.completed"
            : "response.failed";
        assert.equal(summary.terminal.type, expected);
      }),
      { numRuns: 400 },
    );
  });
});
