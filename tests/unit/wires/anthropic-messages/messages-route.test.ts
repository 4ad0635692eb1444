// The Messages routes over the real express app and a scripted backend (no OpenCode): `event: ping` keepalives, the
// Anthropic envelope for auth, policy and backend errors (before and after output), x-api-key auth, LAN-mode auth,
// and the Anthropic/OpenAI split of /v1/models.
import { after, before, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import Anthropic from "@anthropic-ai/sdk";
import { KEY, MODEL, startUnitServer, textAnswer, type UnitServer } from "../../http/fakes";

type Json = Record<string, unknown>;

let s: UnitServer;
before(async () => {
  s = await startUnitServer({ commitAfterMs: 50, keepaliveMs: 60 });
});
after(async () => {
  await s.close();
});
beforeEach(() => {
  s.backend.script = () => textAnswer("hi");
  s.lan.on = false;
});

const body = (extra: Json = {}) =>
  JSON.stringify({ model: MODEL, max_tokens: 50, messages: [{ role: "user", content: "x" }], ...extra });
const anthropicHeaders = { "x-api-key": KEY, "anthropic-version": "2023-06-01", "content-type": "application/json" };
const post = (path: string, payload: string, headers: Record<string, string> = anthropicHeaders) =>
  fetch(`${s.base}${path}`, { method: "POST", headers, body: payload });

describe("POST /v1/messages (scripted backend)", () => {
  test("JSON answer, with x-api-key; also without the /v1 prefix and with ?beta=true", async () => {
    for (const path of ["/v1/messages", "/messages", "/v1/messages?beta=true"]) {
      const r = await post(path, body());
      assert.equal(r.status, 200, path);
      const msg = (await r.json()) as Json;
      assert.equal(msg.type, "message");
      assert.deepEqual(msg.content, [{ type: "text", text: "hi" }]);
    }
  });

  test("a silent model gets `event: ping` keepalives before its first event", async () => {
    s.backend.script = () => [
      { type: "start", sessionId: "ses_p", warnings: [] },
      { wait: 400 },
      ...textAnswer("late").slice(1),
    ];
    const r = await post("/v1/messages", body({ stream: true }));
    const text = await r.text();
    assert.equal(r.status, 200);
    assert.match(text, /^event: ping\ndata: \{"type": "ping"\}\n\n/);
    assert.ok(!text.includes(": keepalive"));
    assert.ok(text.indexOf("event: ping") < text.indexOf("event: message_start"));
    assert.match(text, /event: message_stop/);
    // The SDK skips pings (also before message_start) and assembles the message.
    const sdk = new Anthropic({ apiKey: KEY, baseURL: s.base, maxRetries: 0 });
    const final = await sdk.messages
      .stream({ model: MODEL, max_tokens: 10, messages: [{ role: "user", content: "x" }] })
      .finalMessage();
    assert.deepEqual(final.content, [{ type: "text", text: "late" }]);
  });

  test("an error before output is an HTTP error in Anthropic's envelope, with retry-after", async () => {
    s.backend.script = () => [
      { type: "start", sessionId: "ses_e", warnings: [] },
      { type: "error", error: { code: "upstream_rate_limited", status: 429, message: "slow down", retryAfter: 7 } },
    ];
    const r = await post("/v1/messages", body());
    assert.equal(r.status, 429);
    assert.equal(r.headers.get("retry-after"), "7");
    assert.deepEqual(await r.json(), { type: "error", error: { type: "rate_limit_error", message: "slow down" } });
  });

  test("an error after output started is an in-band `event: error`", async () => {
    s.backend.script = () => [
      { type: "start", sessionId: "ses_m", warnings: [] },
      { type: "text-delta", delta: "part" },
      { type: "error", error: { code: "upstream_error", status: 502, message: "cut" } },
    ];
    const r = await post("/v1/messages", body({ stream: true }));
    const text = await r.text();
    assert.equal(r.status, 200);
    assert.match(text, /event: error\ndata: \{"type":"error","error":\{"type":"api_error","message":"cut"\}\}/);
    assert.ok(!text.includes("message_stop"));
  });

  test("auth and policy errors use Anthropic's envelope (also in LAN mode, where auth runs first)", async () => {
    for (const lan of [false, true]) {
      s.lan.on = lan;
      const bad = await post("/v1/messages", body(), { "x-api-key": "pb-wrong", "content-type": "application/json" });
      assert.equal(bad.status, 401);
      assert.equal(((await bad.json()) as { error: Json }).error.type, "authentication_error");
      const none = await post("/v1/messages", body(), { "content-type": "application/json" });
      assert.equal(none.status, 401);
      assert.equal(((await none.json()) as Json).type, "error");
    }
    s.lan.on = false;
    const unknown = await post("/v1/messages", body({ model: "mock/nope" }));
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as { error: Json }).error.type, "not_found_error");
    const bad = await post("/v1/messages", "{not json");
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as { error: Json }).error.type, "invalid_request_error");
  });

  test("count_tokens answers {input_tokens}", async () => {
    const r = await post(
      "/v1/messages/count_tokens",
      JSON.stringify({ model: MODEL, messages: [{ role: "user", content: "hello world" }] }),
    );
    assert.equal(r.status, 200);
    const json = (await r.json()) as { input_tokens: number };
    assert.ok(json.input_tokens > 0 && json.input_tokens < 20, String(json.input_tokens));
  });

  test("count_tokens names the decoder's warnings exactly as /v1/messages does (one formatter)", async () => {
    // Non-ASCII in a dropped block type becomes `?`, the header's Latin-1 rule, on both routes.
    const payload = {
      model: MODEL,
      metadata: { user_id: "u" },
      messages: [{ role: "user", content: [{ type: "text", text: "hi" }, { type: "mystère" }] }],
    };
    const counted = await post("/v1/messages/count_tokens", JSON.stringify(payload));
    assert.equal(counted.status, 200);
    const expected = "user content block type 'myst?re' dropped; ignored: 'metadata'";
    assert.equal(counted.headers.get("x-patchbay-warnings"), expected);
    const answered = await post("/v1/messages", JSON.stringify({ ...payload, max_tokens: 50 }));
    assert.equal(answered.status, 200);
    assert.equal(answered.headers.get("x-patchbay-warnings"), expected);
  });

  test("/v1/models: Anthropic's shape with anthropic-version, OpenAI's with a Bearer key only", async () => {
    const a = (await (await fetch(`${s.base}/v1/models`, { headers: anthropicHeaders })).json()) as Json;
    assert.equal(a.has_more, false);
    assert.equal((a.data as Json[])[0]?.type, "model");
    assert.equal(a.first_id, (a.data as Json[])[0]?.id);
    const o = (await (await s.call("/v1/models")).json()) as Json;
    assert.equal(o.object, "list");
    const missing = await fetch(`${s.base}/v1/models/mock%2Fnope`, { headers: anthropicHeaders });
    assert.equal(missing.status, 404);
    assert.equal(((await missing.json()) as { error: Json }).error.type, "not_found_error");
  });
});
