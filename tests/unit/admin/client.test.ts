// The typed admin client against the real admin app: outputs parsed, errors thrown as AdminApiError with the
// server's code/field, local validation before any request, URLs built from the table.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { AdminApiError, createAdminClient, endpointUrl, type FetchLike } from "../../../shared/admin/client";
import { adminApi } from "../../../shared/admin-api";
import { startAdmin, type StartedAdmin } from "./fakes";

describe("admin client", () => {
  let s: StartedAdmin;
  let requests = 0;
  before(async () => {
    s = await startAdmin();
  });
  after(async () => {
    await s.close();
  });

  const authedFetch =
    (token: string): FetchLike =>
    (url, init) => {
      requests += 1;
      return fetch(url, { ...init, headers: { ...init.headers, authorization: `Bearer ${token}` } });
    };

  test("calls rows and parses outputs", async () => {
    const client = createAdminClient(authedFetch(s.token), s.origin);
    const status = await client.getStatus();
    assert.equal(status.desktop, false);
    const app = await client.createApp({ body: { name: "via-client", aliases: { fast: "mock/zeta#high" } } });
    assert.equal(app.name, "via-client");
    const updated = await client.updateApp({ params: { name: "via-client" }, body: { limits: { concurrency: 3 } } });
    assert.equal(updated.limits.concurrency, 3);
    const key = await client.createKey({ params: { name: "via-client" }, body: { label: "x" } });
    assert.match(key.key, /^pb-via-client-/);
    const { keys } = await client.listKeys({ params: { name: "via-client" } });
    assert.equal(keys.length, 1);
    assert.equal("key" in (keys[0] ?? {}), false);
    const page = await client.queryLogs({ query: { limit: 10 } });
    assert.deepEqual(page.entries, []);
    const cat = await client.getModels();
    assert.equal(cat.providers.length, 2);
    await client.revokeKey({ params: { name: "via-client", prefix: key.prefix } });
    assert.deepEqual(await client.deleteApp({ params: { name: "via-client" } }), { ok: true });
  });

  test("server errors become AdminApiError with code, status and field", async () => {
    const client = createAdminClient(authedFetch(s.token), s.origin);
    await assert.rejects(client.getApp({ params: { name: "missing-app" } }), (err: unknown) => {
      assert.ok(err instanceof AdminApiError);
      assert.equal(err.code, "app_not_found");
      assert.equal(err.status, 404);
      return true;
    });
    const anon = createAdminClient(authedFetch("wrong"), s.origin);
    await assert.rejects(
      anon.getStatus(),
      (err: unknown) => err instanceof AdminApiError && err.code === "admin_auth_required" && err.status === 401,
    );
  });

  test("bad input is rejected locally with the field, without a request", async () => {
    const client = createAdminClient(authedFetch(s.token), s.origin);
    const before = requests;
    await assert.rejects(
      client.updateApp({ params: { name: "x" }, body: { limits: { concurrency: 0 } } }),
      (err: unknown) => {
        assert.ok(err instanceof AdminApiError);
        assert.equal(err.code, "invalid_request_error");
        assert.equal(err.field, "limits.concurrency");
        return true;
      },
    );
    assert.equal(requests, before);
  });

  test("network failures and non-JSON answers are typed too", async () => {
    const down = createAdminClient(async () => {
      throw new Error("ECONNREFUSED");
    }, s.origin);
    await assert.rejects(
      down.getStatus(),
      (err: unknown) => err instanceof AdminApiError && err.code === "network_error" && err.status === 0,
    );
    const html = createAdminClient(
      async () => ({ ok: true, status: 200, headers: { get: () => "text/html" }, text: async () => "<html>" }),
      "",
    );
    await assert.rejects(
      html.getStatus(),
      (err: unknown) => err instanceof AdminApiError && err.code === "bad_response",
    );
    const shape = createAdminClient(
      async () => ({ ok: true, status: 200, headers: { get: () => null }, text: async () => "{}" }),
      "",
    );
    await assert.rejects(
      shape.getStatus(),
      (err: unknown) => err instanceof AdminApiError && err.code === "bad_response",
    );
  });

  test("endpointUrl fills params and query from the table", () => {
    assert.equal(
      endpointUrl("http://h:1/", adminApi.revokeKey, { params: { name: "my-app", prefix: "a b" } }),
      "http://h:1/admin/api/apps/my-app/keys/a%20b",
    );
    assert.equal(
      endpointUrl("", adminApi.queryLogs, { query: { app: "x", status: undefined, limit: 5 } }),
      "/admin/api/logs?app=x&limit=5",
    );
    assert.equal(endpointUrl("", adminApi.logStream), "/admin/api/logs/stream");
  });
});
