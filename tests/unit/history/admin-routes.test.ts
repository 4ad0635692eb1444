// The session-history rows of the admin API, end to end through the real admin app and the typed client, over a
// fake OpenCode: list/cursor, messages, delete (409 running, 404 other app / unknown app), preview with query limits,
// prune now + last sweep, 400 on bad ids, 503 when history is not wired.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { createAdminClient, AdminApiError, type AdminClient } from "../../../shared/admin/client";
import { createAdminApp } from "../../../server/http/admin/admin-app";
import type { AdminServices } from "../../../server/http/admin/services";
import { previewLimits } from "../../../server/http/admin/routes/history-handlers";
import { deleteAppWithSessions } from "../../../server/http/admin/routes/app-delete";
import type { PatchbayError } from "../../../server/core/errors";
import { HistoryService, Sweeper } from "../../../server/history";
import type { AdminHistory } from "../../../server/history";
import { FakeApps, FakeKeys, FakeRequestLog, FakeSettings, fakeStatus, MODELS } from "../admin/fakes";
import { FakeOpenCode, assistantMessage, fakeDirectories, userMessage } from "./fake-opencode";
import { bareCli } from "../../../server/core/cli-command";

const ROOT = "/data/apps";
const NOW = Date.UTC(2030, 0, 1);

interface Started {
  client: AdminClient;
  fake: FakeOpenCode;
  apps: FakeApps;
  close(): Promise<void>;
}

async function start(withHistory = true): Promise<Started> {
  const fake = new FakeOpenCode();
  const apps = new FakeApps();
  await apps.create("a", { history: { maxSessions: 3, maxAgeDays: null } });
  await apps.create("b");
  const service = new HistoryService({
    port: fake,
    appsDir: (app) => `${ROOT}/${app}`,
    directories: fakeDirectories(ROOT, {
      a: ["t1", "t2"],
      b: ["t1"],
      doomed: ["t1", "t2"],
      stuck: ["t1"],
      twice: ["t1"],
    }),
    hasApp: (app) => apps.get(app) !== undefined,
    now: () => NOW,
  });
  const sweeper = new Sweeper({
    prune: (app, o) => service.prune(app, o),
    limitsOf: (app) => apps.get(app)?.history ?? null,
    apps: () => apps.list().map((x) => x.name),
    log: () => {},
  });
  const history: AdminHistory = {
    service,
    runNow: (app, o) => sweeper.runNow(app, o),
    lastSweep: (app) => ({ sweep: sweeper.lastSweep(app), sweeping: sweeper.isSweeping(app) }),
  };
  const staticDir = mkdtempSync(path.join(tmpdir(), "pb-history-admin-"));
  let origin = "";
  const token = "history-admin-token-0123456789abcdef";
  const services: AdminServices = {
    settings: new FakeSettings(),
    apps,
    keys: new FakeKeys(),
    requestLog: new FakeRequestLog(),
    cli: bareCli,
    listModels: async () => MODELS,
    status: fakeStatus,
    onStatus: () => () => {},
    startApi: async () => {},
    stopApi: async () => {},
    adminToken: token,
    adminOrigin: () => origin,
    staticDir,
    log: () => {},
    ...(withHistory ? { history } : {}),
  };
  const admin = createAdminApp(services);
  const server = http.createServer(admin.handler);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = createAdminClient(
    (url, init) => fetch(url, { ...init, headers: { ...init.headers, authorization: `Bearer ${token}`, origin } }),
    origin,
  );
  return {
    client,
    fake,
    apps,
    async close() {
      await sweeper.stop();
      admin.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      rmSync(staticDir, { recursive: true, force: true });
    },
  };
}

async function rejectsWith(p: Promise<unknown>, code: string, status: number, pattern?: RegExp) {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof AdminApiError, String(e));
    assert.equal(e.code, code);
    assert.equal(e.status, status);
    if (pattern) assert.match(e.message, pattern);
    return true;
  });
}

describe("history admin rows", () => {
  let t: Started;
  before(async () => {
    t = await start();
  });
  after(async () => {
    await t.close();
  });

  test("list pages with a cursor, newest first, and search", async () => {
    for (let i = 0; i < 7; i++)
      t.fake.add(`${ROOT}/a/${i % 2 ? "t1" : "t2"}`, NOW - (7 - i) * 1000, { title: `s${i}` });
    const p1 = await t.client.listSessions({ params: { name: "a" }, query: { limit: 4 } });
    assert.deepEqual(
      p1.sessions.map((s) => s.title),
      ["s6", "s5", "s4", "s3"],
    );
    const p2 = await t.client.listSessions({ params: { name: "a" }, query: { limit: 4, cursor: p1.nextCursor! } });
    assert.deepEqual(
      p2.sessions.map((s) => s.title),
      ["s2", "s1", "s0"],
    );
    assert.equal(p2.nextCursor, null);
    const hits = await t.client.listSessions({ params: { name: "a" }, query: { search: "s5" } });
    assert.deepEqual(
      hits.sessions.map((s) => s.title),
      ["s5"],
    );
    await rejectsWith(
      t.client.listSessions({ params: { name: "a" }, query: { cursor: "garbage" } }),
      "invalid_request_error",
      400,
    );
    await rejectsWith(t.client.listSessions({ params: { name: "nope" } }), "app_not_found", 404);
  });

  test("messages of a session; 404 for another app's; 400 for a malformed id", async () => {
    const s = t.fake.add(`${ROOT}/a/t1`, NOW, { title: "chat" });
    s.messages.push(userMessage("msg_u", "hi"), assistantMessage("msg_a", "msg_u", "hello"));
    const page = await t.client.getSessionMessages({ params: { name: "a", id: s.id } });
    assert.deepEqual(
      page.messages.map((m) => m.role),
      ["user", "assistant"],
    );
    assert.equal(page.session.title, "chat");
    await rejectsWith(t.client.getSessionMessages({ params: { name: "b", id: s.id } }), "session_not_found", 404);
    await rejectsWith(
      t.client.getSessionMessages({ params: { name: "a", id: "../etc" } }),
      "invalid_request_error",
      400,
    );
  });

  test("delete: 409 with a clear message while running, 404 elsewhere, bulk reports each", async () => {
    const run = t.fake.add(`${ROOT}/a/t1`, NOW + 1);
    const other = t.fake.add(`${ROOT}/b/t1`, NOW + 2);
    const gone = t.fake.add(`${ROOT}/a/t2`, NOW + 3);
    t.fake.busy.add(run.id);
    await rejectsWith(
      t.client.deleteSession({ params: { name: "a", id: run.id } }),
      "session_running",
      409,
      /still running/,
    );
    await rejectsWith(t.client.deleteSession({ params: { name: "a", id: other.id } }), "session_not_found", 404);
    assert.deepEqual(await t.client.deleteSession({ params: { name: "a", id: gone.id } }), { ok: true });
    const bulk = await t.client.deleteSessions({ params: { name: "a" }, body: { ids: [run.id, other.id] } });
    assert.deepEqual(bulk, { deleted: [], missing: [other.id], running: [run.id], failed: [] });
    t.fake.busy.delete(run.id);
  });

  test("deleting an app deletes its sessions first (a running one once it ends; another app's stay)", async () => {
    await t.apps.create("doomed");
    const mine = [t.fake.add(`${ROOT}/doomed/t1`, NOW + 10), t.fake.add(`${ROOT}/doomed/t2`, NOW + 11)];
    const running = t.fake.add(`${ROOT}/doomed/t1`, NOW + 12);
    const others = t.fake.add(`${ROOT}/b/t1`, NOW + 13);
    t.fake.busy.add(running.id);
    // Its run was ended by the key revoke; OpenCode reports it idle a moment later.
    setTimeout(() => t.fake.busy.delete(running.id), 300);
    const r = await t.client.deleteApp({ params: { name: "doomed" }, query: {} });
    assert.deepEqual(r, { ok: true, sessionsDeleted: 3, sessionsLeft: 0 });
    for (const s of [...mine, running]) assert.equal(t.fake.sessions.has(s.id), false, `${s.id} deleted`);
    assert.equal(t.fake.sessions.has(others.id), true, "another app's session stays");
    assert.equal(t.apps.get("doomed"), undefined);
  });

  test("OpenCode down: 503 saying so, the app is kept (keys revoked) until a delete succeeds; ?sessions=keep deletes it", async () => {
    await t.apps.create("stuck");
    const s = t.fake.add(`${ROOT}/stuck/t1`, NOW + 20);
    t.fake.failLists = true;
    try {
      await rejectsWith(
        t.client.deleteApp({ params: { name: "stuck" }, query: {} }),
        "backend_unavailable",
        503,
        /keys of app 'stuck' are revoked, but its sessions could not be deleted \(OpenCode is not running\.\)/,
      );
      assert.ok(t.apps.get("stuck"), "the app is kept");
    } finally {
      t.fake.failLists = false;
    }
    assert.deepEqual(await t.client.deleteApp({ params: { name: "stuck" }, query: { sessions: "keep" } }), {
      ok: true,
    });
    assert.equal(t.apps.get("stuck"), undefined);
    assert.equal(t.fake.sessions.has(s.id), true, "kept as asked");
  });

  test("two deletes of one app at once: one deletes, the other is a 404 (not a 503); a stale one spares a new app", async () => {
    await t.apps.create("twice");
    t.fake.add(`${ROOT}/twice/t1`, NOW + 30);
    t.fake.latencyMs = 20; // the first is still erasing when the second arrives
    try {
      const both = await Promise.allSettled([
        t.client.deleteApp({ params: { name: "twice" }, query: {} }),
        t.client.deleteApp({ params: { name: "twice" }, query: {} }),
      ]);
      assert.deepEqual(
        both.map((r) => r.status),
        ["fulfilled", "rejected"],
      );
      assert.deepEqual((both[0] as PromiseFulfilledResult<unknown>).value, {
        ok: true,
        sessionsDeleted: 1,
        sessionsLeft: 0,
      });
      const err = (both[1] as PromiseRejectedResult).reason as AdminApiError;
      assert.equal(err.status, 404);
      assert.equal(err.code, "app_not_found");
    } finally {
      t.fake.latencyMs = 0;
    }
    // A delete that found the old app but runs after the name was taken again (here: called with the old app).
    const old = await t.apps.create("again");
    await t.apps.delete("again");
    const fresh = await t.apps.create("again");
    const services = { apps: t.apps, keys: new FakeKeys() } as unknown as AdminServices;
    await assert.rejects(
      deleteAppWithSessions(services, old, false),
      (e: unknown) => (e as PatchbayError).code === "app_not_found",
    );
    assert.equal(t.apps.get("again")?.id, fresh.id, "the new app of that name is untouched");
  });

  test("preview follows the query limits while editing, else the saved ones; prune now and last sweep", async () => {
    const total = (await t.client.listSessions({ params: { name: "a" }, query: { limit: 200 } })).sessions.length;
    const saved = await t.client.previewPrune({ params: { name: "a" } });
    assert.deepEqual(saved.limits, { maxSessions: 3, maxAgeDays: null });
    assert.equal(saved.count, total - 3);
    const editing = await t.client.previewPrune({ params: { name: "a" }, query: { maxSessions: 1 } });
    assert.equal(editing.count, total - 1);
    const off = await t.client.previewPrune({ params: { name: "a" }, query: { maxSessions: "none" } });
    assert.equal(off.count, 0);
    await rejectsWith(
      t.client.previewPrune({ params: { name: "a" }, query: { maxSessions: 0 } }),
      "invalid_request_error",
      400,
    );

    assert.deepEqual(await t.client.getLastSweep({ params: { name: "a" } }), { sweep: null, sweeping: false });
    const dry = await t.client.pruneNow({ params: { name: "a" }, body: { dryRun: true } });
    assert.equal(dry.dryRun, true);
    assert.equal(dry.remaining, total - 3);
    const r = await t.client.pruneNow({ params: { name: "a" }, body: {} });
    assert.equal(r.removed, total - 3);
    assert.equal(r.trigger, "manual");
    const last = await t.client.getLastSweep({ params: { name: "a" } });
    assert.equal(last.sweep?.removed, total - 3);
    assert.equal((await t.client.listSessions({ params: { name: "a" } })).sessions.length, 3);
  });

  test("previewLimits: query wins, none clears, omitted keeps the saved value", () => {
    const saved = { maxSessions: 10, maxAgeDays: 5 };
    assert.deepEqual(previewLimits(saved, {}), saved);
    assert.deepEqual(previewLimits(saved, { maxSessions: "none", maxAgeDays: 2 }), {
      maxSessions: null,
      maxAgeDays: 2,
    });
  });
});

test("without a history service the rows answer 503", async () => {
  const t = await start(false);
  try {
    await rejectsWith(t.client.listSessions({ params: { name: "a" } }), "backend_unavailable", 503);
  } finally {
    await t.close();
  }
});
