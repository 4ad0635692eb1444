// The OpenAI listener's guards over fakes: Host guard (DNS rebinding), CORS (only listed origins, preflight without
// auth, ACAO on a 401), LAN mode (key on every route), and the error middleware's body-parser mapping.
import http from "node:http";
import { gzipSync } from "node:zlib";
import { after, before, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { isLoopbackHost } from "../../../server/http/middleware/host-guard";
import { fromBodyParserError } from "../../../server/http/middleware/wire-errors";
import type { PatchbayError } from "../../../server/core/errors";
import { OpenAiErrorEnvelope } from "../../harness/http-helpers";
import { KEY, startUnitServer, type UnitServer } from "./fakes";
import { rawExchange } from "./raw-socket";
import { waitFor } from "../../harness/wait-for";

let s: UnitServer;
before(async () => {
  s = await startUnitServer();
});
after(async () => {
  await s.close();
});
beforeEach(() => {
  s.lan.on = false;
  s.apps.setLimits({ corsOrigins: [] });
});

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Raw request so the test controls Host and Origin exactly. */
function raw(method: string, pathname: string, headers: Record<string, string>, body?: string | Buffer): Promise<Raw> {
  const url = new URL(s.base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port: url.port, method, path: pathname, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

function rawBuf(pathname: string, headers: Record<string, string>, body: Buffer): Promise<Raw> {
  return raw(
    "POST",
    pathname,
    { host: "localhost", authorization: `Bearer ${KEY}`, "content-type": "application/json", ...headers },
    body,
  );
}

function envelope(r: Raw): OpenAiErrorEnvelope["error"] {
  assert.match(String(r.headers["content-type"]), /^application\/json/);
  return OpenAiErrorEnvelope.parse(JSON.parse(r.body)).error;
}

describe("isLoopbackHost", () => {
  test("loopback names with and without ports", () => {
    for (const h of [
      "localhost",
      "localhost:4747",
      "LOCALHOST:1",
      "127.0.0.1",
      "127.0.0.1:80",
      "127.1.2.3:9",
      "[::1]",
      "[::1]:4747",
      "api.localhost:4747",
    ]) {
      assert.equal(isLoopbackHost(h), true, h);
    }
  });
  test("everything else", () => {
    for (const h of [
      undefined,
      "",
      "evil.example",
      "evil.example:4747",
      "localhost.evil.example",
      "127.0.0.1.nip.io",
      "128.0.0.1",
      "[::2]:1",
      "0.0.0.0",
      "192.168.1.5:4747",
      "[::ffff:7f00:1]",
      "127.0.0.1@evil.example",
      "localhost:evil.com",
      "[::1]evil.com",
      "localhost:80:80",
    ]) {
      assert.equal(isLoopbackHost(h), false, String(h));
    }
  });
});

describe("host guard", () => {
  test("two Host headers (loopback first, then another) → 400, never served (issue 16 item 7)", async () => {
    for (const second of ["evil.example", "localhost"]) {
      const r = await rawExchange(
        s.port,
        `GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: ${second}\r\nAuthorization: Bearer ${KEY}\r\nConnection: close\r\n\r\n`,
      );
      assert.equal(r.status, 400, r.body);
      assert.match(OpenAiErrorEnvelope.parse(JSON.parse(r.body)).error.message, /more than one Host header/);
    }
  });

  test("a loopback Host is served; a foreign Host gets 403 forbidden_host on every route, even with a key", async () => {
    const ok = await raw("GET", "/v1/models", { host: "localhost:1234", authorization: `Bearer ${KEY}` });
    assert.equal(ok.status, 200);
    for (const p of ["/v1/models", "/healthz", "/v1/chat/completions", "/nowhere"]) {
      const r = await raw(
        p.includes("chat") ? "POST" : "GET",
        p,
        { host: "evil.example", authorization: `Bearer ${KEY}` },
        p.includes("chat") ? "{}" : undefined,
      );
      assert.equal(r.status, 403, p);
      assert.equal(envelope(r).code, "forbidden_host");
    }
  });

  test("LAN mode: any Host is accepted but every route needs a key, /healthz included", async () => {
    s.lan.on = true;
    const health = await raw("GET", "/healthz", { host: "192.168.1.20:4747" });
    assert.equal(health.status, 401);
    assert.equal(envelope(health).code, "invalid_api_key");
    assert.equal(
      (await raw("GET", "/healthz", { host: "192.168.1.20:4747", authorization: `Bearer ${KEY}` })).status,
      200,
    );
    assert.equal((await raw("GET", "/v1/models", { host: "192.168.1.20:4747" })).status, 401);
    assert.equal(
      (await raw("GET", "/v1/models", { host: "192.168.1.20:4747", authorization: `Bearer ${KEY}` })).status,
      200,
    );
    assert.equal(
      (await raw("GET", "/nowhere", { host: "192.168.1.20:4747" })).status,
      401,
      "unknown routes need a key too",
    );
    assert.equal(
      (await raw("GET", "/nowhere", { host: "192.168.1.20:4747", authorization: `Bearer ${KEY}` })).status,
      404,
    );
    s.lan.on = false;
    assert.equal(
      (await raw("GET", "/healthz", { host: "127.0.0.1" })).status,
      200,
      "loopback /healthz is open without LAN mode",
    );
  });
});

describe("CORS", () => {
  const origin = "https://app.example";

  test("no CORS headers at all while no app lists an origin (preflight included)", async () => {
    const r = await raw("GET", "/v1/models", { host: "localhost", origin, authorization: `Bearer ${KEY}` });
    assert.equal(r.status, 200);
    assert.equal(r.headers["access-control-allow-origin"], undefined);
    const pre = await raw("OPTIONS", "/v1/chat/completions", {
      host: "localhost",
      origin,
      "access-control-request-method": "POST",
    });
    assert.equal(pre.headers["access-control-allow-origin"], undefined);
    assert.equal(pre.headers["access-control-allow-methods"], undefined);
  });

  test("a listed origin: preflight answered without auth, 401 readable (ACAO), other origins still get nothing", async () => {
    s.apps.setLimits({ corsOrigins: [origin] });
    const pre = await raw("OPTIONS", "/v1/chat/completions", {
      host: "localhost",
      origin,
      "access-control-request-method": "POST",
      "access-control-request-headers": "authorization, content-type",
    });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers["access-control-allow-origin"], origin);
    assert.match(String(pre.headers["access-control-allow-methods"]), /POST/);
    assert.match(String(pre.headers["access-control-allow-headers"]), /authorization/);
    const unauth = await raw("GET", "/v1/models", { host: "localhost", origin });
    assert.equal(unauth.status, 401);
    assert.equal(unauth.headers["access-control-allow-origin"], origin);
    assert.equal(envelope(unauth).code, "invalid_api_key");
    const other = await raw("GET", "/v1/models", {
      host: "localhost",
      origin: "https://other.example",
      authorization: `Bearer ${KEY}`,
    });
    assert.equal(other.status, 200);
    assert.equal(other.headers["access-control-allow-origin"], undefined);
  });

  test("the host guard still applies to listed origins (a rebinding page cannot use CORS to get in)", async () => {
    s.apps.setLimits({ corsOrigins: ["*"] });
    const r = await raw("GET", "/v1/models", {
      host: "evil.example",
      origin: "http://evil.example",
      authorization: `Bearer ${KEY}`,
    });
    assert.equal(r.status, 403);
  });
});

describe("body-parser errors", () => {
  test("map to 400 invalid_json / 413 payload_too_large / 415; other errors pass through", () => {
    assert.equal((fromBodyParserError({ type: "entity.parse.failed" }) as PatchbayError).code, "invalid_json");
    const big = fromBodyParserError({ type: "entity.too.large", limit: 2 * 1024 * 1024 }) as PatchbayError;
    assert.equal(big.status, 413);
    assert.match(big.message, /\(2 MB\)/);
    assert.match(
      (fromBodyParserError({ type: "entity.too.large", limit: 1536 }) as PatchbayError).message,
      /\(1\.5 KB\)/,
    );
    assert.equal((fromBodyParserError({ type: "encoding.unsupported" }) as PatchbayError).status, 415);
    const other = new Error("x");
    assert.equal(fromBodyParserError(other), other);
  });

  test("gzip body, bad charset and deep JSON never produce a 5xx", async () => {
    const gz = await raw(
      "POST",
      "/v1/chat/completions",
      {
        host: "localhost",
        authorization: `Bearer ${KEY}`,
        "content-encoding": "br",
        "content-type": "application/json",
      },
      "{}",
    );
    assert.ok(gz.status >= 400 && gz.status < 500, `content-encoding br → ${gz.status}`);
    envelope(gz);
    const cs = await raw(
      "POST",
      "/v1/chat/completions",
      { host: "localhost", authorization: `Bearer ${KEY}`, "content-type": "application/json; charset=ebcdic" },
      "{}",
    );
    assert.ok(cs.status >= 400 && cs.status < 500, `charset → ${cs.status}`);
    envelope(cs);
    // A valid gzip body is read; a gzip bomb is cut at the app's limit (counted after inflating) → 413.
    const small = gzipSync(Buffer.from(JSON.stringify({ model: "mock/mock-model" })));
    const ok = await rawBuf("/v1/chat/completions", { "content-encoding": "gzip" }, small);
    assert.equal(ok.status, 400);
    assert.equal(envelope(ok).param, "messages");
    s.apps.setLimits({ maxBodyBytes: 64 * 1024 });
    const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x20));
    assert.ok(bomb.length < 64 * 1024);
    const b = await rawBuf("/v1/chat/completions", { "content-encoding": "gzip" }, bomb);
    assert.equal(b.status, 413);
    assert.equal(envelope(b).code, "payload_too_large");
    s.apps.setLimits({ maxBodyBytes: 32 * 1024 * 1024 });
    const deep = "[".repeat(50_000) + "]".repeat(50_000);
    const d = await raw(
      "POST",
      "/v1/chat/completions",
      { host: "localhost", authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      deep,
    );
    assert.ok(d.status >= 400 && d.status < 500, `deep JSON → ${d.status}`);
    envelope(d);
  });
});

describe("wrong method on a known route (issue 16 item 7)", () => {
  test("GET on POST-only routes (with and without /v1) → 405, Allow: POST, OpenAI envelope", async () => {
    for (const p of ["/v1/chat/completions", "/chat/completions", "/v1/responses", "/responses"]) {
      const r = await raw("GET", p, { host: "localhost", authorization: `Bearer ${KEY}` });
      assert.equal(r.status, 405, p);
      assert.equal(r.headers.allow, "POST", p);
      const err = envelope(r);
      assert.equal(err.code, "method_not_allowed");
      assert.match(err.message, /use POST/);
    }
  });

  test("an Authorization header that is not 'Bearer <key>' → 401 saying so (a bare key, another scheme)", async () => {
    const bare = await raw("GET", "/v1/models", { host: "localhost", authorization: KEY });
    assert.equal(bare.status, 401);
    assert.match(envelope(bare).message, /holds a bare key: send 'Authorization: Bearer <key>'/);
    const basic = await raw("GET", "/v1/models", { host: "localhost", authorization: "Basic dTpw" });
    assert.equal(basic.status, 401);
    assert.match(envelope(basic).message, /is not 'Bearer <key>'/);
    assert.ok(!envelope(bare).message.includes(KEY), "the key is never echoed");
  });

  test("a doubled /v1 (a base URL with /v1 given to a client that adds it) → 404 saying to drop /v1", async () => {
    const r = await raw("POST", "/v1/v1/messages", { host: "localhost:4747", authorization: `Bearer ${KEY}` }, "{}");
    assert.equal(r.status, 404);
    assert.match(
      envelope(r).message,
      /give it the base URL without \/v1 \(e\.g\. ANTHROPIC_BASE_URL=http:\/\/localhost:4747\)/,
    );
    const other = await raw("GET", "/v2/nowhere", { host: "localhost", authorization: `Bearer ${KEY}` });
    assert.match(envelope(other).message, /Patchbay serves \/v1\/chat\/completions/);
  });

  test("HEAD of a GET route answers like the GET without a body and is logged as it; HEAD probes are no errors", async () => {
    const auth = { host: "localhost", authorization: `Bearer ${KEY}` };
    const get = await raw("GET", "/v1/models", auth);
    const head = await raw("HEAD", "/v1/models", auth);
    assert.equal(head.status, 200);
    assert.equal(head.body, "");
    assert.equal(head.headers["content-type"], get.headers["content-type"]);
    assert.equal(head.headers["content-length"], get.headers["content-length"]);
    const headEntries = () => s.log.entries.filter((e) => e.method === "HEAD");
    await waitFor("the HEAD is logged", () => headEntries().length === 1, 5_000);
    assert.deepEqual(
      headEntries().map((e) => [e.endpoint, e.status, e.errorCode]),
      [["/v1/models", 200, null]],
    );
    // Probes of a POST-only path and of an unknown one: answered (405 + Allow, 404), not logged as failed requests.
    const post = await raw("HEAD", "/v1/chat/completions", auth);
    assert.equal(post.status, 405);
    assert.equal(post.headers.allow, "POST");
    assert.equal((await raw("HEAD", "/api/hello", auth)).status, 404);
    // A refused key is logged, HEAD or not (the next entry also shows the probes before it were skipped).
    assert.equal(
      (await raw("HEAD", "/v1/models", { host: "localhost", authorization: "Bearer pb-wrong" })).status,
      401,
    );
    await waitFor("the refused HEAD is logged", () => headEntries().length === 2, 5_000);
    assert.deepEqual(
      headEntries().map((e) => [e.endpoint, e.status, e.errorCode]),
      [
        ["/v1/models", 200, null],
        ["/v1/models", 401, "invalid_api_key"],
      ],
    );
  });

  test("POST on /v1/models → 405 with Allow: GET, HEAD; unknown paths stay 404", async () => {
    const r = await raw("POST", "/v1/models", { host: "localhost", authorization: `Bearer ${KEY}` }, "{}");
    assert.equal(r.status, 405);
    assert.equal(r.headers.allow, "GET, HEAD");
    const unknown = await raw("GET", "/v1/nowhere", { host: "localhost", authorization: `Bearer ${KEY}` });
    assert.equal(unknown.status, 404);
  });
});
