// Foundation end to end: the official openai client against Patchbay + real `opencode serve` + mock upstream,
// and every client-causable error on the basic routes (issue 2).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { PatchbayFixture } from "../harness/patchbay-fixture";
import { releaseSharedPatchbay, useSharedPatchbay } from "../harness/shared-patchbay";

let fx: PatchbayFixture;
let key: string;

before(async () => {
  fx = await useSharedPatchbay();
  key = await fx.createKey("foundation");
});
after(async () => {
  await releaseSharedPatchbay(fx);
});

/** Asserts an OpenAI error envelope with the given status and code. */
async function expectEnvelope(
  res: Response,
  status: number,
  code?: string,
  param?: string,
): Promise<Record<string, unknown>> {
  assert.equal(res.status, status, `status of ${res.url}`);
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
  const body = (await res.json()) as { error: { message: string; type: string; param: unknown; code: unknown } };
  assert.equal(typeof body.error, "object");
  assert.ok(body.error.message.length > 0);
  assert.equal(typeof body.error.type, "string");
  assert.ok("param" in body.error && "code" in body.error);
  if (code) assert.equal(body.error.code, code);
  if (param) assert.equal(body.error.param, param);
  return body.error as unknown as Record<string, unknown>;
}

describe("openai client through Patchbay", () => {
  test("lists models of connected providers", async () => {
    const list = await fx.openai(key).models.list();
    const ids = list.data.map((m) => m.id).sort();
    assert.deepEqual(ids, ["mock/mock-model", "mock/mock-reasoner", "mock/mock-vision"]);
    for (const m of list.data) {
      assert.equal(m.object, "model");
      assert.equal(typeof m.created, "number");
      assert.equal(typeof m.owned_by, "string");
    }
    const one = await fx.openai(key).models.retrieve("mock/mock-model");
    assert.equal(one.id, "mock/mock-model");
    const encoded = await fx.api("/v1/models/mock%2Fmock-model", { key });
    assert.equal(encoded.status, 200);
    assert.equal(((await encoded.json()) as { id: string }).id, "mock/mock-model");
  });

  test("non-streamed chat completion returns the mock's text and exactly one upstream call", async () => {
    fx.mock.reset();
    fx.mock.script({ text: "Hello from the mock.", usage: { prompt_tokens: 12, completion_tokens: 5 } });
    const r = await fx
      .openai(key)
      .chat.completions.create({ model: "mock/mock-model", messages: [{ role: "user", content: "hi" }] });
    assert.equal(r.choices[0]?.message.content, "Hello from the mock.");
    assert.equal(r.choices[0]?.finish_reason, "stop");
    assert.equal(r.usage?.prompt_tokens, 12);
    assert.equal(r.usage?.completion_tokens, 5);
    assert.equal(fx.mock.chatRequests().length, 1);
    const body = fx.mock.chatRequests()[0]!.body;
    assert.deepEqual(body.messages, [{ role: "user", content: "hi" }]);
  });

  test("streamed chat completion with include_usage ends with a usage chunk with choices: []", async () => {
    fx.mock.reset();
    fx.mock.script({ text: "one two three four", chunks: 4, usage: { prompt_tokens: 9, completion_tokens: 4 } });
    const stream = await fx.openai(key).chat.completions.create({
      model: "mock/mock-model",
      messages: [{ role: "user", content: "count" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    const chunks = [];
    for await (const c of stream) {
      chunks.push(c);
      text += c.choices[0]?.delta.content ?? "";
    }
    assert.equal(text, "one two three four");
    const last = chunks.at(-1)!;
    assert.deepEqual(last.choices, []);
    assert.equal(last.usage?.prompt_tokens, 9);
    assert.equal(last.usage?.total_tokens, 13);
    assert.equal(fx.mock.chatRequests().length, 1);
  });
});

describe("bad input keeps the server serving", () => {
  test("missing and wrong keys → 401", async () => {
    const missing = await expectEnvelope(await fx.api("/v1/models"), 401, "invalid_api_key");
    assert.match(String(missing.message), /Missing API key/);
    const wrong = await expectEnvelope(
      await fx.api("/v1/models", { key: "pb-wrongwrongwrongwrong" }),
      401,
      "invalid_api_key",
    );
    assert.doesNotMatch(String(wrong.message), /pb-wrong/);
    await expectEnvelope(
      await fx.api("/v1/chat/completions", { method: "POST", body: "{}", key: "nope" }),
      401,
      "invalid_api_key",
    );
  });

  test("malformed JSON, non-object body, missing fields → 400 naming the field", async () => {
    const post = (body: string) => fx.api("/v1/chat/completions", { method: "POST", body, key });
    await expectEnvelope(await post("{not json"), 400, "invalid_json");
    await expectEnvelope(await post("[1,2]"), 400);
    await expectEnvelope(await post('"text"'), 400);
    await expectEnvelope(
      await post(JSON.stringify({ messages: [{ role: "user", content: "x" }] })),
      400,
      undefined,
      "model",
    );
    await expectEnvelope(await post(JSON.stringify({ model: "mock/mock-model" })), 400, undefined, "messages");
    await expectEnvelope(
      await post(JSON.stringify({ model: "mock/mock-model", messages: [] })),
      400,
      undefined,
      "messages",
    );
  });

  test("unknown model → 404 model_not_found; disallowed model → 403", async () => {
    const res = await fx.api("/v1/chat/completions", {
      method: "POST",
      key,
      body: JSON.stringify({ model: "mock/nope", messages: [{ role: "user", content: "x" }] }),
    });
    const err = await expectEnvelope(res, 404, "model_not_found");
    assert.match(String(err.message), /mock\/nope/);
    const limited = await fx.createKey("limited", { models: ["mock/mock-model"] });
    const denied = await fx.api("/v1/chat/completions", {
      method: "POST",
      key: limited,
      body: JSON.stringify({ model: "mock/mock-reasoner", messages: [{ role: "user", content: "x" }] }),
    });
    await expectEnvelope(denied, 403, "model_not_allowed");
    const listed = (await (await fx.api("/v1/models", { key: limited })).json()) as { data: { id: string }[] };
    assert.deepEqual(
      listed.data.map((m) => m.id),
      ["mock/mock-model"],
    );
  });

  test("oversize body → 413; unknown route → 404 JSON; routes without /v1 work", async () => {
    await fx.admin.createApp({ body: { name: "tiny" } });
    await fx.admin.updateApp({ params: { name: "tiny" }, body: { limits: { maxBodyBytes: 2048 } } });
    const tiny = (await fx.admin.createKey({ params: { name: "tiny" }, body: { label: "t" } })).key;
    const big = JSON.stringify({ model: "mock/mock-model", messages: [{ role: "user", content: "x".repeat(5000) }] });
    await expectEnvelope(
      await fx.api("/v1/chat/completions", { method: "POST", key: tiny, body: big }),
      413,
      "payload_too_large",
    );
    await expectEnvelope(await fx.api("/v1/nothing-here", { key }), 404, "not_found");
    await expectEnvelope(await fx.api("/nothing-here", {}), 404);
    // The root answers 200: Anthropic clients (Claude Code) probe the base URL.
    assert.equal((await fx.api("/", {})).status, 200);
    assert.equal((await fx.api("/models", { key })).status, 200);
    fx.mock.reset();
    const plain = await fx.api("/chat/completions", {
      method: "POST",
      key,
      body: JSON.stringify({ model: "mock/mock-model", messages: [{ role: "user", content: "x" }] }),
    });
    assert.equal(plain.status, 200);
    // still serving
    assert.equal((await fx.api("/healthz")).status, 200);
  });
});
