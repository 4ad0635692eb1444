// CORS after authentication: the key's own app decides, even when another app lists the origin.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { cors, restrictCorsToApp } from "../../../server/http/middleware/cors";

let server: http.Server;
let base = "";

before(async () => {
  const app = express();
  // Any app's origins answer preflights and unauthenticated errors; "good" is listed by app t1 only.
  app.use(cors(() => ["http://good.example"]));
  const fakeAuth =
    (origins: string[]): express.RequestHandler =>
    (_req, res, next) => {
      res.locals.auth = { app: { limits: { corsOrigins: origins } } };
      next();
    };
  app.get("/t1", fakeAuth(["http://good.example"]), restrictCorsToApp(), (_req, res) => void res.json({ ok: true }));
  app.get("/t2", fakeAuth([]), restrictCorsToApp(), (_req, res) => void res.json({ ok: true }));
  server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((r) => server.close(() => r())));

test("the app that lists the origin gets Access-Control-Allow-Origin", async () => {
  const res = await fetch(`${base}/t1`, { headers: { origin: "http://good.example" } });
  assert.equal(res.headers.get("access-control-allow-origin"), "http://good.example");
  // A browser client may read what Patchbay says about routing and budgets, not only its session.
  const exposed = (res.headers.get("access-control-expose-headers") ?? "").split(", ");
  for (const h of ["x-patchbay-served-model", "x-patchbay-skipped", "retry-after", "x-codex-primary-used-percent"])
    assert.ok(exposed.includes(h), h);
  assert.ok(exposed.includes("anthropic-ratelimit-unified-5h-utilization"));
});

test("another app's key from that origin gets no CORS headers", async () => {
  const res = await fetch(`${base}/t2`, { headers: { origin: "http://good.example" } });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("access-control-allow-origin"), null);
  assert.equal(res.headers.get("access-control-expose-headers"), null);
});
