// Every compat case (tests/fixtures/compat-cases.jsonl) whose request goes to /v1/chat/completions or /v1/responses,
// run through the pure decoders: the codec-level part of each case (accepted, or refused with the param it allows).
// The HTTP-level assertions of these cases belong to the integration tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { PatchbayError } from "../../../../server/core/errors";
import type { NeutralRequest } from "../../../../server/core/contract";
import { decodeChatRequest } from "../../../../server/wires/openai-chat/decode";
import { decodeResponsesRequest } from "../../../../server/wires/openai-responses/decode";

interface CompatCase {
  id: string;
  request: { method: string; path: string; body: unknown };
}

const cases: CompatCase[] = readFileSync(new URL("../../../fixtures/compat-cases.jsonl", import.meta.url), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as CompatCase);

/** Replaces `$MODEL`-style placeholders: models become a catalog id, hosts a loopback address. */
function substitute(body: unknown): unknown {
  return JSON.parse(
    JSON.stringify(body)
      .replace(/\$FIXTURE_HOST/g, "127.0.0.1:9")
      .replace(/\$[A-Z_]+/g, "demo/echo"),
  );
}

/** Cases the codec refuses on purpose, with the params their assertions allow. */
const REFUSED: Record<string, string[]> = {
  "CC-N-MULTIPLE-CHOICES": ["n"],
  "CC-LOGPROBS-SHAPE": ["logprobs", "top_logprobs"],
  // temperature 7 is out of OpenAI's range (0..2): refused before any upstream call, which meets every assertion of
  // the case (400 JSON, invalid_request_error, param temperature); the upstream variant needs a valid request.
  "CC-STREAM-PRESTREAM-UPSTREAM-ERROR-STATUS": ["temperature"],
};

/** Extra codec-level checks per case. */
const CHECKS: Record<string, (req: NeutralRequest) => void> = {
  "CC-STREAM-USAGE-CHUNK": (r) => assert.deepEqual([r.stream, r.includeUsage], [true, true]),
  "CC-STREAM-NO-EMPTY-CHOICES-WITHOUT-USAGE": (r) => assert.equal(r.includeUsage, false),
  "CC-STREAM-TOOL-DELTA-SHAPE": (r) => assert.deepEqual(r.toolChoice, { type: "function", name: "get_weather" }),
  "CC-PARALLEL-TOOL-CALLS": (r) => assert.equal(r.generation.parallelToolCalls, true),
  "CC-ASSISTANT-CONTENT-NULL-WITH-TOOLCALLS": (r) =>
    assert.deepEqual(r.messages[1], {
      role: "assistant",
      content: [],
      toolCalls: [{ id: "call_abc", name: "get_secret_number", arguments: "{}" }],
    }),
  "CC-ASSISTANT-CONTENT-EMPTY-STRING-WITH-TOOLCALLS": (r) =>
    assert.deepEqual(r.messages[1]?.role === "assistant" && r.messages[1].content, []),
  "CC-ASSISTANT-CONTENT-PARTS": (r) => {
    assert.deepEqual(r.system, ["You are terse."]);
    assert.deepEqual(r.messages[1], {
      role: "assistant",
      content: [{ type: "text", text: "Noted: your favourite colour is teal." }],
      toolCalls: [],
    });
  },
  "CC-DEVELOPER-ROLE": (r) =>
    assert.deepEqual([r.system, r.generation.maxOutputTokens, r.generation.temperature], [["Be brief."], 16, 0]),
  "CC-TOOLCHOICE-NONE-PARALLEL-FALSE-NO-TOOLS": (r) =>
    assert.deepEqual([r.toolChoice, r.tools, r.generation.parallelToolCalls], ["none", [], false]),
  "CC-STOP-SCALAR-STRING": (r) => assert.deepEqual(r.generation.stop, ["STOP"]),
  "CC-OPTIONAL-PARAMS-TOLERATED": (r) => assert.deepEqual([r.generation.seed, r.promptCacheKey], [42, "user-1234"]),
  "CC-TOOL-STRICT-FLAG": (r) => assert.equal(r.tools[0]?.strict, true),
  "CC-JSON-SCHEMA-NO-FENCES": (r) =>
    assert.equal(r.responseFormat.type === "json_schema" && r.responseFormat.name, "person"),
  "CC-JSON-OBJECT-MODE": (r) => assert.deepEqual(r.responseFormat, { type: "json_object" }),
  "CC-IMAGE-DATA-URL-AND-HTTP-URL": (r) => {
    const content = r.messages[0]?.role === "user" ? r.messages[0].content : [];
    assert.deepEqual(
      content.map((p) => (p.type === "media" ? p.mediaType : p.type)),
      ["text", "image/png", "image/png"],
    );
  },
  "RESP-INPUT-STRING-AND-INSTRUCTIONS": (r) => assert.deepEqual(r.system, ["Answer in one word."]),
  "RESP-INPUT-FUNCTION-CALL-HISTORY": (r) =>
    assert.deepEqual(
      r.messages.map((m) => m.role),
      ["user", "assistant", "tool", "tool"],
    ),
  "RESP-STREAM-COMPLETED-OBJECT": (r) => assert.deepEqual(r.system, ["Be terse."]),
};

describe("compat cases through the decoders", () => {
  const relevant = cases.filter(
    (c) => c.request.body !== null && (c.request.path === "/v1/chat/completions" || c.request.path === "/v1/responses"),
  );
  test("the fixture holds chat and Responses cases", () => {
    assert.ok(relevant.length >= 25, `found ${relevant.length}`);
  });
  for (const c of relevant) {
    test(c.id, () => {
      const body = substitute(c.request.body);
      const run = () =>
        c.request.path === "/v1/responses" ? decodeResponsesRequest(body).request : decodeChatRequest(body);
      const refused = REFUSED[c.id];
      if (refused) {
        assert.throws(
          run,
          (err) => err instanceof PatchbayError && err.status === 400 && refused.includes(err.param ?? ""),
        );
        return;
      }
      const request = run();
      CHECKS[c.id]?.(request);
    });
  }
});
