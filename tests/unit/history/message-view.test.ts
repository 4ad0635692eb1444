// Mapping OpenCode messages to the session view: texts, reasoning, tools (names restored), images capped.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dataUrlBytes, mapMessages } from "../../../server/history/message-view";
import type { RawMessage } from "../../../server/history/opencode-port";

const RED16 = `data:image/png;base64,${readFileSync(new URL("../../fixtures/red16.b64", import.meta.url), "utf8").trim()}`;

function msg(
  role: "user" | "assistant",
  parts: RawMessage["parts"],
  extra: Partial<RawMessage["info"]> = {},
): RawMessage {
  return { info: { id: `msg_${role}`, role, time: { created: 10 }, ...extra }, parts };
}

describe("mapMessages", () => {
  test("user text, image inline, other files as placeholders", () => {
    const [m] = mapMessages([
      msg(
        "user",
        [
          { type: "text", text: "What is this?" },
          { type: "file", mime: "image/png", filename: "red.png", url: RED16 },
          { type: "file", mime: "application/pdf", filename: "a.pdf", url: "data:application/pdf;base64,AAAA" },
        ],
        { model: { providerID: "mock", modelID: "mock-vision" } },
      ),
    ]);
    assert.equal(m!.model, "mock/mock-vision");
    assert.deepEqual(m!.parts[0], { type: "text", text: "What is this?", truncated: false, synthetic: false });
    const image = m!.parts[1]!;
    assert.equal(image.type, "image");
    assert.ok(image.type === "image" && image.dataUrl === RED16 && image.bytes === dataUrlBytes(RED16));
    assert.deepEqual(m!.parts[2], { type: "file", mime: "application/pdf", filename: "a.pdf", bytes: 3 });
  });

  test("assistant reasoning, text, tool calls with results and errors; bookkeeping parts dropped", () => {
    const [m] = mapMessages([
      msg(
        "assistant",
        [
          { type: "step-start" },
          { type: "reasoning", text: "thinking", time: { start: 1 } },
          { type: "text", text: "Calling tools" },
          {
            type: "tool",
            callID: "call_1",
            tool: "client_edit",
            state: {
              status: "completed",
              input: { path: "a" },
              output: "ok",
              title: "",
              metadata: {},
              time: { start: 1, end: 2 },
            },
          },
          {
            type: "tool",
            callID: "call_2",
            tool: "get_weather",
            state: { status: "error", input: { city: "Paris" }, error: "denied", time: { start: 1, end: 2 } },
          },
          { type: "tool", callID: "call_3", tool: "lookup", state: { status: "pending", input: {}, raw: "" } },
          { type: "step-finish", reason: "tool-calls", cost: 0, tokens: {} },
        ],
        {
          providerID: "mock",
          modelID: "mock-model",
          finish: "tool-calls",
          tokens: { input: 5, output: 6, reasoning: 7, cache: { read: 8, write: 9 } },
        },
      ),
    ]);
    assert.equal(m!.model, "mock/mock-model");
    assert.equal(m!.finish, "tool-calls");
    assert.deepEqual(m!.tokens, { input: 5, output: 6, reasoning: 7, cacheRead: 8, cacheWrite: 9 });
    assert.deepEqual(
      m!.parts.map((p) => p.type),
      ["reasoning", "text", "tool", "tool", "tool"],
    );
    assert.deepEqual(m!.parts[2], {
      type: "tool",
      callId: "call_1",
      tool: "edit",
      status: "completed",
      input: '{"path":"a"}',
      output: "ok",
      truncated: false,
    });
    assert.deepEqual(m!.parts[3], {
      type: "tool",
      callId: "call_2",
      tool: "get_weather",
      status: "error",
      input: '{"city":"Paris"}',
      output: "denied",
      truncated: false,
    });
    assert.equal(m!.parts[4]!.type === "tool" && m!.parts[4]!.output, null);
  });

  test("long texts are cut and flagged; errors are surfaced", () => {
    const [m] = mapMessages(
      [
        msg("assistant", [{ type: "text", text: "x".repeat(50) }], {
          error: { name: "APIError", data: { message: "upstream said no" } },
        }),
      ],
      { maxText: 10, maxToolText: 10, maxImageBytes: 10, pageImageBytes: 10 },
    );
    assert.deepEqual(m!.parts[0], { type: "text", text: "x".repeat(10), truncated: true, synthetic: false });
    assert.equal(m!.error, "upstream said no");
  });

  test("images over the per-image or per-page budget become placeholders", () => {
    const bytes = dataUrlBytes(RED16)!;
    const limits = { maxText: 100, maxToolText: 100, maxImageBytes: bytes, pageImageBytes: bytes + 1 };
    const image = { type: "file", mime: "image/png", url: RED16 };
    const out = mapMessages([msg("user", [image, image])], limits);
    const [a, b] = out[0]!.parts;
    assert.ok(a?.type === "image" && a.dataUrl !== null, "first fits");
    assert.ok(b?.type === "image" && b.dataUrl === null && b.bytes === bytes, "second exceeds the page budget");
    const tooBig = mapMessages([msg("user", [image])], { ...limits, maxImageBytes: bytes - 1 });
    assert.ok(tooBig[0]!.parts[0]?.type === "image" && tooBig[0]!.parts[0].dataUrl === null);
  });

  test("dataUrlBytes", () => {
    assert.equal(dataUrlBytes("data:text/plain;base64,YWJj"), 3);
    assert.equal(dataUrlBytes("data:text/plain;base64,YQ=="), 1);
    assert.equal(dataUrlBytes("https://example.com/a.png"), null);
  });
});
