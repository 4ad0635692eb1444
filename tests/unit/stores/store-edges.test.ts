// Store edges found by QA: reserved alias names are refused, keys belong to an app's id (not its reusable name), the
// OpenAI host setting must be a loopback address.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { AliasName, AppPatch } from "../../../shared/apps";
import { isLoopbackBindHost } from "../../../shared/settings";
import { PatchbayError } from "../../../server/core/errors";
import { deleteApp } from "../../harness/delete-app";
import { createAppsStore } from "../../../server/stores/apps-store";
import { createKeysStore } from "../../../server/stores/keys-store";
import { createSettingsStore } from "../../../server/stores/settings-store";
import { removeDir, tempDir } from "./helpers";

const isCode = (code: string, param?: string, message?: RegExp) => (err: unknown) =>
  err instanceof PatchbayError &&
  err.code === code &&
  (param === undefined || err.param === param) &&
  (message === undefined || message.test(err.message));

describe("reserved alias names", () => {
  let dir: string;
  before(() => {
    dir = tempDir("aliases");
  });
  after(() => removeDir(dir));

  test("AliasName refuses __proto__, constructor and prototype with a clear message", () => {
    for (const name of ["__proto__", "constructor", "prototype"]) {
      const r = AliasName.safeParse(name);
      assert.equal(r.success, false, name);
      assert.match(r.error?.issues[0]?.message ?? "", /reserved/);
    }
    assert.equal(
      AliasName.safeParse("toString").success,
      true,
      "only the three names JavaScript objects cannot hold safely",
    );
  });

  test("an alias map with a __proto__ key is refused, not silently emptied", async () => {
    const raw = JSON.parse('{"aliases":{"__proto__":"demo/echo","fast":"demo/echo"}}') as unknown;
    assert.equal(AppPatch.safeParse(raw).success, false);
    const apps = await createAppsStore({ dataDir: dir, watch: false });
    await apps.create("alias-app");
    await assert.rejects(
      apps.update("alias-app", raw as AppPatch),
      isCode("invalid_request_error", "aliases.__proto__", /reserved/),
    );
    await assert.rejects(
      apps.update("alias-app", { aliases: { constructor: "demo/echo" } }),
      isCode("invalid_request_error", "aliases.constructor", /reserved/),
    );
    assert.deepEqual(apps.get("alias-app")?.aliases, {});
    await apps.close();
  });

  test("a control character in a target or pattern a user sets is refused at its field (terminal escapes)", async () => {
    const apps = await createAppsStore({ dataDir: dir, watch: false });
    await apps.create("ctl-app");
    const esc = "demo/echo\u001b[31m";
    await assert.rejects(
      apps.update("ctl-app", { aliases: { red: esc } }),
      isCode("invalid_request_error", "aliases.red", /Control characters/),
    );
    await assert.rejects(
      apps.update("ctl-app", { routes: { subagent: esc } }),
      isCode("invalid_request_error", "routes.subagent", /Control characters/),
    );
    await assert.rejects(
      apps.update("ctl-app", { models: ["demo/\u0007*"] }),
      isCode("invalid_request_error", "models[0]", /Control characters/),
    );
    assert.deepEqual(apps.get("ctl-app")?.aliases, {});
    await apps.close();
  });
});

describe("keys belong to the app's id", () => {
  let dir: string;
  before(() => {
    dir = tempDir("key-appid");
  });
  after(() => removeDir(dir));

  test("apps.json set aside as corrupt, same name created again → the old key no longer verifies", async () => {
    const apps = await createAppsStore({ dataDir: dir, watch: false });
    const first = await apps.create("reused");
    const keys = await createKeysStore({ dataDir: dir, apps, watch: false });
    const old = await keys.create("reused");
    assert.deepEqual(keys.verify(old.key), { app: "reused", prefix: old.prefix });
    const stored = JSON.parse(fs.readFileSync(path.join(dir, "keys.json"), "utf8")) as {
      data: { keys: { appId?: string }[] };
    };
    assert.equal(stored.data.keys[0]?.appId, first.id, "the key records its app's id");
    await keys.close();
    await apps.close();

    fs.writeFileSync(path.join(dir, "apps.json"), "{ not json");
    const apps2 = await createAppsStore({ dataDir: dir, watch: false });
    assert.equal(apps2.notices().length, 1, "the corrupt file was set aside");
    const second = await apps2.create("reused");
    assert.notEqual(second.id, first.id);
    const keys2 = await createKeysStore({ dataDir: dir, apps: apps2, watch: false });
    assert.equal(keys2.verify(old.key), null, "a key of the old app must not unlock the new one");
    assert.deepEqual(keys2.list("reused"), [], "the old key is not listed under the new app");
    const fresh = await keys2.create("reused");
    assert.deepEqual(keys2.verify(fresh.key), { app: "reused", prefix: fresh.prefix });

    await deleteApp(apps2, keys2, "reused");
    assert.equal(keys2.verify(fresh.key), null, "deleting the app still revokes its keys");
    const left = JSON.parse(fs.readFileSync(path.join(dir, "keys.json"), "utf8")) as { data: { keys: unknown[] } };
    assert.deepEqual(left.data.keys, [], "stale keys of the name go with it");
    await keys2.close();
    await apps2.close();
  });
});

describe("OpenAI host setting", () => {
  let dir: string;
  before(() => {
    dir = tempDir("host");
  });
  after(() => removeDir(dir));

  test("isLoopbackBindHost: loopback addresses and names only", () => {
    for (const h of ["127.0.0.1", "127.1.2.3", "localhost", "LOCALHOST", "::1"])
      assert.equal(isLoopbackBindHost(h), true, h);
    for (const h of [
      "0.0.0.0",
      "::",
      "[::1]",
      "192.168.1.5",
      "127.0.0.256",
      "127.0.0",
      "not a host!!",
      "",
      "example.com",
      "a.localhost",
    ])
      assert.equal(isLoopbackBindHost(h), false, h);
  });

  test("settings refuse a non-loopback host, naming host and LAN exposure", async () => {
    const s = await createSettingsStore({ dataDir: dir, watch: false });
    for (const host of ["0.0.0.0", "not a host!!", "10.0.0.1"]) {
      await assert.rejects(s.update({ host }), isCode("invalid_request_error", "host", /LAN exposure/));
    }
    assert.equal((await s.update({ host: "localhost" })).host, "localhost");
    await s.close();
  });
});
