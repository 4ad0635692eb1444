// MessagesEncoder: golden streams and bodies for the shared neutral scenarios, agreement between the stream (as the
// official SDK assembles it) and the JSON body, and the wire rules Anthropic clients rely on.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import Anthropic from "@anthropic-ai/sdk";
import {
  MessagesEncoder,
  anthropicStopReason,
  toAnthropicUsage,
  toolInputOf,
} from "../../../../server/wires/anthropic-messages/encode";
import { errorData, matchGolden, USAGE } from "../openai/helpers";
import { SCENARIOS } from "../openai/scenarios";
import { MESSAGE_OPTIONS, framesForGolden, runMessages, sdkFinalMessage } from "./helpers";

describe("MessagesEncoder golden files", () => {
  for (const scenario of Object.keys(SCENARIOS)) {
    test(`anthropic-${scenario}`, async () => {
      const events = SCENARIOS[scenario]!;
      const run = runMessages(events);
      matchGolden(`anthropic-${scenario}`, {
        events,
        stream: framesForGolden(run.frames),
        body: run.body,
        thrown: errorData(run.thrown),
      });
      // The SDK's own stream assembly and the JSON body say the same thing.
      const final = await sdkFinalMessage(run.frames).then(
        (m) => ({ message: m, error: null }),
        (e: unknown) => ({ message: null, error: e }),
      );
      if (run.body) {
        assert.deepEqual(final.error, null);
        // The SDK adds its own `parsed_output` (structured-output helper); the rest must match exactly.
        const { parsed_output: _parsed, ...sdk } = JSON.parse(JSON.stringify(final.message)) as Record<string, unknown>;
        assert.deepEqual(sdk, run.body);
      } else {
        assert.ok(run.thrown, "a failed run throws from message()");
        assert.ok(final.error instanceof Anthropic.AnthropicError, `SDK error: ${String(final.error)}`);
        assert.match(String((final.error as Error).message), new RegExp(escape(run.thrown.message.slice(0, 30))));
      }
    });
  }
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

describe("MessagesEncoder rules", () => {
  test("usage: input_tokens excludes cache reads", () => {
    assert.deepEqual(toAnthropicUsage(USAGE), {
      input_tokens: 16,
      output_tokens: 9,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 5,
    });
  });

  test("stop reasons", () => {
    assert.equal(anthropicStopReason("stop", 0), "end_turn");
    assert.equal(anthropicStopReason("stop", 2), "tool_use");
    assert.equal(anthropicStopReason("tool_calls", 0), "end_turn");
    assert.equal(anthropicStopReason("length", 0), "max_tokens");
    assert.equal(anthropicStopReason("content_filter", 0), "refusal");
  });

  test("tool input: objects parsed, anything else is {}", () => {
    assert.deepEqual(toolInputOf('{"a":1}'), { a: 1 });
    assert.deepEqual(toolInputOf(""), {});
    assert.deepEqual(toolInputOf("[1]"), {});
    assert.deepEqual(toolInputOf("{bad"), {});
  });

  test("every frame is a named event whose data.type equals the event name", () => {
    for (const events of Object.values(SCENARIOS)) {
      for (const f of runMessages(events).frames) {
        assert.ok(f.event, "named event");
        assert.equal((JSON.parse(f.data) as { type: string }).type, f.event);
      }
    }
  });

  test("blocks switch kind: thinking → text → thinking are three blocks, indexes contiguous", () => {
    const enc = new MessagesEncoder(MESSAGE_OPTIONS);
    const frames = [
      ...enc.push({ type: "reasoning-delta", delta: "a" }),
      ...enc.push({ type: "text-delta", delta: "b" }),
      ...enc.push({ type: "reasoning-delta", delta: "c" }),
      ...enc.push({ type: "finish", reason: "stop", usage: USAGE }),
    ];
    const starts = frames.filter((f) => f.event === "content_block_start").map((f) => JSON.parse(f.data).index);
    const stops = frames.filter((f) => f.event === "content_block_stop").map((f) => JSON.parse(f.data).index);
    assert.deepEqual(starts, [0, 1, 2]);
    assert.deepEqual(stops, [0, 1, 2]);
    assert.deepEqual(
      enc.body().content.map((b) => b.type),
      ["thinking", "text", "thinking"],
    );
  });

  test("a signature ends its thinking block with signature_delta; the SDK keeps it", async () => {
    const enc = new MessagesEncoder(MESSAGE_OPTIONS);
    const frames = [
      ...enc.push({ type: "reasoning-delta", delta: "Let me think." }),
      ...enc.push({ type: "reasoning-delta", delta: "", signature: "EqQBsig==" }),
      ...enc.push({ type: "text-delta", delta: "Done." }),
      ...enc.push({ type: "finish", reason: "stop", usage: USAGE }),
    ];
    assert.deepEqual(
      frames.map((f) => {
        const d = JSON.parse(f.data) as { delta?: { type: string } };
        return d.delta?.type ?? f.event;
      }),
      [
        "message_start",
        "content_block_start",
        "thinking_delta",
        "signature_delta",
        "content_block_stop",
        "content_block_start",
        "text_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
      ],
    );
    const body = enc.body();
    assert.deepEqual(body.content, [
      { type: "thinking", thinking: "Let me think.", signature: "EqQBsig==" },
      { type: "text", text: "Done." },
    ]);
    const sdk = await sdkFinalMessage(frames);
    assert.deepEqual(JSON.parse(JSON.stringify(sdk.content)), body.content);
  });

  test("a signature with no thinking text opens an empty thinking block", () => {
    const enc = new MessagesEncoder(MESSAGE_OPTIONS);
    enc.push({ type: "reasoning-delta", delta: "", signature: "s" });
    enc.push({ type: "finish", reason: "stop", usage: USAGE });
    assert.deepEqual(enc.body().content, [{ type: "thinking", thinking: "", signature: "s" }]);
  });

  test("events after finish are ignored; end() is idempotent", () => {
    const enc = new MessagesEncoder(MESSAGE_OPTIONS);
    enc.push({ type: "finish", reason: "stop", usage: USAGE });
    assert.deepEqual(enc.push({ type: "text-delta", delta: "late" }), []);
    assert.deepEqual(enc.end(), []);
    assert.deepEqual(enc.end(), []);
    assert.deepEqual(enc.body().content, []);
  });

  test("an error is one `event: error` frame in Anthropic's envelope", () => {
    const enc = new MessagesEncoder(MESSAGE_OPTIONS);
    const [frame] = enc.push({
      type: "error",
      error: { code: "upstream_rate_limited", status: 429, message: "slow down" },
    });
    assert.equal(frame?.event, "error");
    assert.deepEqual(JSON.parse(frame!.data), {
      type: "error",
      error: { type: "rate_limit_error", message: "slow down" },
    });
    assert.throws(() => enc.body(), { status: 429 });
  });
});
