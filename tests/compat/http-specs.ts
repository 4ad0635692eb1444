// Specs of the ERR-*, AUTH-*, MODELS-* and HTTP-* compat cases: error envelopes and statuses, auth, the model list,
// and CORS preflight for browser clients.
import assert from "node:assert/strict";
import type { CaseSpec } from "./runner";
import { chatStream, expectEnvelope, expectJson, expectStatus } from "./expect";

type Json = Record<string, unknown>;

/** The browser origin of HTTP-CORS-PREFLIGHT and the app that allows it. */
export const CORS_APP = "compat-browser";
const OBSIDIAN = "app://obsidian.md";

export const httpSpecs: Record<string, CaseSpec> = {
  "ERR-SHAPE-OPENAI-ENVELOPE": {
    async run(ctx) {
      const { res, upstream } = await ctx.send();
      const e = expectEnvelope(res, [404, 400], { code: "model_not_found" });
      assert.ok(e.message.includes(ctx.vars.UNKNOWN_MODEL_ID), `message mentions the model id: ${e.message}`);
      assert.equal(upstream.length, 0);
      const bad = await ctx.send({ request: { ...ctx.request, body: '{"model": "mock/mock-model", "messages": [' } });
      const be = expectEnvelope(bad.res, 400);
      assert.doesNotMatch(bad.res.body, /<html|<!DOCTYPE/i, "not an HTML error page");
      assert.equal(typeof be.message, "string");
      const noMessages = await ctx.send({ body: (b) => void delete b.messages });
      expectEnvelope(noMessages.res, 400, { param: "messages" });
      const empty = await ctx.send({
        body: (b) => {
          b.model = "mock/mock-model";
          b.messages = [];
        },
      });
      expectEnvelope(empty.res, 400, { type: "invalid_request_error" });
    },
  },

  "ERR-UPSTREAM-FAILURE-STATUS": {
    async run(ctx) {
      // 503 / overloaded: a retryable 5xx with the envelope; OpenCode's silent retries are cut short (one upstream call).
      const busy = await ctx.send({
        script: [0, 1, 2].map(() => ({ error: { status: 503, message: "The server is overloaded" } })),
        settleMs: 2500,
      });
      const be = expectEnvelope(busy.res, [502, 503, 504]);
      assert.match(be.message, /overloaded/);
      assert.equal(busy.upstream.length, 1, "Patchbay does not let OpenCode retry behind the client's back");
      // Upstream 400 (e.g. a bad schema): 400 with the upstream message, never retried.
      const bad = await ctx.send({
        script: [
          { error: { status: 400, message: "Invalid schema for function 'x': 'type' is required" } },
          { text: "should not happen" },
        ],
        settleMs: 1000,
      });
      const e400 = expectEnvelope(bad.res, 400);
      assert.match(e400.message, /Invalid schema for function 'x'/);
      assert.equal(bad.upstream.length, 1, "a 400 is not retried");
      assert.notEqual(bad.res.headers["x-should-retry"], "true");
      // Upstream 401: a bad upstream credential; the message never leaks the upstream key.
      const auth = await ctx.send({
        script: [{ error: { status: 401, message: "Incorrect API key provided: sk-mock-key-000000000000" } }],
      });
      const ae = expectEnvelope(auth.res, [401, 403, 502]);
      assert.ok(!auth.res.body.includes("sk-mock-key-000000000000"), "the upstream key is not leaked");
      assert.ok(!ae.message.includes("000000000000"));
      assert.notEqual(auth.res.headers["x-should-retry"], "true");
    },
  },

  "AUTH-401-ENVELOPE": {
    async run(ctx) {
      const { res, upstream } = await ctx.send();
      const e = expectEnvelope(res, 401);
      assert.ok(["invalid_request_error", "authentication_error"].includes(e.type), `type ${e.type}`);
      assert.equal(upstream.length, 0);
      const wrong = await ctx.send({ headers: { Authorization: "Bearer wrong-key-123456789" } });
      const we = expectEnvelope(wrong.res, 401, { code: "invalid_api_key" });
      assert.ok(!we.message.includes("wrong-key-123456789"), "the key is not echoed");
      const models = await ctx.send({ request: { method: "GET", path: "/v1/models", headers: {}, body: null } });
      expectEnvelope(models.res, 401);
      const lower = await ctx.send({ headers: { Authorization: `bearer ${ctx.key}` } });
      expectStatus(lower.res, 200);
    },
  },

  "MODELS-LIST-SHAPE": {
    async run(ctx) {
      const { res } = await ctx.send();
      expectStatus(res, 200);
      expectJson(res);
      const list = res.json<{ object: string; data: Json[] }>();
      assert.equal(list.object, "list");
      assert.ok(Array.isArray(list.data) && list.data.length > 0);
      const ids = list.data.map((m) => m.id as string);
      assert.equal(new Set(ids).size, ids.length, "ids are unique");
      for (const m of list.data) {
        assert.ok(typeof m.id === "string" && m.id.length > 0);
        assert.equal(m.object, "model");
        assert.ok(Number.isInteger(m.created));
        assert.equal(typeof m.owned_by, "string");
      }
      for (const id of ids) {
        const chat = await ctx.send({
          request: {
            method: "POST",
            path: "/v1/chat/completions",
            headers: { Authorization: `Bearer ${ctx.key}`, "Content-Type": "application/json" },
            body: { model: id, messages: [{ role: "user", content: "ping" }], max_tokens: 4 },
          },
        });
        expectStatus(chat.res, 200);
      }
    },
  },

  "HTTP-CORS-PREFLIGHT": {
    async run(ctx) {
      await ctx.fx.admin.createApp({ body: { name: CORS_APP } }).catch(() => undefined);
      await ctx.fx.admin.updateApp({ params: { name: CORS_APP }, body: { limits: { corsOrigins: [OBSIDIAN] } } });
      const key = (await ctx.fx.admin.createKey({ params: { name: CORS_APP }, body: { label: "browser" } })).key;

      const { res } = await ctx.send();
      expectStatus(res, [200, 204]);
      const h = res.headers;
      assert.ok(h["access-control-allow-origin"] === "*" || h["access-control-allow-origin"] === OBSIDIAN);
      assert.match(String(h["access-control-allow-methods"]), /\bPOST\b/);
      const allowed = String(h["access-control-allow-headers"] ?? "")
        .toLowerCase()
        .split(/\s*,\s*/);
      const requested = String(ctx.request.headers["Access-Control-Request-Headers"]).split(",");
      for (const r of requested) assert.ok(allowed.includes(r.trim().toLowerCase()), `allow-headers includes ${r}`);
      if (h["access-control-allow-origin"] === OBSIDIAN)
        assert.match(String(h.vary ?? ""), /origin/i, "Vary: Origin when the origin is echoed");

      // An origin no app lists gets no CORS headers.
      const other = await ctx.send({ headers: { Origin: "https://evil.example" } });
      assert.equal(other.res.headers["access-control-allow-origin"], undefined);

      const post = (auth: string | null, body: Json) =>
        ctx.send({
          request: {
            method: "POST",
            path: "/v1/chat/completions",
            headers: { Origin: OBSIDIAN, "Content-Type": "application/json", ...(auth ? { Authorization: auth } : {}) },
            body,
          },
        });
      const unauthorised = await post("Bearer pb-not-a-real-key-000", {
        model: "mock/mock-model",
        messages: [{ role: "user", content: "hi" }],
      });
      expectEnvelope(unauthorised.res, 401);
      assert.equal(
        unauthorised.res.headers["access-control-allow-origin"],
        OBSIDIAN,
        "the 401 is readable by the browser",
      );
      const streamed = await post(`Bearer ${key}`, {
        model: "mock/mock-model",
        messages: [{ role: "user", content: "hi" }],
        stream: true,
      });
      chatStream(streamed.res);
      assert.equal(
        streamed.res.headers["access-control-allow-origin"],
        OBSIDIAN,
        "the SSE response carries allow-origin",
      );
    },
  },
};
