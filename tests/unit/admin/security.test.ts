// Admin listener security: auth (Bearer admin token or dashboard session token, one-time login, no cookies), Host
// check, Origin check on writes, no CORS, JSON errors from one middleware, the renderer served without secrets.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { rendererNotice } from "../../../server/http/admin/static";
import { rawExchange } from "../http/raw-socket";
import { errorOf, startAdmin, type StartedAdmin } from "./fakes";

describe("admin security", () => {
  let s: StartedAdmin;
  before(async () => {
    s = await startAdmin();
  });
  after(async () => {
    await s.close();
  });

  test("a client pointed at the dashboard's port is told where the API is (POST and GET, with and without /v1)", async () => {
    for (const [method, path] of [
      ["POST", "/v1/chat/completions"],
      ["POST", "/v1/messages"],
      ["GET", "/v1/models"],
      ["POST", "/responses"],
      ["GET", "/healthz"],
    ] as const) {
      const res = await s.request(method, path, { auth: "none", headers: { authorization: "Bearer pb-someappkey" } });
      assert.equal(res.status, 401, `${method} ${path}`);
      assert.match(
        errorOf(res).message,
        /dashboard port, not its API: point the client at http:\/\/127\.0\.0\.1:4747\/v1/,
      );
    }
    const page = await s.request("GET", "/apps", { auth: "none" });
    assert.equal(page.status, 200, "dashboard pages still load");
  });

  test("API without credentials → 401 admin_auth_required", async () => {
    const res = await s.request("GET", "/admin/api/status", { auth: "none" });
    assert.equal(res.status, 401);
    assert.equal(errorOf(res).code, "admin_auth_required");
    const wrong = await s.request("GET", "/admin/api/status", {
      auth: "none",
      headers: { authorization: "Bearer nope" },
    });
    assert.equal(wrong.status, 401);
    const cookie = await s.request("GET", "/admin/api/apps", {
      auth: "none",
      headers: { cookie: `patchbay_admin=${s.token}` },
    });
    assert.equal(cookie.status, 401, "cookies never authenticate, not even one holding the admin token");
  });

  test("page loads need no credentials and carry none (the page shows its own sign-in screen)", async () => {
    const res = await s.request("GET", "/apps", { auth: "none" });
    assert.equal(res.status, 200);
    assert.match(res.text, /<div id=root>/);
    assert.equal(res.headers["set-cookie"], undefined);
  });

  /** Trades a fresh login URL's nonce for a session token the way the dashboard page does. */
  async function signIn(): Promise<string> {
    const nonce = new URL(s.admin.createLoginUrl()).searchParams.get("token") ?? "";
    const res = await s.request("POST", "/admin/api/dashboard-session", {
      auth: "none",
      headers: { origin: s.origin },
      body: { loginToken: nonce },
    });
    assert.equal(res.status, 201, res.text);
    return (res.json() as { sessionToken: string }).sessionToken;
  }

  test("one-time login URL: the page loads while the nonce is unused, the nonce trades once for a session token", async () => {
    const url = new URL(s.admin.createLoginUrl());
    assert.equal(url.origin, s.origin);
    const nonce = url.searchParams.get("token") ?? "";
    assert.ok(nonce.length >= 32);
    assert.notEqual(nonce, s.token, "the login nonce must not be the admin token");

    const page = await s.request("GET", url.pathname + url.search, { auth: "none" });
    assert.equal(page.status, 200);
    assert.match(page.text, /<div id=root>/);
    assert.equal(page.headers["set-cookie"], undefined, "no cookie, ever (issue 16 item 9)");
    assert.equal(page.headers["cache-control"], "no-store");

    const first = await s.request("POST", "/admin/api/dashboard-session", {
      auth: "none",
      headers: { origin: s.origin },
      body: { loginToken: nonce },
    });
    assert.equal(first.status, 201, first.text);
    assert.equal(first.headers["set-cookie"], undefined);
    const session = (first.json() as { sessionToken: string }).sessionToken;
    assert.ok(session.length >= 32);
    assert.notEqual(session, s.token, "a session token is not the admin token");
    const api = await s.request("GET", "/admin/api/status", {
      auth: "none",
      headers: { authorization: `Bearer ${session}` },
    });
    assert.equal(api.status, 200);

    const again = await s.request("POST", "/admin/api/dashboard-session", {
      auth: "none",
      headers: { origin: s.origin },
      body: { loginToken: nonce },
    });
    assert.equal(again.status, 401);
    assert.equal(errorOf(again).code, "admin_auth_required");
    const usedPage = await s.request("GET", url.pathname + url.search, { auth: "none" });
    assert.equal(usedPage.status, 401);
    assert.match(usedPage.text, /only once/);
    assert.match(usedPage.text, /patchbay dashboard/);

    const bogus = await s.request("GET", "/login?token=guess", { auth: "none" });
    assert.equal(bogus.status, 401);
    const crossSite = await s.request("POST", "/admin/api/dashboard-session", {
      auth: "none",
      headers: { origin: "http://evil.example" },
      body: { loginToken: new URL(s.admin.createLoginUrl()).searchParams.get("token") },
    });
    assert.equal(crossSite.status, 403, "another site cannot trade a nonce either");
  });

  test("sign out ends that session only; the admin token and other sessions keep working", async () => {
    const one = await signIn();
    const two = await signIn();
    const out = await s.request("DELETE", "/admin/api/dashboard-session", {
      auth: "none",
      headers: { authorization: `Bearer ${one}`, origin: s.origin },
    });
    assert.equal(out.status, 200);
    const get = (token: string) =>
      s.request("GET", "/admin/api/status", { auth: "none", headers: { authorization: `Bearer ${token}` } });
    assert.equal((await get(one)).status, 401);
    assert.equal((await get(two)).status, 200);
    assert.equal((await get(s.token)).status, 200);
    assert.deepEqual(
      s.admin.secrets().filter((x) => x === one || x === two),
      [two],
      "live session tokens are known secrets (redacted from the log); ended ones are gone",
    );
  });

  test("a fresh login URL through the admin API (patchbay dashboard) needs the admin token", async () => {
    const refused = await s.request("POST", "/admin/api/login-links", { auth: "none" });
    assert.equal(refused.status, 401);
    const res = await s.request("POST", "/admin/api/login-links");
    assert.equal(res.status, 201, res.text);
    const url = new URL((res.json() as { url: string }).url);
    assert.equal(url.origin, s.origin);
    assert.equal(url.pathname, "/login");
    const page = await s.request("GET", url.pathname + url.search, { auth: "none" });
    assert.equal(page.status, 200, "the new link works");
  });

  test("wrong Host → 403 forbidden_host, even with a valid token", async () => {
    for (const host of [
      "evil.example",
      `localhost:${s.port}`,
      "127.0.0.1",
      `127.0.0.1:${s.port + 1}`,
      `attacker.test:${s.port}`,
    ]) {
      const res = await s.request("GET", "/admin/api/status", { headers: { host } });
      assert.equal(res.status, 403, host);
      assert.equal(errorOf(res).code, "forbidden_host");
    }
    const login = await s.request("GET", "/login?token=x", { auth: "none", headers: { host: "evil.example" } });
    assert.equal(login.status, 403);
    const page = await s.request("GET", "/", { headers: { host: "evil.example" } });
    assert.equal(page.status, 403);
  });

  test("two Host headers (the right one first) → 400, never served (issue 16 item 7)", async () => {
    const r = await rawExchange(
      s.port,
      `GET /admin/api/status HTTP/1.1\r\nHost: ${s.host}\r\nHost: evil.example\r\nAuthorization: Bearer ${s.token}\r\nConnection: close\r\n\r\n`,
    );
    assert.equal(r.status, 400, r.body);
    assert.match(r.body, /more than one Host header/);
  });

  test("cross-origin writes → 403 forbidden_origin", async () => {
    const authorization = `Bearer ${await signIn()}`;
    const cases: Record<string, string>[] = [
      { authorization, origin: "http://evil.example" },
      { authorization, origin: `http://127.0.0.1:${s.port + 1}` },
      { authorization, origin: "null" },
      { authorization, "sec-fetch-site": "cross-site" },
      { authorization, "sec-fetch-site": "same-site" },
      { authorization: `Bearer ${s.token}`, origin: "http://evil.example" },
      { origin: "http://evil.example" }, // unauthenticated and cross-origin: origin check first
    ];
    for (const headers of cases) {
      const res = await s.request("POST", "/admin/api/apps", { auth: "none", headers, body: { name: "x-origin" } });
      assert.equal(res.status, 403, JSON.stringify(headers));
      assert.equal(errorOf(res).code, "forbidden_origin");
    }
    assert.equal(s.fakes.apps.get("x-origin"), undefined);
  });

  test("same-origin writes succeed (Origin, Sec-Fetch-Site, or Bearer from a script)", async () => {
    const authorization = `Bearer ${await signIn()}`;
    const a = await s.request("POST", "/admin/api/apps", {
      auth: "none",
      headers: { authorization, origin: s.origin },
      body: { name: "same-a" },
    });
    assert.equal(a.status, 201);
    const b = await s.request("POST", "/admin/api/apps", {
      auth: "none",
      headers: { authorization, "sec-fetch-site": "same-origin" },
      body: { name: "same-b" },
    });
    assert.equal(b.status, 201);
    const c = await s.request("POST", "/admin/api/apps", { body: { name: "same-c" } });
    assert.equal(c.status, 201);
    const reads = await s.request("GET", "/admin/api/apps", {
      auth: "none",
      headers: { authorization, "sec-fetch-site": "cross-site" },
    });
    assert.equal(reads.status, 200, "reads are not origin-checked (no CORS means the page cannot read them)");
  });

  test("no CORS headers, ever", async () => {
    const evil = {
      origin: "http://evil.example",
      "access-control-request-method": "POST",
      "access-control-request-headers": "content-type",
    };
    const responses = [
      await s.request("OPTIONS", "/admin/api/apps", { headers: evil }),
      await s.request("OPTIONS", "/admin/api/apps", { auth: "none", headers: evil }),
      await s.request("GET", "/admin/api/status", { headers: { origin: "http://evil.example" } }),
      await s.request("GET", "/admin/api/status", { headers: { origin: s.origin } }),
      await s.request("POST", "/admin/api/apps", {
        headers: { origin: "http://evil.example" },
        body: { name: "cors" },
      }),
      await s.request("GET", "/", { headers: { origin: "http://evil.example" } }),
    ];
    for (const res of responses) {
      const cors = Object.keys(res.headers).filter((h) => h.startsWith("access-control-"));
      assert.deepEqual(cors, [], `status ${res.status}`);
    }
  });

  test("unknown API route or method → 404 JSON", async () => {
    for (const [method, p] of [
      ["GET", "/admin/api/nope"],
      ["PUT", "/admin/api/status"],
      ["GET", "/admin/api"],
      ["DELETE", "/admin/api/settings"],
    ] as const) {
      const res = await s.request(method, p);
      assert.equal(res.status, 404, `${method} ${p}`);
      assert.match(String(res.headers["content-type"]), /application\/json/);
      assert.equal(errorOf(res).code, "not_found");
    }
  });

  test("invalid JSON → 400 invalid_json; non-JSON body → 415; unexpected error → 500 without details", async () => {
    const bad = await s.request("POST", "/admin/api/apps", {
      body: "{not json",
      headers: { "content-type": "application/json" },
    });
    assert.equal(bad.status, 400);
    assert.equal(errorOf(bad).code, "invalid_json");
    const form = await s.request("POST", "/admin/api/apps", {
      body: "name=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    assert.equal(form.status, 415);
    assert.equal(errorOf(form).code, "unsupported_media_type");

    s.fakes.listModels = async () => {
      throw new Error("secret internal detail /home/user/.local");
    };
    const boom = await s.request("GET", "/admin/api/models");
    assert.equal(boom.status, 500);
    assert.equal(errorOf(boom).code, "internal_error");
    assert.doesNotMatch(boom.text, /secret internal detail/);
    assert.ok(
      s.fakes.logLines.some((l) => l.includes("secret internal detail")),
      "logged for the developer",
    );
  });

  test("security headers and no-store on the API", async () => {
    const res = await s.request("GET", "/admin/api/status");
    assert.equal(res.headers["x-content-type-options"], "nosniff");
    assert.equal(res.headers["referrer-policy"], "no-referrer");
    assert.match(String(res.headers["content-security-policy"]), /frame-ancestors 'none'/);
    assert.equal(res.headers["cache-control"], "no-store");
    assert.equal(res.headers["x-powered-by"], undefined);
  });

  test("renderer: files, SPA fallback for page paths, 404 for missing files", async () => {
    const asset = await s.request("GET", "/assets/app.js");
    assert.equal(asset.status, 200);
    assert.match(asset.text, /console\.log/);
    const deep = await s.request("GET", "/apps/demo/keys");
    assert.equal(deep.status, 200);
    assert.match(deep.text, /<div id=root>/);
    const missing = await s.request("GET", "/assets/gone.js");
    assert.equal(missing.status, 404);
  });
});

describe("admin without a built renderer", () => {
  test("page loads → 503 with instructions", async () => {
    const s = await startAdmin({ withStatic: false });
    try {
      const res = await s.request("GET", "/");
      assert.equal(res.status, 503);
      assert.match(res.text, /build:renderer/);
    } finally {
      await s.close();
    }
  });

  test("the status notice says so before anyone opens the page (serve prints notices at start)", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-renderer-"));
    try {
      assert.match(rendererNotice(dir) ?? "", /dashboard is not built.*npm run build:renderer/);
      fs.writeFileSync(path.join(dir, "index.html"), "<!doctype html>");
      assert.equal(rendererNotice(dir), null);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
