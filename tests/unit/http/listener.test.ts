// The Listener (server/http/listener.ts): requests that Node's HTTP parser rejects get a JSON error envelope instead of
// Node's bare 400, and the server keeps serving on other connections.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { OpenAiErrorEnvelope, rawHttp } from "../../harness/http-helpers";
import { clientErrorAnswer } from "../../../server/http/listener";
import { KEY, startUnitServer, type UnitServer } from "./fakes";

let s: UnitServer;
before(async () => {
  s = await startUnitServer();
});
after(async () => {
  await s.close();
});

describe("malformed HTTP gets a JSON envelope", () => {
  const auth = `Authorization: Bearer ${KEY}\r\n`;
  const cases: [string, string, number][] = [
    ["bad method", "FO O /v1/models HTTP/1.1\r\nHost: localhost\r\n\r\n", 400],
    ["control byte in a header", "GET /v1/models HTTP/1.1\r\nHost: localhost\r\nX-A: a\u0001b\r\n\r\n", 400],
    ["header without colon", "GET /v1/models HTTP/1.1\r\nHost: localhost\r\nnocolon\r\n\r\n", 400],
    [
      "broken chunked body",
      `POST /v1/chat/completions HTTP/1.1\r\nHost: localhost\r\n${auth}Transfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n`,
      400,
    ],
    [
      "content-length and chunked",
      "POST /v1/chat/completions HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      400,
    ],
    ["oversized headers", `GET /v1/models HTTP/1.1\r\nHost: localhost\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`, 431],
  ];
  for (const [name, request, status] of cases) {
    test(name, async () => {
      const r = await rawHttp(s.port, request);
      assert.equal(r.status, status);
      assert.match(r.headers["content-type"] ?? "", /^application\/json/);
      const env = OpenAiErrorEnvelope.parse(JSON.parse(r.body));
      assert.equal(env.error.code, "invalid_request_error");
    });
  }

  test("the server still serves afterwards", async () => {
    const r = await rawHttp(
      s.port,
      `GET /v1/models HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${KEY}\r\nConnection: close\r\n\r\n`,
    );
    assert.equal(r.status, 200);
    assert.equal((JSON.parse(r.body) as { object: string }).object, "list");
  });

  test("a body shorter than its Content-Length (client gone) is a 4xx, never a 5xx", async () => {
    const r = await rawHttp(
      s.port,
      `POST /v1/chat/completions HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"model":`,
      { halfClose: true },
    );
    assert.ok(r.status === 0 || (r.status >= 400 && r.status < 500), `status ${r.status}`);
    if (r.status) OpenAiErrorEnvelope.parse(JSON.parse(r.body));
  });
});

test("Node's two timeouts are told apart: a body still trickling in is not 'headers did not arrive'", () => {
  assert.deepEqual(clientErrorAnswer("ERR_HTTP_HEADERS_TIMEOUT"), [
    408,
    "Request Timeout",
    "The request headers did not arrive within 20 s.",
  ]);
  assert.deepEqual(clientErrorAnswer("ERR_HTTP_REQUEST_TIMEOUT"), [
    408,
    "Request Timeout",
    "The request (headers and body) did not arrive within 120 s.",
  ]);
  assert.equal(clientErrorAnswer("HPE_HEADER_OVERFLOW")[0], 431);
  assert.equal(clientErrorAnswer(undefined)[0], 400);
});
