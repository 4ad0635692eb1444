// Upstream faults and hostile names through the whole Patchbay (real opencode serve + mock upstream), as a client
// sees them: a 429 worded "slow down", streams that end without finishing (cut off, not SSE, empty), a non-standard
// finish_reason, and tools named after Object.prototype keys.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { PatchbayFixture } from "../harness/patchbay-fixture";
import { releaseSharedPatchbay, useSharedPatchbay } from "../harness/shared-patchbay";

type Json = Record<string, unknown>;

let fx: PatchbayFixture;
let key: string;

const CUT_OFF = /ended the answer without finishing it/;
const fn = (name: string) => ({
  type: "function",
  function: {
    name,
    description: `The ${name} tool`,
    parameters: { type: "object", properties: { q: { type: "string" } } },
  },
});

async function chat(
  body: Json,
): Promise<{ status: number; headers: Headers; text: string; json: Json | null; ms: number }> {
  const t0 = Date.now();
  const res = await fx.api("/v1/chat/completions", {
    method: "POST",
    key,
    body: JSON.stringify({ model: "mock/mock-model", ...body }),
  });
  const text = await res.text();
  let json: Json | null = null;
  try {
    json = JSON.parse(text) as Json;
  } catch {}
  return { status: res.status, headers: res.headers, text, json, ms: Date.now() - t0 };
}

/** JSON chunks of an SSE body (without [DONE]). */
function chunks(text: string): Json[] {
  return text
    .split("\n")
    .filter((l) => l.startsWith("data: ") && l !== "data: [DONE]")
    .map((l) => JSON.parse(l.slice(6)) as Json);
}

const choice0 = (j: Json | null) => (j?.choices as Json[] | undefined)?.[0];
const errorOf = (j: Json | null) => j?.error as Json | undefined;

describe("OpenCode bridge: upstream faults and hostile names", () => {
  before(async () => {
    fx = await useSharedPatchbay();
    key = await fx.createKey("faults");
    fx.mock.reset();
    assert.equal((await chat({ messages: [{ role: "user", content: "warm up" }] })).status, 200); // boots the instance
  });
  after(async () => {
    await releaseSharedPatchbay(fx);
  });

  test('a 429 worded "slow down" is a 429 with Retry-After, at once, with no hidden retry', async () => {
    fx.mock.reset();
    fx.mock.script({
      error: { status: 429, body: { error: { message: "slow down" } }, headers: { "retry-after": "7" } },
    });
    const r = await chat({ messages: [{ role: "user", content: "hi" }] });
    assert.equal(r.status, 429, r.text);
    const retryAfter = Number(r.headers.get("retry-after"));
    assert.ok(retryAfter >= 5 && retryAfter <= 8, `Retry-After ${r.headers.get("retry-after")}`);
    assert.match(String(errorOf(r.json)?.message), /slow down/);
    // At once, by the order of events: answered while the upstream has seen one call (OpenCode's retry would be a
    // second), and none follows.
    assert.equal(fx.mock.chatRequests().length, 1, "answered only after a hidden retry");
    await new Promise((res) => setTimeout(res, 300));
    assert.equal(fx.mock.chatRequests().length, 1, "OpenCode did not retry behind the client's back");
  });

  test('a stream cut off after "hello" (no finish_reason, no [DONE]) is an error, not a stop', async () => {
    fx.mock.reset();
    fx.mock.script({ text: "hello", chunks: 1, endWithoutFinish: true });
    const plain = await chat({ messages: [{ role: "user", content: "hi" }] });
    assert.equal(plain.status, 502, plain.text);
    assert.equal(errorOf(plain.json)?.code, "upstream_error");
    assert.match(String(errorOf(plain.json)?.message), CUT_OFF);

    fx.mock.script({ text: "hello", chunks: 1, endWithoutFinish: true });
    const streamed = await chat({ messages: [{ role: "user", content: "hi" }], stream: true });
    assert.equal(streamed.status, 200, "output was already streamed: the error is in-band");
    const all = chunks(streamed.text);
    const text = all
      .map((c) => ((choice0(c)?.delta as Json | undefined)?.content as string | undefined) ?? "")
      .join("");
    assert.equal(text, "hello");
    assert.ok(!all.some((c) => choice0(c)?.finish_reason), `no finish_reason: ${streamed.text}`);
    assert.match(String(errorOf(all.at(-1) ?? null)?.message), CUT_OFF, streamed.text);
  });

  for (const [name, rawBody] of [
    ["a 200 text/event-stream whose body is not SSE", "this is not sse"],
    ["a 200 SSE answer with an empty body", ""],
  ] as const) {
    test(`${name} is a 502, not an empty success`, async () => {
      fx.mock.reset();
      fx.mock.script({ rawBody });
      const r = await chat({ messages: [{ role: "user", content: "hi" }] });
      assert.equal(r.status, 502, r.text);
      assert.equal(errorOf(r.json)?.code, "upstream_error");
      assert.match(String(errorOf(r.json)?.message), CUT_OFF);
      assert.equal(fx.mock.chatRequests().length, 1);
    });
  }

  test("a complete answer with a non-standard finish_reason (end_turn) still finishes as stop", async () => {
    fx.mock.reset();
    fx.mock.script({ text: "Done.", rawFinishReason: "end_turn" });
    const r = await chat({ messages: [{ role: "user", content: "hi" }] });
    assert.equal(r.status, 200, r.text);
    assert.equal((choice0(r.json)?.message as Json | undefined)?.content, "Done.");
    assert.equal(choice0(r.json)?.finish_reason, "stop");
  });

  test("tools named constructor, toString and __proto__ are accepted and round-trip", async () => {
    const names = ["constructor", "toString", "__proto__"];
    // OpenCode 1.18.33 drops a tool called __proto__ from its own tool map, so the model sees it renamed.
    const seen = (name: string) => (name === "__proto__" ? "client___proto__" : name);
    fx.mock.reset();
    fx.mock.script({
      toolCalls: names.map((name, i) => ({ id: `call_${i}`, name: seen(name), arguments: { q: name } })),
    });
    const r = await chat({ messages: [{ role: "user", content: "call them all" }], tools: names.map(fn) });
    assert.equal(r.status, 200, r.text);
    const message = choice0(r.json)?.message as Json | undefined;
    const calls =
      (message?.tool_calls as Array<{ id: string; function: { name: string; arguments: string } }> | undefined) ?? [];
    assert.deepEqual(
      calls.map((c) => [c.id, c.function.name, JSON.parse(c.function.arguments)]),
      names.map((name, i) => [`call_${i}`, name, { q: name }]),
    );
    assert.equal(choice0(r.json)?.finish_reason, "tool_calls");
    const up = fx.mock.chatRequests();
    assert.equal(up.length, 1);
    const sent = (JSON.parse(up[0]!.rawBody) as { tools: Array<{ function: { name: string; parameters: unknown } }> })
      .tools;
    assert.deepEqual(sent.map((t) => t.function.name).sort(), names.map(seen).sort(), "the model saw every tool");
    assert.deepEqual(
      sent.map((t) => t.function.parameters),
      names.map(() => fn("x").function.parameters),
    );

    // The next turn carries the calls and their results back to the model under the same names.
    fx.mock.reset();
    fx.mock.script({ text: "All three answered." });
    const history = [
      { role: "user", content: "call them all" },
      {
        role: "assistant",
        content: null,
        tool_calls: calls.map((c) => ({ id: c.id, type: "function", function: c.function })),
      },
      ...calls.map((c) => ({ role: "tool", tool_call_id: c.id, content: `result of ${c.function.name}` })),
    ];
    const next = await chat({ messages: history, tools: names.map(fn) });
    assert.equal(next.status, 200, next.text);
    const upMessages = (JSON.parse(fx.mock.chatRequests()[0]!.rawBody) as { messages: Json[] }).messages;
    const upCalls =
      (upMessages.find((m) => m.role === "assistant")?.tool_calls as
        Array<{ function: { name: string } }> | undefined) ?? [];
    assert.deepEqual(
      upCalls.map((c) => c.function.name),
      names.map(seen),
    );
    assert.deepEqual(
      upMessages.filter((m) => m.role === "tool").map((m) => m.content),
      names.map((n) => `result of ${n}`),
    );
  });
});
