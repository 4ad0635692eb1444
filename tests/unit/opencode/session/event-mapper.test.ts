// Golden tests for the OpenCode event mapper: recorded real event streams (tests/fixtures/opencode-events/*.jsonl,
// see tests/harness/record-opencode-events.ts) replayed through mapOpenCodeEvent, compared with <name>.golden.json.
// UPDATE_GOLDEN=1 rewrites the golden files after a deliberate change. Plus focused cases the recordings cannot show.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ModelEvent } from "../../../../server/core/contract";
import type { OpenCodeEvent } from "../../../../server/opencode/session/event-hub";
import { matchGoldenFile } from "../../../harness/golden";
import {
  createMapperState,
  finishNow,
  IGNORED_TOOL_CHOICE_WARNING,
  mapOpenCodeEvent,
  type MapperInit,
} from "../../../../server/opencode/session/event-mapper";

const DIR = fileURLToPath(new URL("../../../fixtures/opencode-events/", import.meta.url));

function replay(file: string): ModelEvent[] {
  const [head, ...rest] = fs.readFileSync(file, "utf8").trim().split("\n");
  const meta = (JSON.parse(head!) as { meta: Omit<MapperInit, "toolNames"> & { toolNames: Record<string, string> } })
    .meta;
  const state = createMapperState({
    sessionID: meta.sessionID,
    toolNames: new Map(Object.entries(meta.toolNames)),
    structured: meta.structured,
  });
  const out: ModelEvent[] = [];
  for (const line of rest) {
    const { receivedAt, event } = JSON.parse(line) as { receivedAt: number; event: OpenCodeEvent };
    out.push(...mapOpenCodeEvent(event, state, receivedAt));
  }
  return out;
}

describe("event mapper: recorded OpenCode streams vs golden output", () => {
  const fixtures = fs
    .readdirSync(DIR)
    .filter((f) => f.endsWith(".jsonl"))
    .sort();
  test("there are recordings to replay", () => assert.ok(fixtures.length >= 10, `only ${fixtures.length} fixtures`));
  for (const f of fixtures) {
    const name = f.replace(/\.jsonl$/, "");
    test(name, () => {
      const actual = replay(path.join(DIR, f));
      matchGoldenFile(path.join(DIR, `${name}.golden.json`), actual);
      const terminal = actual.filter((e) => e.type === "finish" || e.type === "error");
      assert.equal(terminal.length, 1, "exactly one finish or error");
      assert.equal(actual.at(-1), terminal[0], "nothing after the terminal event");
    });
  }
});

describe("event mapper: focused cases", () => {
  const init: MapperInit = {
    sessionID: "ses_1",
    toolNames: new Map([
      ["get_time", "get_time"],
      ["client_write", "write"],
    ]),
    structured: null,
  };
  const ev = (type: string, properties: Record<string, unknown>): OpenCodeEvent => ({ type, properties });
  const assistant = (extra: Record<string, unknown> = {}) =>
    ev("message.updated", { sessionID: "ses_1", info: { id: "msg_a", role: "assistant", ...extra } });

  test("tool_choice required but the model answered with text: its text, finish stop, and a warning (issue 16 item 6)", () => {
    for (const via of ["session.error", "message.updated"] as const) {
      const s = createMapperState(init);
      mapOpenCodeEvent(assistant(), s);
      const text = mapOpenCodeEvent(
        ev("message.part.updated", {
          sessionID: "ses_1",
          part: { id: "p1", messageID: "msg_a", sessionID: "ses_1", type: "text", text: "It is noon." },
        }),
        s,
      );
      assert.deepEqual(text, [{ type: "text-delta", delta: "It is noon." }]);
      const error = { name: "StructuredOutputError", data: { message: "Model did not produce structured output" } };
      const out =
        via === "session.error"
          ? mapOpenCodeEvent(ev("session.error", { sessionID: "ses_1", error }), s)
          : mapOpenCodeEvent(assistant({ finish: "stop", error }), s);
      assert.equal(out.length, 1, via);
      const fin = out[0];
      assert.ok(fin?.type === "finish", via);
      assert.equal(fin.reason, "stop");
      assert.deepEqual(fin.warnings, [IGNORED_TOOL_CHOICE_WARNING]);
    }
  });

  test("response_format sent as structured output (native) that the model did not produce stays an error", () => {
    const s = createMapperState({ ...init, structured: "native" });
    mapOpenCodeEvent(assistant(), s);
    const out = mapOpenCodeEvent(
      ev("session.error", { sessionID: "ses_1", error: { name: "StructuredOutputError", data: {} } }),
      s,
    );
    assert.equal(out[0]?.type, "error");
    assert.match(out[0]?.type === "error" ? out[0].error.message : "", /response_format/);
  });

  test("user message parts are never emitted as output", () => {
    const s = createMapperState(init);
    mapOpenCodeEvent(ev("message.updated", { sessionID: "ses_1", info: { id: "msg_u", role: "user" } }), s);
    const out = mapOpenCodeEvent(
      ev("message.part.updated", {
        sessionID: "ses_1",
        part: { id: "p_u", messageID: "msg_u", sessionID: "ses_1", type: "text", text: "Hello" },
      }),
      s,
    );
    assert.deepEqual(out, []);
  });

  test("full text ahead of the deltas is caught up once, never duplicated", () => {
    const s = createMapperState(init);
    mapOpenCodeEvent(assistant(), s);
    const part = (text: string) =>
      ev("message.part.updated", {
        sessionID: "ses_1",
        part: { id: "p1", messageID: "msg_a", sessionID: "ses_1", type: "text", text },
      });
    assert.deepEqual(mapOpenCodeEvent(part(""), s), []);
    assert.deepEqual(
      mapOpenCodeEvent(
        ev("message.part.delta", { sessionID: "ses_1", messageID: "msg_a", partID: "p1", field: "text", delta: "Hel" }),
        s,
      ),
      [{ type: "text-delta", delta: "Hel" }],
    );
    assert.deepEqual(mapOpenCodeEvent(part("Hello"), s), [{ type: "text-delta", delta: "lo" }]);
    assert.deepEqual(mapOpenCodeEvent(part("Hello"), s), []);
  });

  test("renamed tool names map back; pending parts without input are not flushed as calls", () => {
    const s = createMapperState(init);
    mapOpenCodeEvent(assistant({ finish: "tool-calls" }), s);
    const tp = (callID: string, tool: string, state: Record<string, unknown>) =>
      ev("message.part.updated", {
        sessionID: "ses_1",
        part: { id: `p_${callID}`, messageID: "msg_a", sessionID: "ses_1", type: "tool", callID, tool, state },
      });
    mapOpenCodeEvent(tp("c1", "client_write", { status: "running", input: { path: "x" } }), s);
    mapOpenCodeEvent(tp("c2", "get_time", { status: "pending", input: {}, raw: "" }), s);
    const out = finishNow(s);
    assert.deepEqual(out[0], { type: "tool-call", id: "c1", name: "write", arguments: '{"path":"x"}' });
    assert.equal(out.length, 2);
    assert.equal(out[1]?.type === "finish" && out[1].reason, "tool_calls");
  });

  test("the plugin's single-step refusal is not an error; later events are ignored after finish", () => {
    const s = createMapperState(init);
    mapOpenCodeEvent(assistant({ finish: "tool-calls" }), s); // the first (allowed) step ended properly
    const refusal = ev("session.error", {
      sessionID: "ses_1",
      error: {
        name: "UnknownError",
        data: { message: "Error: patchbay: refusing a second model call for a single-step request\n at x" },
      },
    });
    assert.deepEqual(mapOpenCodeEvent(refusal, s), []);
    assert.equal(mapOpenCodeEvent(ev("session.idle", { sessionID: "ses_1" }), s)[0]?.type, "finish");
    assert.deepEqual(
      mapOpenCodeEvent(
        ev("session.error", {
          sessionID: "ses_1",
          error: { name: "APIError", data: { message: "x", statusCode: 500, isRetryable: true } },
        }),
        s,
      ),
      [],
    );
  });

  test("content-filter finishes as content_filter, not as an error", () => {
    const s = createMapperState(init);
    mapOpenCodeEvent(
      assistant({
        finish: "content-filter",
        tokens: { input: 1, output: 1, reasoning: 0, cache: { read: 0, write: 0 } },
      }),
      s,
    );
    assert.deepEqual(
      mapOpenCodeEvent(
        ev("session.error", {
          sessionID: "ses_1",
          error: { name: "ContentFilterError", data: { message: "blocked" } },
        }),
        s,
      ),
      [],
    );
    const out = mapOpenCodeEvent(ev("session.status", { sessionID: "ses_1", status: { type: "idle" } }), s);
    assert.deepEqual(out, [
      {
        type: "finish",
        reason: "content_filter",
        usage: { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0, reasoningTokens: 0 },
      },
    ]);
  });

  test("cache writes are counted in input and reported as cacheWriteTokens", () => {
    const s = createMapperState(init);
    mapOpenCodeEvent(
      assistant({ finish: "stop", tokens: { input: 10, output: 2, reasoning: 1, cache: { read: 4, write: 6 } } }),
      s,
    );
    const out = mapOpenCodeEvent(ev("session.idle", { sessionID: "ses_1" }), s);
    assert.deepEqual(out[0]?.type === "finish" && out[0].usage, {
      inputTokens: 20,
      outputTokens: 3,
      cachedInputTokens: 4,
      reasoningTokens: 1,
      cacheWriteTokens: 6,
    });
  });

  const cutOff = {
    code: "upstream_error",
    status: 502,
    message: "The provider ended the answer without finishing it (the stream was cut off or malformed).",
  };
  const idle = () => ev("session.idle", { sessionID: "ses_1" });
  const stepFinish = (reason: string | undefined, output: number) =>
    ev("message.part.updated", {
      sessionID: "ses_1",
      part: {
        id: "p_sf",
        messageID: "msg_a",
        sessionID: "ses_1",
        type: "step-finish",
        ...(reason ? { reason } : {}),
        tokens: { input: output ? 5 : 0, output, reasoning: 0, cache: { read: 0, write: 0 } },
      },
    });

  test('finish "unknown" without the provider\'s usage report (stream cut off or not SSE) is an error, after what was streamed', () => {
    const s = createMapperState(init);
    mapOpenCodeEvent(assistant(), s);
    const text = ev("message.part.updated", {
      sessionID: "ses_1",
      part: { id: "p1", messageID: "msg_a", sessionID: "ses_1", type: "text", text: "hello" },
    });
    assert.deepEqual(mapOpenCodeEvent(text, s), [{ type: "text-delta", delta: "hello" }]);
    mapOpenCodeEvent(stepFinish("unknown", 0), s);
    mapOpenCodeEvent(assistant({ finish: "unknown" }), s);
    assert.deepEqual(mapOpenCodeEvent(idle(), s), [{ type: "error", error: cutOff }]);
    assert.deepEqual(mapOpenCodeEvent(idle(), s), [], "nothing after the error");
  });

  test('no finish at all is an error too; finish "error" is an error', () => {
    const s = createMapperState(init);
    mapOpenCodeEvent(assistant(), s);
    assert.deepEqual(mapOpenCodeEvent(idle(), s), [{ type: "error", error: cutOff }]);
    const e = createMapperState(init);
    mapOpenCodeEvent(stepFinish("error", 3), e);
    const out = mapOpenCodeEvent(idle(), e);
    assert.equal(out.length, 1);
    assert.equal(out[0]?.type === "error" && out[0].error.code, "upstream_error");
    assert.equal(out[0]?.type === "error" && out[0].error.status, 502);
  });

  test('finish "unknown" WITH the provider\'s final usage (a non-standard finish_reason such as end_turn) finishes as stop', () => {
    const s = createMapperState(init);
    mapOpenCodeEvent(stepFinish("unknown", 7), s);
    assert.deepEqual(mapOpenCodeEvent(idle(), s), [
      {
        type: "finish",
        reason: "stop",
        usage: { inputTokens: 5, outputTokens: 7, cachedInputTokens: 0, reasoningTokens: 0 },
      },
    ]);
  });

  test("tool names that are Object.prototype keys map exactly (no inherited lookups)", () => {
    const s = createMapperState({
      ...init,
      toolNames: new Map([
        ["constructor", "constructor"],
        ["__proto__", "__proto__"],
      ]),
    });
    mapOpenCodeEvent(assistant({ finish: "tool-calls" }), s);
    const tp = (callID: string, tool: string) =>
      ev("message.part.updated", {
        sessionID: "ses_1",
        part: {
          id: `p_${callID}`,
          messageID: "msg_a",
          sessionID: "ses_1",
          type: "tool",
          callID,
          tool,
          state: { status: "error", input: { a: 1 }, error: "rejected" },
        },
      });
    assert.deepEqual(mapOpenCodeEvent(tp("c1", "toString"), s), [
      { type: "tool-call", id: "c1", name: "toString", arguments: '{"a":1}' },
    ]);
    assert.deepEqual(mapOpenCodeEvent(tp("c2", "__proto__"), s), [
      { type: "tool-call", id: "c2", name: "__proto__", arguments: '{"a":1}' },
    ]);
    assert.deepEqual(mapOpenCodeEvent(tp("c3", "constructor"), s), [
      { type: "tool-call", id: "c3", name: "constructor", arguments: '{"a":1}' },
    ]);
  });

  test("fail-closed error from the plugin becomes 503 backend_unavailable", () => {
    const s = createMapperState(init);
    const out = mapOpenCodeEvent(
      ev("session.error", {
        sessionID: "ses_1",
        error: {
          name: "UnknownError",
          data: { message: "Error: patchbay: no request data for this session (side channel unavailable)" },
        },
      }),
      s,
    );
    assert.equal(out[0]?.type === "error" && out[0].error.code, "backend_unavailable");
  });
});
