// Admin API edges found by QA: reserved alias names are refused (not silently dropped), the OpenAI host must be a
// loopback address (LAN exposure is the way to listen wider), bad %-escapes are 400, 404s name the full path.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { errorOf, startAdmin, type StartedAdmin } from "./fakes";

describe("admin API input edges", () => {
  let s: StartedAdmin;
  before(async () => {
    s = await startAdmin();
    await s.fakes.apps.create("demo");
  });
  after(async () => {
    await s.close();
  });

  const patch = (path: string, body: string) =>
    s.request("PATCH", path, { body, headers: { "content-type": "application/json", origin: s.origin } });

  test("aliases named __proto__, constructor or prototype → 400 naming the alias, nothing saved", async () => {
    for (const name of ["__proto__", "constructor", "prototype"]) {
      const res = await patch("/admin/api/apps/demo", `{"aliases":{"${name}":"mock/zeta"}}`);
      assert.equal(res.status, 400, `${name}: ${res.text}`);
      const err = errorOf(res);
      assert.equal(err.field, `aliases.${name}`);
      assert.match(err.message, /reserved/);
    }
    assert.deepEqual(s.fakes.apps.get("demo")?.aliases, {});
    assert.equal(s.fakes.apps.patches.length, 0);
  });

  test("an alias name over 80 characters or with a space → 400 saying the rule, the field cut short", async () => {
    for (const name of ["x".repeat(81), "a b"]) {
      const res = await patch("/admin/api/apps/demo", JSON.stringify({ aliases: { [name]: "mock/zeta" } }));
      assert.equal(res.status, 400, res.text);
      const err = errorOf(res);
      assert.match(err.message, /Alias names are 1–80 characters/);
      assert.ok(String(err.field).length <= "aliases.".length + 81, String(err.field));
    }
    assert.deepEqual(s.fakes.apps.get("demo")?.aliases, {});
  });

  test("settings host must be loopback; LAN exposure is named as the way to listen wider", async () => {
    for (const host of ["0.0.0.0", "not a host!!", "192.168.1.5", "::", "example.com"]) {
      const res = await patch("/admin/api/settings", JSON.stringify({ host }));
      assert.equal(res.status, 400, `${host}: ${res.text}`);
      const err = errorOf(res);
      assert.equal(err.field, "host");
      assert.match(err.message, /LAN exposure/);
    }
    for (const host of ["127.0.0.1", "localhost", "::1", "127.0.0.2"]) {
      const res = await patch("/admin/api/settings", JSON.stringify({ host }));
      assert.equal(res.status, 200, `${host}: ${res.text}`);
    }
  });

  test("bad percent-encoding in a path parameter → 400, nothing logged", async () => {
    for (const path of ["/admin/api/apps/%ff", "/admin/api/apps/%ff/keys", "/admin/api/apps/demo/keys/%E0%A4%A"]) {
      const res = await s.request("GET", path);
      assert.equal(res.status, 400, `${path}: ${res.text}`);
      assert.equal(errorOf(res).code, "invalid_request_error");
    }
    assert.deepEqual(s.fakes.logLines, []);
  });

  test("404 for an unknown admin endpoint names the full path", async () => {
    const res = await s.request("GET", "/admin/api/start?x=1");
    assert.equal(res.status, 404);
    assert.equal(errorOf(res).message, "No admin API endpoint GET /admin/api/start.");
  });
});
