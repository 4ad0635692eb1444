// Admin API behaviour over real HTTP with in-memory fakes: apps CRUD, keys shown once, catalog, settings, logs,
// usage, API start/stop, desktop actions only with a DesktopHost.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { PatchbayError } from "../../../server/core/errors";
import { errorOf, logEntry, startAdmin, type StartedAdmin } from "./fakes";

describe("admin routes (headless)", () => {
  let s: StartedAdmin;
  before(async () => {
    s = await startAdmin();
  });
  after(async () => {
    await s.close();
  });

  test("status carries desktop=false and the log error", async () => {
    s.fakes.requestLog.error = "disk full";
    const res = await s.request("GET", "/admin/api/status");
    assert.equal(res.status, 200);
    const body = res.json() as { desktop: boolean; logError: string | null; api: { running: boolean } };
    assert.equal(body.desktop, false);
    assert.equal(body.logError, "disk full");
    assert.equal(body.api.running, true);
    s.fakes.requestLog.error = null;
  });

  test("start/stop API call the service and return status", async () => {
    const stop = await s.request("POST", "/admin/api/api/stop");
    assert.equal(stop.status, 200);
    const start = await s.request("POST", "/admin/api/api/start");
    assert.equal(start.status, 200);
    assert.deepEqual(s.fakes.calls, ["stopApi", "startApi"]);
  });

  test("apps: create, duplicate, get, list with key count, update without resetting other fields, delete revokes keys", async () => {
    const created = await s.request("POST", "/admin/api/apps", { body: { name: "notes", models: ["mock/*"] } });
    assert.equal(created.status, 201);
    assert.deepEqual((created.json() as { models: string[] }).models, ["mock/*"]);

    const dup = await s.request("POST", "/admin/api/apps", { body: { name: "notes" } });
    assert.equal(dup.status, 409);
    assert.equal(errorOf(dup).code, "app_exists");

    await s.request("POST", "/admin/api/apps/notes/keys", { body: { label: "laptop" } });
    const list = (await s.request("GET", "/admin/api/apps")).json() as { apps: { name: string; keyCount: number }[] };
    assert.deepEqual(
      list.apps.map((a) => [a.name, a.keyCount]),
      [["notes", 1]],
    );

    await s.request("PATCH", "/admin/api/apps/notes", { body: { limits: { maxTools: 10 } } });
    const upd = await s.request("PATCH", "/admin/api/apps/notes", {
      body: { limits: { concurrency: 2 }, aliases: { fast: "mock/zeta#high" }, history: { maxSessions: 50 } },
    });
    assert.equal(upd.status, 200);
    const app = upd.json() as {
      limits: { concurrency: number; maxTools: number };
      aliases: Record<string, string>;
      history: { maxSessions: number | null; maxAgeDays: number | null };
    };
    assert.equal(app.limits.concurrency, 2);
    assert.equal(app.limits.maxTools, 10, "a one-field patch must not reset other limits");
    assert.deepEqual(app.aliases, { fast: "mock/zeta#high" });
    assert.deepEqual(app.history, { maxSessions: 50, maxAgeDays: null });
    assert.deepEqual(s.fakes.apps.patches.at(-1)?.patch, {
      limits: { concurrency: 2 },
      aliases: { fast: "mock/zeta#high" },
      history: { maxSessions: 50 },
    });
    assert.equal((app as { warnings?: string[] }).warnings, undefined, "an alias to a known model: no warning");

    // An alias to a model no provider offers is saved, with a warning in the response (issue 16 item 15).
    const ghost = await s.request("PATCH", "/admin/api/apps/notes", {
      body: { aliases: { fast: "mock/zeta#high", ghost: "mock/nonexistent" } },
    });
    assert.equal(ghost.status, 200);
    const warned = ghost.json() as { aliases: Record<string, string>; warnings?: string[] };
    assert.equal(warned.aliases.ghost, "mock/nonexistent");
    assert.equal(warned.warnings?.length, 1);
    assert.match(warned.warnings?.[0] ?? "", /Alias "ghost" points to mock\/nonexistent, which no connected provider/);
    await s.request("PATCH", "/admin/api/apps/notes", { body: { aliases: { fast: "mock/zeta#high" } } });

    const clear = await s.request("PATCH", "/admin/api/apps/notes", { body: { history: { maxSessions: null } } });
    assert.equal((clear.json() as { history: { maxSessions: number | null } }).history.maxSessions, null);

    const got = await s.request("GET", "/admin/api/apps/notes");
    assert.equal(got.status, 200);
    const missing = await s.request("GET", "/admin/api/apps/nobody");
    assert.equal(missing.status, 404);
    assert.equal(errorOf(missing).code, "app_not_found");
    assert.equal((await s.request("PATCH", "/admin/api/apps/nobody", { body: {} })).status, 404);

    const del = await s.request("DELETE", "/admin/api/apps/notes");
    assert.equal(del.status, 200);
    assert.deepEqual(del.json(), { ok: true });
    assert.deepEqual(s.fakes.keys.revokedAll, ["notes"]);
    assert.equal(s.fakes.keys.list("notes").length, 0);
    assert.equal((await s.request("DELETE", "/admin/api/apps/notes")).status, 404);
  });

  test("keys: the full key is returned once, never again", async () => {
    await s.request("POST", "/admin/api/apps", { body: { name: "keyed" } });
    const created = await s.request("POST", "/admin/api/apps/keyed/keys", { body: { label: "ci" } });
    assert.equal(created.status, 201);
    const key = (created.json() as { key: string; prefix: string }).key;
    const prefix = (created.json() as { prefix: string }).prefix;
    assert.match(key, /^pb-keyed-/);
    assert.ok(key.startsWith(`pb-${prefix}`));

    const noLabel = await s.request("POST", "/admin/api/apps/keyed/keys", { body: {} });
    assert.equal(noLabel.status, 201);
    const noBody = await s.request("POST", "/admin/api/apps/keyed/keys");
    assert.equal(noBody.status, 201);

    const list = await s.request("GET", "/admin/api/apps/keyed/keys");
    assert.equal(list.status, 200);
    const keys = (list.json() as { keys: Record<string, unknown>[] }).keys;
    assert.equal(keys.length, 3);
    for (const k of keys) {
      assert.deepEqual(Object.keys(k).sort(), ["app", "createdAt", "label", "lastUsedAt", "prefix"]);
    }
    for (const p of [
      "/admin/api/apps/keyed/keys",
      "/admin/api/apps",
      "/admin/api/apps/keyed",
      "/admin/api/status",
      "/admin/api/logs",
    ]) {
      const res = await s.request("GET", p);
      assert.equal(res.status, 200, p);
      assert.ok(!res.text.includes(key), `${p} must not contain the full key`);
    }

    const revoke = await s.request("DELETE", `/admin/api/apps/keyed/keys/${encodeURIComponent(prefix)}`);
    assert.equal(revoke.status, 200);
    const again = await s.request("DELETE", `/admin/api/apps/keyed/keys/${encodeURIComponent(prefix)}`);
    assert.equal(again.status, 404);
    assert.equal(errorOf(again).code, "key_not_found");
    assert.equal((await s.request("POST", "/admin/api/apps/ghost/keys", { body: {} })).status, 404);
  });

  test("model catalog: providers → models sorted by name; backend errors pass through", async () => {
    const res = await s.request("GET", "/admin/api/models");
    assert.equal(res.status, 200);
    const cat = res.json() as {
      providers: { id: string; name: string; models: { id: string; variants: string[] }[] }[];
    };
    assert.deepEqual(
      cat.providers.map((p) => p.name),
      ["Anthropic", "Mock"],
    );
    assert.deepEqual(
      cat.providers[1]?.models.map((m) => m.id),
      ["mock/alpha", "mock/zeta"],
    );
    assert.deepEqual(cat.providers[1]?.models[1]?.variants, ["low", "high"]);

    const saved = s.fakes.listModels;
    s.fakes.listModels = async () => {
      throw new PatchbayError("backend_starting", "OpenCode is starting; try again in a few seconds.");
    };
    const down = await s.request("GET", "/admin/api/models");
    assert.equal(down.status, 503);
    assert.equal(errorOf(down).code, "backend_starting");
    assert.match(errorOf(down).message, /starting/);
    s.fakes.listModels = saved;
  });

  test("settings: get and patch only the given fields", async () => {
    const got = await s.request("GET", "/admin/api/settings");
    assert.equal(got.status, 200);
    assert.equal((got.json() as { port: number }).port, 4747);
    const upd = await s.request("PATCH", "/admin/api/settings", { body: { port: 5050, logBodies: true } });
    assert.equal(upd.status, 200);
    assert.deepEqual(s.fakes.settings.patches.at(-1), { port: 5050, logBodies: true });
    assert.equal((upd.json() as { port: number }).port, 5050);
  });

  test("logs: filters reach the store coerced; usage per day", async () => {
    const keyed = s.fakes.apps.get("keyed")!;
    s.fakes.requestLog.append(logEntry({ app: "keyed", appId: keyed.id }));
    // An entry of an earlier app of the same name (another id) is not the current app's.
    s.fakes.requestLog.append(logEntry({ app: "keyed", appId: "app_deleted" }));
    const res = await s.request(
      "GET",
      "/admin/api/logs?app=keyed&status=4xx&model=mock%2Fgpt&since=10&until=20&limit=5&cursor=abc",
    );
    assert.equal(res.status, 200);
    assert.deepEqual(s.fakes.requestLog.queries.at(-1), {
      app: "keyed",
      status: "4xx",
      model: "mock/gpt",
      since: 10,
      until: 20,
      limit: 5,
      cursor: "abc",
    });
    const page = res.json() as { entries: unknown[]; nextCursor: string | null };
    assert.equal(page.entries.length, 1);
    assert.equal(page.nextCursor, null);

    const usage = await s.request("GET", "/admin/api/apps/keyed/usage?days=7");
    assert.equal(usage.status, 200);
    assert.deepEqual(s.fakes.requestLog.usageCalls.at(-1), { app: keyed, days: 7 }, "usage asked for by the app");
    assert.equal((usage.json() as { days: { requests: number }[] }).days[0]?.requests, 3);
    await s.request("GET", "/admin/api/apps/keyed/usage");
    assert.deepEqual(s.fakes.requestLog.usageCalls.at(-1), { app: keyed, days: 30 });
  });

  test("desktop endpoints → 404 without a DesktopHost", async () => {
    for (const [m, p, body] of [
      ["GET", "/admin/api/desktop", undefined],
      ["POST", "/admin/api/desktop/open-data-folder", undefined],
      ["PUT", "/admin/api/desktop/launch-at-login", { enabled: true }],
    ] as const) {
      const res = await s.request(m, p, body ? { body } : {});
      assert.equal(res.status, 404, `${m} ${p}`);
      assert.equal(errorOf(res).code, "not_found");
      assert.match(errorOf(res).message, /desktop app/);
    }
  });
});

describe("admin routes (desktop)", () => {
  let s: StartedAdmin;
  before(async () => {
    s = await startAdmin({ desktop: true });
  });
  after(async () => {
    await s.close();
  });

  test("status says desktop; open data folder; launch at login sets the OS state and the setting", async () => {
    assert.equal(((await s.request("GET", "/admin/api/status")).json() as { desktop: boolean }).desktop, true);
    const open = await s.request("POST", "/admin/api/desktop/open-data-folder");
    assert.equal(open.status, 200);
    assert.equal(s.fakes.desktop?.opened, 1);
    const set = await s.request("PUT", "/admin/api/desktop/launch-at-login", { body: { enabled: true } });
    assert.equal(set.status, 200);
    assert.deepEqual(set.json(), { launchAtLogin: true, dataDir: "/tmp/patchbay-data" });
    assert.equal(s.fakes.desktop?.launchAtLogin, true);
    assert.equal(s.fakes.settings.get().launchAtLogin, true);
    const state = await s.request("GET", "/admin/api/desktop");
    assert.deepEqual(state.json(), { launchAtLogin: true, dataDir: "/tmp/patchbay-data" });
  });
});
