// Fuzz (issue 8): ≥ 1,000 generated bad bodies, headers and paths per run against /v1/chat/completions, /v1/responses
// and /v1/models of a real Patchbay (real OpenCode + mock upstream). Properties: never a 5xx, never a crash, every
// error is a valid OpenAI envelope, the server still serves afterwards. Headers and paths go over a raw socket so
// malformed request lines and framing reach the server. Seed: PATCHBAY_FUZZ_SEED (printed on every run).
import { gzipSync } from "node:zlib";
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { ERROR_CODES } from "../../shared/errors";
import type { PatchbayFixture } from "../harness/patchbay-fixture";
import { releaseSharedPatchbay, useSharedPatchbay } from "../harness/shared-patchbay";
import { OpenAiErrorEnvelope, rawHttp, readSse, type RawHttpResult } from "../harness/http-helpers";
import { FUZZ_SCALE, FUZZ_SEED, StatusTally, openFuzzApp, runProperty } from "../harness/fuzz";
import { FUZZ_OPENAI_MODEL, chatBodyText, responsesBodyText } from "../harness/fuzz-openai-bodies";

// Half of issue 8's 2,000 per run since the suite had to fit in 12 minutes: the seed changes every run, so CI still
// covers new inputs each time; PATCHBAY_FUZZ_SCALE=2 (or more) restores the longer hunt by hand.
const RUNS = {
  chat: 350 * FUZZ_SCALE,
  responses: 350 * FUZZ_SCALE,
  headers: 225 * FUZZ_SCALE,
  paths: 225 * FUZZ_SCALE,
};
const MIN_SENT = 1000 * FUZZ_SCALE;
const ALLOWED = FUZZ_OPENAI_MODEL;

let fx: PatchbayFixture;
let key: string;
let port: number;
const tally = new StatusTally();

before(async () => {
  fx = await useSharedPatchbay();
  key = await openFuzzApp(fx, "fuzz", [ALLOWED]);
  port = Number(new URL(fx.apiBase).port);
});
after(async () => {
  await releaseSharedPatchbay(fx);
});

// ---- checks ----------------------------------------------------------------------------------------------------

/** Checks one HTTP answer: no 5xx, an envelope on every error, a sane success. Returns a failure text or null. */
async function checkFetch(category: string, res: Response): Promise<string | null> {
  tally.count(category, res.status);
  if (res.status >= 500) return `${res.status}: ${(await res.text()).slice(0, 300)}`;
  if (res.status >= 400) return envelopeProblem(res.headers.get("content-type"), await res.text());
  if ((res.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    const frames = await readSse(res);
    for (const f of frames) {
      const code =
        (f.json?.error as { code?: string } | undefined)?.code ??
        (f.json?.response as { error?: { code?: string } } | undefined)?.error?.code;
      if (code && ((ERROR_CODES as Record<string, number>)[code] ?? 500) >= 500)
        return `in-band ${code}: ${f.data.slice(0, 300)}`;
    }
    return null;
  }
  const text = await res.text();
  try {
    JSON.parse(text);
  } catch {
    return `200 without JSON: ${text.slice(0, 200)}`;
  }
  return null;
}

function envelopeProblem(contentType: string | null | undefined, body: string): string | null {
  if (!/^application\/json/.test(contentType ?? ""))
    return `error without JSON content type (${contentType}): ${body.slice(0, 200)}`;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return `error body is not JSON: ${body.slice(0, 200)}`;
  }
  const env = OpenAiErrorEnvelope.safeParse(json);
  return env.success ? null : `not an OpenAI envelope: ${body.slice(0, 300)}`;
}

function checkRaw(category: string, method: string, r: RawHttpResult): string | null {
  tally.count(category, r.status);
  if (r.status === 0) return `no HTTP answer (connection closed): ${r.body.slice(0, 100)}`;
  if (r.status >= 500) return `${r.status}: ${r.body.slice(0, 300)}`;
  if (r.status >= 400 && method !== "HEAD") return envelopeProblem(r.headers["content-type"], r.body);
  return null;
}

// ---- properties ------------------------------------------------------------------------------------------------

describe(`fuzz (seed ${FUZZ_SEED})`, () => {
  test("chat completions: generated bad bodies", async () => {
    await runProperty("chat bodies", chatBodyText, RUNS.chat, async (b) =>
      checkFetch(
        "chat",
        await fx.api("/v1/chat/completions", { method: "POST", key, body: b, signal: AbortSignal.timeout(30_000) }),
      ),
    );
  });

  test("responses: generated bad bodies", async () => {
    await runProperty("responses bodies", responsesBodyText, RUNS.responses, async (b) =>
      checkFetch(
        "responses",
        await fx.api("/v1/responses", { method: "POST", key, body: b, signal: AbortSignal.timeout(30_000) }),
      ),
    );
  });

  test("headers: methods, auth, content types and encodings, framing, Host and Origin (raw socket)", async () => {
    const headerValue = fc.oneof(
      fc.constantFrom("", " ", "x", "\u00ff", "a".repeat(9000), "null", "*", "bearer", "gzip"),
      fc.string({ maxLength: 30 }).map((s) => s.replace(/[\r\n]/g, "")),
    );
    const req = fc.record({
      method: fc.constantFrom(
        "GET",
        "POST",
        "PUT",
        "DELETE",
        "PATCH",
        "HEAD",
        "OPTIONS",
        "TRACE",
        "FOO",
        "get",
        "P0ST",
      ),
      target: fc.constantFrom(
        "/v1/chat/completions",
        "/v1/responses",
        "/v1/models",
        "/v1/models/mock%2Fmock-model",
        "/chat/completions",
        "/models",
      ),
      auth: fc.option(
        fc.constantFrom(
          "good",
          "lower",
          "spaces",
          "suffix",
          "truncated",
          "basic",
          "bare",
          "scheme-only",
          "long",
          "two",
          "other-scheme",
        ),
        { nil: undefined },
      ),
      contentType: fc.option(
        fc.constantFrom(
          "application/json",
          "text/plain",
          "application/x-www-form-urlencoded",
          "multipart/form-data; boundary=x",
          "application/json; charset=utf-16",
          "application/json; charset=bogus",
          "*/*",
          ";;;",
          "application/json; charset=latin1",
        ),
        { nil: undefined },
      ),
      encoding: fc.option(fc.constantFrom("gzip", "deflate", "br", "identity", "gzip, br", "compress", "x-bogus"), {
        nil: undefined,
      }),
      compress: fc.boolean(),
      body: fc.oneof(
        fc.constantFrom(
          `{"model":"mock/mock-model","messages":[{"role":"user","content":"hi"}]}`,
          `{"model":"${ALLOWED}","input":1}`,
          "",
          "{",
        ),
        fc.string({ maxLength: 50 }),
      ),
      framing: fc.constantFrom("length", "length", "chunked", "bad-chunked", "short", "none"),
      host: fc.constantFrom("ok", "ok", "localhost", "evil", "empty", "missing", "two"),
      origin: fc.option(fc.constantFrom("https://evil.example", "null", "http://localhost:3000"), { nil: undefined }),
      extra: fc.array(
        fc.tuple(
          fc.constantFrom(
            "x-forwarded-for",
            "x-a",
            "accept",
            "accept-encoding",
            "expect",
            "upgrade",
            "connection",
            "cookie",
            "te",
            "range",
          ),
          headerValue,
        ),
        { maxLength: 3 },
      ),
    });
    await runProperty("headers", req, RUNS.headers, async (r) => {
      const lines = [`${r.method} ${r.target} HTTP/1.1`];
      if (r.host === "ok") lines.push(`Host: 127.0.0.1:${port}`);
      else if (r.host === "localhost") lines.push("Host: localhost");
      else if (r.host === "evil") lines.push("Host: evil.example");
      else if (r.host === "empty") lines.push("Host: ");
      else if (r.host === "two") lines.push("Host: localhost", "Host: evil.example");
      const auth = r.auth && authHeader(r.auth);
      if (auth !== undefined) lines.push(`Authorization: ${auth}`);
      if (r.contentType) lines.push(`Content-Type: ${r.contentType}`);
      if (r.encoding) lines.push(`Content-Encoding: ${r.encoding}`);
      if (r.origin) lines.push(`Origin: ${r.origin}`);
      for (const [k, v] of r.extra) if (k !== "expect" && k !== "upgrade") lines.push(`${k}: ${v}`);
      lines.push("Connection: close");
      let body = Buffer.from(r.body, "utf8");
      if (r.compress && r.encoding === "gzip") body = gzipSync(body);
      let payload: Buffer = body;
      if (r.framing === "length" || r.framing === "short")
        lines.push(`Content-Length: ${r.framing === "short" ? body.length + 10 : body.length}`);
      if (r.framing === "chunked" || r.framing === "bad-chunked") {
        lines.push("Transfer-Encoding: chunked");
        payload =
          r.framing === "chunked"
            ? Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from("\r\n0\r\n\r\n")])
            : Buffer.from("zz\r\n{}\r\n");
      }
      if (r.framing === "none") payload = Buffer.alloc(0);
      const request = Buffer.concat([Buffer.from(lines.join("\r\n") + "\r\n\r\n", "latin1"), payload]);
      return checkRaw(
        "headers",
        r.method,
        await rawHttp(port, request, { halfClose: r.framing === "short" || r.framing === "bad-chunked" }),
      );
    });
  });

  test("paths and queries (raw request targets)", async () => {
    const segment = fc.oneof(
      fc.constantFrom(
        "v1",
        "models",
        "chat",
        "completions",
        "responses",
        "..",
        ".",
        "%2e%2e",
        "%2F",
        "%00",
        "%ff",
        "%",
        "%zz",
        "%E0%A4%A",
        "mock%2Fmock-model",
        "mock",
        "mock-model",
        "~",
        "*",
        "admin",
        "healthz",
        "__proto__",
        "constructor",
        "",
        "%2F%2F",
        ";",
        "%3B",
        "a".repeat(3000),
      ),
      fc.string({ maxLength: 12 }).map((s) => encodeURIComponent(s)),
    );
    const target = fc.oneof(
      {
        weight: 6,
        arbitrary: fc
          .tuple(
            fc.array(segment, { minLength: 1, maxLength: 6 }),
            fc.option(
              fc.string({ maxLength: 20 }).map((q) => encodeURIComponent(q).replace(/%3D/g, "=")),
              { nil: undefined },
            ),
          )
          .map(([segs, q]) => `/${segs.join("/")}${q !== undefined ? `?${q}` : ""}`),
      },
      { weight: 2, arbitrary: fc.array(segment, { maxLength: 3 }).map((segs) => `/v1/models/${segs.join("/")}`) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          "*",
          "http://127.0.0.1/v1/models",
          "http://evil.example/v1/models",
          "//v1/models",
          "/v1//models",
          "/v1/models?model=a&model=b",
          `/v1/models/${"%2F".repeat(1000)}`,
          "/v1/models/%C0%AF",
          `/${"x".repeat(20_000)}`,
        ),
      },
    );
    const req = fc.record({
      target,
      method: fc.constantFrom("GET", "POST", "DELETE", "OPTIONS"),
      withKey: fc.boolean(),
    });
    await runProperty("paths", req, RUNS.paths, async (r) => {
      const head = [
        `${r.method} ${r.target} HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        ...(r.withKey ? [`Authorization: Bearer ${key}`] : []),
        "Content-Type: application/json",
        "Content-Length: 2",
        "Connection: close",
      ];
      return checkRaw("paths", r.method, await rawHttp(port, `${head.join("\r\n")}\r\n\r\n{}`));
    });
  });

  test(`≥ ${MIN_SENT} requests were sent, nothing crashed, and the server still serves`, async (t) => {
    t.diagnostic(`seed ${FUZZ_SEED}; ${tally.sent} requests; statuses ${JSON.stringify(tally.byCategory)}`);
    assert.ok(tally.sent >= MIN_SENT, `only ${tally.sent} requests`);
    const internal = fx.logLines.filter((l) => /internal error|uncaught|unhandled/i.test(l));
    assert.deepEqual(internal, [], "Patchbay logged internal errors");
    assert.equal((await fx.api("/healthz")).status, 200);
    fx.mock.reset();
    fx.mock.script({ text: "still here" });
    const r = await fx
      .openai(key)
      .chat.completions.create({ model: ALLOWED, messages: [{ role: "user", content: "ping" }] });
    assert.equal(r.choices[0]?.message.content, "still here");
    const list = await fx.openai(key).models.list();
    assert.deepEqual(
      list.data.map((m) => m.id),
      [ALLOWED],
    );
  });
});

function authHeader(kind: string): string | undefined {
  switch (kind) {
    case "good":
      return `Bearer ${key}`;
    case "lower":
      return `bearer ${key}`;
    case "spaces":
      return `Bearer    ${key}   `;
    case "suffix":
      return `Bearer ${key}x`;
    case "truncated":
      return `Bearer ${key.slice(0, -1)}`;
    case "basic":
      return `Basic ${Buffer.from(`user:${key}`).toString("base64")}`;
    case "bare":
      return key;
    case "scheme-only":
      return "Bearer";
    case "long":
      return `Bearer pb-${"A".repeat(6000)}`;
    case "two":
      return `Bearer ${key}, Bearer ${key}`;
    default:
      return `Token ${key}`;
  }
}
