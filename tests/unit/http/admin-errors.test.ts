// The admin listener's error middleware on bad input that never passes a route: corrupt compressed bodies and bad
// %-escapes in the path are 400s with the admin error shape, never 500s.
import { gzipSync } from "node:zlib";
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import express from "express";
import { Listener } from "../../../server/http/listener";
import { toOpenAiErrorBody } from "../../../server/wires/openai/error-envelope";
import { adminErrorHandler } from "../../../server/http/admin/middleware/errors";

let listener: Listener;
let base: string;
const logged: string[] = [];

before(async () => {
  const app = express();
  app.use(express.json({ limit: "1kb" }));
  app.post("/admin/api/apps/:name", (req, res) => void res.json({ name: req.params.name, body: req.body as unknown }));
  app.use(adminErrorHandler((l) => logged.push(l)));
  listener = new Listener(app, "127.0.0.1", 0, toOpenAiErrorBody);
  base = `http://127.0.0.1:${(await listener.start()).port}`;
});
after(async () => {
  await listener.stop(0);
});

async function post(pathname: string, body: Buffer | string, headers: Record<string, string> = {}) {
  const payload = typeof body === "string" ? body : new Uint8Array(body);
  const res = await fetch(base + pathname, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: payload,
  });
  return { status: res.status, body: (await res.json()) as { error?: { code: string; message: string } } };
}

test("valid plain and gzip bodies pass", async () => {
  assert.equal((await post("/admin/api/apps/a", "{}")).status, 200);
  assert.equal((await post("/admin/api/apps/a", gzipSync("{}"), { "content-encoding": "gzip" })).status, 200);
});

test("corrupt compressed bodies → 400 invalid_request_error", async () => {
  for (const enc of ["gzip", "deflate", "br"]) {
    const r = await post("/admin/api/apps/a", "{not compressed}", { "content-encoding": enc });
    assert.equal(r.status, 400, enc);
    assert.equal(r.body.error?.code, "invalid_request_error");
  }
});

test("a bad %-escape in a path parameter → 400, not 500", async () => {
  const r = await post("/admin/api/apps/%ff", "{}");
  assert.equal(r.status, 400);
  assert.equal(r.body.error?.code, "invalid_request_error");
  assert.deepEqual(logged, [], "client errors must not be logged as internal errors");
});

test("gzip bomb → 413 (the limit counts inflated bytes)", async () => {
  const r = await post("/admin/api/apps/a", gzipSync(Buffer.alloc(1024 * 1024, 0x20)), { "content-encoding": "gzip" });
  assert.equal(r.status, 413);
  assert.equal(r.body.error?.code, "payload_too_large");
});
