// Thinking round trip through OpenCode's bundled @ai-sdk/anthropic provider (a custom provider pointed at a mock
// Anthropic upstream): a signed thinking block reaches the client with its signature, and replayed in history it
// reaches the upstream unchanged. For a non-Anthropic upstream: reasoning comes out as thinking without signature,
// and thinking blocks in history are not sent (warned).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import Anthropic from "@anthropic-ai/sdk";
import { MockAnthropicUpstream, anthropicProviderConfig } from "../harness/mock-anthropic-upstream";
import { startPatchbayFixture, type PatchbayFixture } from "../harness/patchbay-fixture";

type Json = Record<string, unknown>;

let fx: PatchbayFixture;
let upstream: MockAnthropicUpstream;
let client: Anthropic;
let root: string;
let key: string;
const CLAUDE = "anthro/mock-claude";
const SIGNATURE = "EqoBCkgIARABGAIiQMock+Signature/0123456789==";

before(async () => {
  upstream = await new MockAnthropicUpstream().start();
  fx = await startPatchbayFixture({ extraProviders: anthropicProviderConfig(upstream.baseURL) });
  key = await fx.createKey("thinking");
  root = fx.apiBase.replace(/\/v1$/, "");
  client = new Anthropic({ apiKey: key, baseURL: root, maxRetries: 0, timeout: 120_000 });
});
after(async () => {
  await fx?.stop();
  await upstream?.stop();
});

/** The raw POST, for the `x-patchbay-warnings` header. */
async function post(body: Json): Promise<{ status: number; json: Json; warnings: string }> {
  const res = await fetch(`${root}/v1/messages`, {
    method: "POST",
    headers: { "x-api-key": key, "anthropic-version": "2023-06-01", "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    json: (await res.json()) as Json,
    warnings: res.headers.get("x-patchbay-warnings") ?? "",
  };
}

describe("Anthropic upstream (@ai-sdk/anthropic through OpenCode)", () => {
  test("a signed thinking block reaches the client (stream and JSON) and goes back to the upstream unchanged", async () => {
    upstream.reset();
    upstream.script({ thinking: "The user greets me.", signature: SIGNATURE, text: "Hello!" });
    const stream = client.messages.stream({
      model: CLAUDE,
      max_tokens: 1024,
      thinking: { type: "enabled", budget_tokens: 1024 },
      messages: [{ role: "user", content: "Hi" }],
    });
    const first = await stream.finalMessage();
    assert.deepEqual(JSON.parse(JSON.stringify(first.content)), [
      { type: "thinking", thinking: "The user greets me.", signature: SIGNATURE },
      { type: "text", text: "Hello!" },
    ]);
    assert.equal(upstream.messageRequests().length, 1);

    upstream.script({ text: "Again hello." });
    const second = await client.messages.create({
      model: CLAUDE,
      max_tokens: 1024,
      thinking: { type: "enabled", budget_tokens: 1024 },
      messages: [
        { role: "user", content: "Hi" },
        { role: "assistant", content: first.content },
        { role: "user", content: "Again" },
      ],
    });
    assert.deepEqual(second.content, [{ type: "text", text: "Again hello." }]);
    const seen = upstream.messageRequests()[1]?.body.messages as Json[];
    const assistant = seen.find((m) => m.role === "assistant");
    assert.ok(assistant, JSON.stringify(seen));
    const blocks = assistant.content as Json[];
    assert.deepEqual(blocks[0], { type: "thinking", thinking: "The user greets me.", signature: SIGNATURE });
    // OpenCode places its own prompt-cache breakpoints (`cache_control`) for Anthropic providers.
    assert.deepEqual({ type: blocks[1]?.type, text: blocks[1]?.text }, { type: "text", text: "Hello!" });
  });

  test("redacted_thinking in history goes back as redacted_thinking", async () => {
    upstream.reset();
    upstream.script({ text: "ok" });
    const r = await post({
      model: CLAUDE,
      max_tokens: 100,
      messages: [
        { role: "user", content: "Hi" },
        {
          role: "assistant",
          content: [
            { type: "redacted_thinking", data: "REDACTED_OPAQUE" },
            { type: "text", text: "Hello" },
          ],
        },
        { role: "user", content: "Again" },
      ],
    });
    assert.equal(r.status, 200, JSON.stringify(r.json));
    const assistant = (upstream.messageRequests()[0]?.body.messages as Json[]).find((m) => m.role === "assistant");
    assert.deepEqual((assistant?.content as Json[])[0], { type: "redacted_thinking", data: "REDACTED_OPAQUE" });
  });
});

describe("non-Anthropic upstream (OpenAI-compatible mock)", () => {
  test("reasoning comes out as thinking without signature; replayed, it is not sent (warned)", async () => {
    fx.mock.reset();
    fx.mock.script({ reasoning: "pondering", text: "Answer." });
    const first = await post({
      model: "mock/mock-reasoner",
      max_tokens: 100,
      messages: [{ role: "user", content: "Q" }],
    });
    assert.equal(first.status, 200, JSON.stringify(first.json));
    assert.deepEqual(first.json.content, [
      { type: "thinking", thinking: "pondering", signature: "" },
      { type: "text", text: "Answer." },
    ]);

    fx.mock.script({ text: "Second." });
    const second = await post({
      model: "mock/mock-reasoner",
      max_tokens: 100,
      messages: [
        { role: "user", content: "Q" },
        { role: "assistant", content: first.json.content },
        // A signed block (e.g. from an earlier Anthropic model) cannot be verified by this upstream either.
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "signed elsewhere", signature: SIGNATURE },
            { type: "text", text: "More." },
          ],
        },
        { role: "user", content: "Q2" },
      ],
    });
    assert.equal(second.status, 200, JSON.stringify(second.json));
    assert.match(second.warnings, /thinking blocks without a signature/);
    assert.match(second.warnings, /signed thinking blocks in history dropped/);
    const sent = JSON.stringify(fx.mock.chatRequests().at(-1)?.body.messages);
    assert.ok(!sent.includes("pondering"), sent);
    assert.ok(!sent.includes("signed elsewhere"), sent);
    assert.ok(sent.includes("Answer.") && sent.includes("More."), sent);
  });
});
