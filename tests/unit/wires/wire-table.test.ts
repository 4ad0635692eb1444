// The wire table over the real express app (scripted backend, no OpenCode): the route a request takes decides its
// error envelope, whatever headers it carries; every table route is mounted with and without `/v1`; a known path
// with another method is a 405 naming the route's methods; an unknown route gets the fallback (OpenAI) envelope.
import { after, before, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { KEY, MODEL, chat, startUnitServer, textAnswer, type UnitServer } from "../http/fakes";
import { WIRES } from "../../../server/wires/table";

type Json = Record<string, unknown>;

let s: UnitServer;
before(async () => {
  s = await startUnitServer({ commitAfterMs: 50 });
});
after(async () => {
  await s.close();
});
beforeEach(() => {
  s.backend.script = () => textAnswer("hi");
  s.lan.on = false;
});

const messages = JSON.stringify({ model: MODEL, max_tokens: 50, messages: [{ role: "user", content: "x" }] });

/** OpenAI's envelope: `{error:{message,type,param,code}}`, nothing else. */
function assertOpenAiEnvelope(body: Json, code: string): void {
  assert.deepEqual(Object.keys(body), ["error"]);
  const error = body.error as Json;
  assert.equal(error.code, code);
  assert.equal(typeof error.type, "string");
  assert.equal(typeof error.message, "string");
  assert.ok("param" in error);
}

/** Anthropic's envelope: `{type:"error", error:{type,message}}`. */
function assertAnthropicEnvelope(body: Json, type: string): void {
  assert.equal(body.type, "error");
  assert.deepEqual(Object.keys(body.error as Json).sort(), ["message", "type"]);
  assert.equal((body.error as Json).type, type);
}

describe("the route decides the wire, not the headers", () => {
  test("x-api-key and anthropic-version on /v1/chat/completions: OpenAI's envelope (bad key, bad body)", async () => {
    const anthropicLike = {
      "x-api-key": "pb-wrong",
      "anthropic-version": "2023-06-01",
      "content-type": "application/json",
    };
    const refused = await fetch(`${s.base}/v1/chat/completions`, {
      method: "POST",
      headers: anthropicLike,
      body: chat(),
    });
    assert.equal(refused.status, 401);
    assertOpenAiEnvelope((await refused.json()) as Json, "invalid_api_key");

    const bad = await fetch(`${s.base}/v1/chat/completions`, {
      method: "POST",
      headers: { ...anthropicLike, "x-api-key": KEY },
      body: JSON.stringify({ model: MODEL }),
    });
    assert.equal(bad.status, 400);
    assertOpenAiEnvelope((await bad.json()) as Json, "invalid_request_error");
  });

  test("x-api-key on /v1/responses: OpenAI's envelope", async () => {
    const r = await fetch(`${s.base}/v1/responses`, {
      method: "POST",
      headers: { "x-api-key": KEY, "content-type": "application/json" },
      body: JSON.stringify({ model: MODEL, input: 42 }),
    });
    assert.equal(r.status, 400);
    assert.equal(((await r.json()) as Json).error !== undefined, true);
  });

  test("/v1/messages without x-api-key or anthropic-version (a Bearer key): Anthropic's envelope", async () => {
    const refused = await fetch(`${s.base}/v1/messages`, {
      method: "POST",
      headers: { authorization: "Bearer pb-wrong", "content-type": "application/json" },
      body: messages,
    });
    assert.equal(refused.status, 401);
    assertAnthropicEnvelope((await refused.json()) as Json, "authentication_error");

    const ok = await fetch(`${s.base}/v1/messages`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: "{not json",
    });
    assert.equal(ok.status, 400);
    assertAnthropicEnvelope((await ok.json()) as Json, "invalid_request_error");
  });

  test("a wrong method on /v1/messages is Anthropic's 405; on /v1/chat/completions OpenAI's", async () => {
    const m = await fetch(`${s.base}/v1/messages`, { headers: { authorization: `Bearer ${KEY}` } });
    assert.equal(m.status, 405);
    assert.equal(m.headers.get("allow"), "POST");
    assertAnthropicEnvelope((await m.json()) as Json, "invalid_request_error");
    const c = await fetch(`${s.base}/v1/chat/completions`, { headers: { "x-api-key": KEY } });
    assert.equal(c.status, 405);
    assertOpenAiEnvelope((await c.json()) as Json, "method_not_allowed");
  });

  test("an unknown route, even with Anthropic's headers: OpenAI's 404 envelope", async () => {
    const r = await fetch(`${s.base}/v1/nothing-here`, {
      headers: { "x-api-key": KEY, "anthropic-version": "2023-06-01" },
    });
    assert.equal(r.status, 404);
    assertOpenAiEnvelope((await r.json()) as Json, "not_found");
  });

  test("LAN mode: a refused key before routing still answers in the wire of the path it asked for", async () => {
    s.lan.on = true;
    const m = await fetch(`${s.base}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: messages,
    });
    assert.equal(m.status, 401);
    assertAnthropicEnvelope((await m.json()) as Json, "authentication_error");
    const c = await fetch(`${s.base}/v1/chat/completions`, { method: "POST", body: chat() });
    assert.equal(c.status, 401);
    assertOpenAiEnvelope((await c.json()) as Json, "invalid_api_key");
  });
});

describe("the table", () => {
  test("every wire has routes, and every GET/POST route answers (not 404) with and without /v1", async () => {
    assert.deepEqual(
      WIRES.wires.map((w) => w.name),
      ["anthropic-messages", "openai-models", "openai-chat", "openai-responses"],
    );
    const paths = new Set<string>();
    for (const wire of WIRES.wires) {
      const routes = wire.routes({} as never);
      assert.ok(routes.length > 0, wire.name);
      for (const r of routes) paths.add(r.path.replace(/[:*]id/, "some-id"));
    }
    for (const path of paths) {
      for (const prefix of ["/v1", ""]) {
        const r = await fetch(`${s.base}${prefix}${path}`, {
          method: "PUT",
          headers: { authorization: `Bearer ${KEY}` },
        });
        assert.equal(r.status, 405, `${prefix}${path}`);
        assert.ok(r.headers.get("allow"), `${prefix}${path}`);
      }
    }
  });

  test("a stored response path answers a wrong method with 405 and its methods", async () => {
    const r = await fetch(`${s.base}/v1/responses/resp_x/input_items`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}` },
    });
    assert.equal(r.status, 405);
    assert.equal(r.headers.get("allow"), "GET, HEAD");
    const one = await fetch(`${s.base}/v1/responses/resp_x`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}` },
    });
    assert.equal(one.headers.get("allow"), "GET, HEAD, DELETE");
  });
});

describe("the Responses wire", () => {
  // The decoder no longer refuses previous_response_id: the route expands it first (or answers 400
  // previous_response_not_found) and takes it out of the body, so no HTTP request can reach such a refusal.
  test("previous_response_id reaches the store's lookup, never an unsupported_parameter refusal", async () => {
    const post = (body: Json) =>
      fetch(`${s.base}/v1/responses`, {
        method: "POST",
        headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
        body: JSON.stringify({ model: MODEL, input: "hi", ...body }),
      });
    const unknown = await post({ previous_response_id: "resp_unknown" });
    assert.equal(unknown.status, 400);
    const error = ((await unknown.json()) as Json).error as Json;
    assert.equal(error.code, "previous_response_not_found");
    assert.equal(error.param, "previous_response_id");

    const first = await post({});
    assert.equal(first.status, 200);
    const id = ((await first.json()) as Json).id as string;
    const next = await post({ previous_response_id: id });
    assert.equal(next.status, 200);
    assert.equal(((await next.json()) as Json).previous_response_id, id);
    assert.equal(s.backend.streams.at(-1)?.request.request.messages.length, 3);
  });
});
