// Settings, apps and keys stores, and deleteApp: validation, errors, what lands on disk, cross-instance changes.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import crypto, { createHash } from "node:crypto";
import { syncBuiltinESMExports } from "node:module";
import fs from "node:fs";
import path from "node:path";
import { PatchbayError } from "../../../server/core/errors";
import { deleteApp } from "../../harness/delete-app";
import { createAppsStore } from "../../../server/stores/apps-store";
import { createKeysStore, generateKey, keyPrefixOf } from "../../../server/stores/keys-store";
import { createSettingsStore } from "../../../server/stores/settings-store";
import { waitFor } from "../../harness/wait-for";
import { removeDir, tempDir } from "./helpers";

const isCode = (code: string, param?: string) => (err: unknown) =>
  err instanceof PatchbayError && err.code === code && (param === undefined || err.param === param);

describe("settings store", () => {
  let dir: string;
  before(() => {
    dir = tempDir("settings");
  });
  after(() => removeDir(dir));

  test("defaults, partial update keeps other fields, onChange, persisted", async () => {
    const s = await createSettingsStore({ dataDir: dir });
    assert.equal(s.get().port, 4747);
    const changes: number[] = [];
    s.onChange((v) => changes.push(v.port));
    await s.update({ logBodies: true });
    await s.update({ port: 5000 });
    assert.equal(s.get().logBodies, true, "a later patch does not reset earlier fields to defaults");
    assert.equal(s.get().port, 5000);
    assert.deepEqual(changes, [4747, 5000]);
    await s.close();
    const again = await createSettingsStore({ dataDir: dir });
    assert.equal(again.get().port, 5000);
    assert.equal(again.get().logBodies, true);
    await again.close();
  });

  test("bad values and unknown fields: invalid_request_error naming the field", async () => {
    const s = await createSettingsStore({ dataDir: dir });
    await assert.rejects(s.update({ port: 70000 }), isCode("invalid_request_error", "port"));
    await assert.rejects(s.update({ nope: 1 } as never), isCode("invalid_request_error"));
    await s.close();
  });

  test("data dir is created with mode 0700 and settings.json with 0600", async () => {
    const fresh = path.join(dir, "nested", "data");
    const s = await createSettingsStore({ dataDir: fresh });
    await s.update({ port: 1234 });
    assert.equal(fs.statSync(fresh).mode & 0o777, 0o700);
    assert.equal(fs.statSync(path.join(fresh, "settings.json")).mode & 0o777, 0o600);
    await s.close();
  });

  test("corrupt settings.json: backup, defaults, notice", async () => {
    const sub = path.join(dir, "corrupt");
    fs.mkdirSync(sub);
    fs.writeFileSync(path.join(sub, "settings.json"), "{{{");
    const s = await createSettingsStore({ dataDir: sub });
    assert.equal(s.get().port, 4747);
    assert.equal(s.notices().length, 1);
    assert.ok(fs.readdirSync(sub).some((n) => n.startsWith("settings.json.corrupt-")));
    await s.close();
  });
});

describe("apps store", () => {
  let dir: string;
  before(() => {
    dir = tempDir("apps");
  });
  after(() => removeDir(dir));

  test("create with random ids, models, defaults; get/list", async () => {
    const apps = await createAppsStore({ dataDir: dir, clock: () => 42 });
    const a = await apps.create("alpha", { models: ["openai/*", "anthropic/claude-x", "openai/*"] });
    const b = await apps.create("beta");
    assert.notEqual(a.id, b.id);
    assert.match(a.id, /^[0-9a-f-]{36}$/);
    assert.equal(a.createdAt, 42);
    assert.deepEqual(a.models, ["openai/*", "anthropic/claude-x"]);
    assert.deepEqual(b.models, []);
    assert.equal(b.limits.concurrency, 4);
    assert.deepEqual(
      apps.list().map((x) => x.name),
      ["alpha", "beta"],
    );
    assert.equal(apps.get("alpha")?.id, a.id);
    assert.equal(apps.get("zeta"), undefined);
    await apps.close();
  });

  test("errors: bad name, bad pattern, duplicate, unknown app", async () => {
    const apps = await createAppsStore({ dataDir: dir });
    await assert.rejects(apps.create("Bad_Name"), isCode("invalid_request_error", "name"));
    await assert.rejects(
      apps.create("ok-name", { models: ["no slash"] }),
      isCode("invalid_request_error", "models[0]"),
    );
    await assert.rejects(apps.create("alpha"), isCode("app_exists"));
    await assert.rejects(apps.update("zeta", { models: [] }), isCode("app_not_found"));
    await assert.rejects(apps.delete("zeta"), isCode("app_not_found"));
    assert.equal(apps.get("ok-name"), undefined);
    await apps.close();
  });

  test("update merges nested limits field by field", async () => {
    const apps = await createAppsStore({ dataDir: dir });
    await apps.update("beta", { limits: { concurrency: 2 } });
    const after = await apps.update("beta", { limits: { maxTools: 7 }, history: { maxSessions: 10 } });
    assert.equal(after.limits.concurrency, 2, "the earlier limit survives the second patch");
    assert.equal(after.limits.maxTools, 7);
    assert.equal(after.history.maxSessions, 10);
    assert.equal(after.history.maxAgeDays, null);
    await assert.rejects(
      apps.update("beta", { limits: { concurrency: 0 } }),
      isCode("invalid_request_error", "limits.concurrency"),
    );
    await apps.close();
  });

  test("a second instance (another process) sees creates and deletes within ~1 s", async () => {
    const a = await createAppsStore({ dataDir: dir });
    const b = await createAppsStore({ dataDir: dir });
    let changes = 0;
    b.onChange(() => changes++);
    await a.create("gamma");
    await waitFor("the other instance to see the change", () => b.get("gamma") !== undefined, 1500);
    await a.delete("gamma");
    await waitFor("the other instance to see the change", () => b.get("gamma") === undefined, 1500);
    assert.ok(changes >= 2);
    await a.close();
    await b.close();
  });
});

describe("keys store", () => {
  let dir: string;
  before(() => {
    dir = tempDir("keys");
  });
  after(() => removeDir(dir));

  test("create: pb- key shown once, only sha256 + prefix on disk, mode 0600", async () => {
    const apps = await createAppsStore({ dataDir: dir });
    await apps.create("one");
    const keys = await createKeysStore({ dataDir: dir, apps, clock: () => 1000 });
    const created = await keys.create("one", "laptop");
    assert.match(created.key, /^pb-[A-Za-z0-9_-]{43}$/);
    assert.equal(created.prefix, created.key.slice(3, 15));
    assert.equal(created.label, "laptop");
    assert.equal(created.createdAt, 1000);
    const file = path.join(dir, "keys.json");
    const text = fs.readFileSync(file, "utf8");
    assert.ok(!text.includes(created.key), "the full key is not on disk");
    assert.ok(!text.includes(created.key.slice(15)), "no secret part of the key is on disk");
    assert.ok(text.includes(createHash("sha256").update(created.key).digest("hex")));
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    const listed = keys.list("one");
    assert.deepEqual(Object.keys(listed[0] ?? {}).sort(), ["app", "createdAt", "label", "lastUsedAt", "prefix"]);
    await keys.close();
    await apps.close();
  });

  test("verify: match, wrong key, wrong format, and revoke → null", async () => {
    const apps = await createAppsStore({ dataDir: dir });
    const keys = await createKeysStore({ dataDir: dir, apps });
    const k = await keys.create("one");
    assert.deepEqual(keys.verify(k.key), { app: "one", prefix: k.prefix });
    const last = k.key.at(-1) === "A" ? "B" : "A";
    assert.equal(keys.verify(k.key.slice(0, -1) + last), null);
    assert.equal(keys.verify("sk-something"), null);
    assert.equal(keys.verify(""), null);
    assert.equal(keys.verify(`pb-${"x".repeat(10_000)}`), null);
    await keys.revoke("one", k.prefix);
    assert.equal(keys.verify(k.key), null);
    await assert.rejects(keys.revoke("one", k.prefix), isCode("key_not_found"));
    await keys.close();
    await apps.close();
  });

  test("revoke accepts the prefix written with its pb-", async () => {
    const apps = await createAppsStore({ dataDir: dir });
    const keys = await createKeysStore({ dataDir: dir, apps });
    const k = await keys.create("one");
    await keys.revoke("one", `pb-${k.prefix}`);
    assert.equal(keys.verify(k.key), null);
    await keys.close();
    await apps.close();
  });

  test("errors: unknown app, bad label, revoke of another app's key", async () => {
    const apps = await createAppsStore({ dataDir: dir });
    await apps.create("two");
    const keys = await createKeysStore({ dataDir: dir, apps });
    await assert.rejects(keys.create("nope"), isCode("app_not_found"));
    await assert.rejects(keys.create("one", "x".repeat(81)), isCode("invalid_request_error", "label"));
    await assert.rejects(keys.create("one", "line\nbreak"), isCode("invalid_request_error", "label"));
    const k = await keys.create("one");
    await assert.rejects(keys.revoke("two", k.prefix), isCode("key_not_found"));
    assert.ok(keys.verify(k.key));
    await keys.close();
    await apps.close();
  });

  test("prefixes are unique across many keys", async () => {
    const apps = await createAppsStore({ dataDir: dir });
    const keys = await createKeysStore({ dataDir: dir, apps });
    const created = await Promise.all(Array.from({ length: 30 }, (_, i) => keys.create(i % 2 ? "one" : "two")));
    const prefixes = [...keys.list("one"), ...keys.list("two")].map((k) => k.prefix);
    assert.equal(new Set(prefixes).size, prefixes.length);
    for (const c of created) assert.ok(keys.verify(c.key));
    await keys.close();
    await apps.close();
  });

  test("no key's prefix starts with '-' (a bare prefix on the command line would read as an option)", () => {
    // One body in 64 starts with '-' in plain base64url, so 5,000 draws without the guard would all but surely hit one.
    for (let i = 0; i < 5_000; i++) {
      const key = generateKey();
      assert.match(key, /^pb-[A-Za-z0-9_][A-Za-z0-9_-]{42}$/);
      assert.ok(!keyPrefixOf(key).startsWith("-"), key);
    }
  });

  test("verify compares sha256 digests with crypto.timingSafeEqual", async (t) => {
    const apps = await createAppsStore({ dataDir: dir });
    const keys = await createKeysStore({ dataDir: dir, apps });
    const k = await keys.create("one");
    const spy = t.mock.method(crypto, "timingSafeEqual");
    syncBuiltinESMExports(); // let the store's named import see the spy
    try {
      assert.ok(keys.verify(k.key));
      assert.equal(spy.mock.callCount(), 1);
      const [a, b] = spy.mock.calls[0]?.arguments ?? [];
      assert.equal((a as Buffer).length, 32);
      assert.equal((b as Buffer).length, 32);
      // A key sharing the visible prefix but not the secret never reaches a match.
      assert.equal(keys.verify(`pb-${k.prefix}${"A".repeat(31)}`), null);
    } finally {
      spy.mock.restore();
      syncBuiltinESMExports();
    }
    await keys.close();
    await apps.close();
  });

  test("last-used is batched: visible in list at once, a first use written at once, later ones on close", async () => {
    const apps = await createAppsStore({ dataDir: dir });
    let now = 5000;
    const keys = await createKeysStore({ dataDir: dir, apps, clock: () => now, lastUsedFlushMs: 60_000 });
    const k = await keys.create("two", "batch");
    now = 7000;
    assert.ok(keys.verify(k.key));
    assert.equal(keys.list("two").find((x) => x.prefix === k.prefix)?.lastUsedAt, 7000);
    const onDisk = () =>
      JSON.parse(fs.readFileSync(path.join(dir, "keys.json"), "utf8")).data.keys.find(
        (x: { prefix: string }) => x.prefix === k.prefix,
      );
    // The first use: `key list` (which reads the file) must not say "never" next to a key that just worked.
    for (let i = 0; i < 50 && onDisk().lastUsedAt === null; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(onDisk().lastUsedAt, 7000, "a first use is written at once");
    now = 9000;
    assert.ok(keys.verify(k.key));
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(onDisk().lastUsedAt, 7000, "later uses are not written per request");
    await keys.close();
    assert.equal(onDisk().lastUsedAt, 9000);
    await apps.close();
  });

  test("what another instance (the CLI) changed applies to the very next verify: a new key, a revoke, the app", async () => {
    // No file watching on the server side either: the next verify itself must look (not a watcher, not the ~1 s re-read).
    const apps = await createAppsStore({ dataDir: dir, watch: false });
    const server = await createKeysStore({ dataDir: dir, apps, watch: false });
    assert.equal(apps.get("one")?.budgets?.length ?? 0, 0);
    const cliApps = await createAppsStore({ dataDir: dir, watch: false });
    const cli = await createKeysStore({ dataDir: dir, apps: cliApps, watch: false });
    const k = await cli.create("one", "from cli");
    assert.notEqual(server.verify(k.key), null, "a key created elsewhere works at once");
    await cliApps.update("one", { budgets: [{ metric: "requests", limit: 3, window: "5h" }] });
    assert.notEqual(server.verify(k.key), null);
    assert.equal(apps.get("one")?.budgets?.[0]?.limit, 3, "the app as the request sees it has the new budget");
    await cli.revoke("one", k.prefix);
    assert.equal(server.verify(k.key), null, "a key revoked elsewhere stops working at once");
    await cli.close();
    await cliApps.close();
    await server.close();
    await apps.close();
  });

  test("a key whose app is gone does not verify", async () => {
    const apps = await createAppsStore({ dataDir: dir });
    await apps.create("short-lived");
    const keys = await createKeysStore({ dataDir: dir, apps });
    const k = await keys.create("short-lived");
    await apps.delete("short-lived");
    assert.equal(keys.verify(k.key), null);
    await keys.close();
    await apps.close();
  });

  test("keys.json loosened by hand is tightened back to 0600 on open", async () => {
    const file = path.join(dir, "keys.json");
    fs.chmodSync(file, 0o644);
    const keys = await createKeysStore({ dataDir: dir });
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    await keys.close();
  });
});

describe("deleteApp", () => {
  let dir: string;
  before(() => {
    dir = tempDir("lifecycle");
  });
  after(() => removeDir(dir));

  test("removes the app and revokes its keys, leaving other apps' keys", async () => {
    const apps = await createAppsStore({ dataDir: dir });
    const keys = await createKeysStore({ dataDir: dir, apps });
    await apps.create("doomed");
    await apps.create("kept");
    const k1 = await keys.create("doomed");
    const k2 = await keys.create("kept");
    await deleteApp(apps, keys, "doomed");
    assert.equal(apps.get("doomed"), undefined);
    assert.deepEqual(keys.list("doomed"), []);
    assert.equal(keys.verify(k1.key), null);
    assert.ok(keys.verify(k2.key));
    await apps.create("doomed");
    assert.equal(keys.verify(k1.key), null, "a new app with the same name does not revive old keys");
    await assert.rejects(deleteApp(apps, keys, "ghost"), isCode("app_not_found"));
    await keys.close();
    await apps.close();
  });
});
