// Every /v1/responses and /v1/chat/completions body, stream event and stream chunk the encoders produce in the unit
// and golden tests is valid against the official OpenAI OpenAPI spec (vendored; quirks in openapi-schemas.ts).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import type { ModelEvent } from "../../../../server/core/contract";
import { decodeResponsesRequest } from "../../../../server/wires/openai-responses/decode";
import { SCENARIOS } from "./scenarios";
import { DEFAULT_ECHO, USAGE, runChat, runResponses } from "./helpers";
import { SPEC_QUIRKS, assertConforms, openApiValidators } from "./openapi-schemas";

type Json = Record<string, unknown>;
interface GoldenFrame {
  event?: string;
  data: unknown;
}
interface WireGolden {
  stream: GoldenFrame[];
  body: unknown;
}

const GOLDEN_DIR = new URL("../../../fixtures/golden/", import.meta.url);
const goldens = readdirSync(GOLDEN_DIR).filter((f) => /^(chat|responses)-.*\.json$/.test(f));

function checkResponsesFrames(frames: GoldenFrame[], body: unknown, what: string): number {
  const v = openApiValidators();
  let n = 0;
  for (const f of frames) {
    const data = f.data as Json;
    assertConforms(v.responseEvent(String(data.type)), data, `${what}: event ${String(data.type)}`);
    n++;
  }
  if (body != null) assertConforms(v.schema("Response"), body, `${what}: response body`);
  return n;
}

function checkChatFrames(frames: GoldenFrame[], body: unknown, what: string): number {
  const v = openApiValidators();
  let n = 0;
  for (const f of frames) {
    if (f.data === "[DONE]") continue;
    const data = f.data as Json;
    // An in-band error chunk is `{error: {...}}`, not a chunk object: checked against the error envelope instead.
    if ("error" in data) assertConforms(v.schema("ErrorResponse"), data, `${what}: in-band error`);
    else assertConforms(v.schema("CreateChatCompletionStreamResponse"), data, `${what}: chunk`);
    n++;
  }
  if (body != null) assertConforms(v.schema("CreateChatCompletionResponse"), body, `${what}: completion body`);
  return n;
}

describe("OpenAPI conformance of the golden files", () => {
  test("there are golden files of both wires to check", () => {
    assert.ok(goldens.filter((g) => g.startsWith("chat-")).length >= 5);
    assert.ok(goldens.filter((g) => g.startsWith("responses-")).length >= 10);
  });
  for (const file of goldens) {
    test(file, () => {
      const g = JSON.parse(readFileSync(new URL(file, GOLDEN_DIR), "utf8")) as WireGolden;
      const n = file.startsWith("chat-")
        ? checkChatFrames(g.stream, g.body, file)
        : checkResponsesFrames(g.stream, g.body, file);
      assert.ok(n > 0 || g.body != null, `${file} holds something to check`);
    });
  }
});

describe("OpenAPI conformance of generated output", () => {
  const start: ModelEvent = { type: "start", sessionId: "ses_x", warnings: [] };
  const agent = decodeResponsesRequest({
    model: "m/x",
    input: "go",
    instructions: "Be brief.",
    tool_choice: { type: "custom", name: "apply_patch" },
    tools: [
      { type: "function", name: "exec_command", parameters: { type: "object" }, strict: false },
      { type: "custom", name: "apply_patch", format: { type: "grammar", syntax: "lark", definition: "start: /.+/" } },
      {
        type: "namespace",
        name: "crm",
        description: "CRM.",
        tools: [{ type: "function", name: "lookup", description: "Find.", parameters: { type: "object" } }],
      },
      { type: "web_search" },
    ],
    reasoning: { effort: "low", summary: "auto" },
  });
  const agentEvents: ModelEvent[] = [
    start,
    { type: "reasoning-delta", delta: "hmm" },
    { type: "text-delta", delta: "ok" },
    { type: "tool-call", id: "c1", name: "crm__lookup", arguments: '{"q":1}' },
    { type: "tool-call", id: "c2", name: "apply_patch", arguments: '{"input":"*** Begin Patch"}' },
    { type: "tool-call", id: "c3", name: "exec_command", arguments: "" },
    { type: "finish", reason: "tool_calls", usage: USAGE },
  ];

  test("every scenario through the Responses encoder (default echo and an agent's echo)", () => {
    const runs = [
      ...Object.entries(SCENARIOS).map(([name, events]) => ({ name, run: runResponses(events) })),
      ...Object.entries(SCENARIOS).map(([name, events]) => ({
        name: `${name} (agent echo)`,
        run: runResponses(events, { echo: agent.echo, toolNames: agent.toolNames }),
      })),
      { name: "agent turn", run: runResponses(agentEvents, { echo: agent.echo, toolNames: agent.toolNames }) },
    ];
    for (const { name, run } of runs) {
      const frames = run.frames.map((f) => ({ event: f.event, data: JSON.parse(f.data) as unknown }));
      checkResponsesFrames(frames, run.body, name);
    }
    assert.equal(DEFAULT_ECHO.tools.length, 0);
  });

  test("every scenario through the chat encoder, with and without usage", () => {
    for (const [name, events] of Object.entries(SCENARIOS)) {
      for (const includeUsage of [false, true]) {
        const run = runChat(events, { includeUsage });
        const frames = run.frames.map((f) => ({
          data: f.data === "[DONE]" ? "[DONE]" : (JSON.parse(f.data) as unknown),
        }));
        checkChatFrames(frames, run.body, `${name}${includeUsage ? " (usage)" : ""}`);
      }
    }
  });

  test("the quirks list says why for each entry", () => {
    for (const q of SPEC_QUIRKS) assert.ok(q.why.length > 20 && q.schema.length > 0);
  });
});
