// `connect` has a key of its own (server/connect/connect-key.ts), not launch's: it is labelled for it, kept in the
// config file it writes (connecting again reuses it while live), and launch replacing its own lost key never revokes
// it. Real apps/keys stores and the real Codex config writer in a temp CODEX_HOME; no Patchbay process.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { findConnectable } from "../../../server/clients/registry";
import { applyClientConnect, previewConnect } from "../../../server/connect/connect-service";
import { connectKeyLabel } from "../../../server/connect/connect-key";
import { launchKeysPath } from "../../../server/connect/launch-keys";
import {
  ensureAppKey,
  LAUNCH_KEY_LABEL,
  storeAccess,
  type PatchbayAccess,
} from "../../../server/connect/patchbay-access";
import { createAppsStore, type AppsStoreHandle } from "../../../server/stores/apps-store";
import { createKeysStore } from "../../../server/stores/keys-store";
import type { KeysStore, StoreLifecycle } from "../../../server/stores/types";
import type { PatchbayStatus } from "../../../shared/status";
import { MODELS } from "../http/fakes";
import { removeDir, tempDir } from "../stores/helpers";

const codex = findConnectable("codex")!;
const MODEL = MODELS[0]!.id;
let dataDir: string;
let home: string;
let apps: AppsStoreHandle;
let keys: KeysStore & StoreLifecycle;
let access: PatchbayAccess;
let status: { dataDir: string; api: Partial<PatchbayStatus["api"]> };

before(async () => {
  dataDir = tempDir("connect-key");
  home = tempDir("connect-key-home");
  apps = await createAppsStore({ dataDir, watch: false });
  keys = await createKeysStore({ dataDir, apps, watch: false });
  status = { dataDir, api: { running: true, baseUrl: "http://127.0.0.1:4747/v1", error: null, port: 4747 } };
  access = storeAccess({ apps, keys, listModels: async () => MODELS, status: () => status as PatchbayStatus });
});
after(async () => {
  await keys.close();
  await apps.close();
  removeDir(dataDir);
  removeDir(home);
});

/** connect codex in the temp HOME. */
const request = () => ({ client: codex, env: { HOME: home, CODEX_HOME: path.join(home, ".codex") }, model: MODEL });
const configFile = () => path.join(home, ".codex", "config.toml");
/** The key connect wrote into config.toml. */
const writtenKey = () => /experimental_bearer_token = "(pb-[^"]+)"/.exec(fs.readFileSync(configFile(), "utf8"))?.[1];
const labelOf = (key: string) => keys.list("codex").find((k) => key.includes(k.prefix))?.label;

test("connect makes a key of its own, labelled for it; launch keeps its key; connecting again reuses connect's", async () => {
  const launch = await ensureAppKey(access, "codex");
  const preview = await previewConnect(access, request());
  assert.ok(!preview.diff.includes(launch.key), "the preview does not show launch's key");
  await applyClientConnect(access, request());
  const key = writtenKey();
  assert.ok(key && key !== launch.key, "not launch's key");
  assert.equal(labelOf(key), connectKeyLabel("codex"));
  assert.equal(labelOf(key), "patchbay connect codex");
  assert.equal((await ensureAppKey(access, "codex")).key, launch.key, "launch still uses its own key");

  const before = keys.list("codex").length;
  const again = await applyClientConnect(access, request());
  assert.equal(again.changed, false, "the file already has these settings");
  assert.equal(writtenKey(), key);
  assert.equal(keys.list("codex").length, before, "no new key");
});

test("launch replacing a lost key revokes its own orphans, never the connected config's key", async () => {
  const connected = writtenKey()!;
  fs.writeFileSync(launchKeysPath(dataDir), "{damaged");
  const later = Date.now() + 120_000;
  const launch = await ensureAppKey(access, "codex", () => later);
  assert.equal(launch.created, true);
  assert.equal(keys.list("codex").filter((k) => k.label === LAUNCH_KEY_LABEL).length, 1, "old launch keys revoked");
  assert.ok(keys.verify(connected), "the connected config's key still works");
});

test("a revoked connect key, or launch's key in an older config, is replaced by a new connect key", async () => {
  const connected = writtenKey()!;
  await keys.revoke("codex", connected.slice(3, 15));
  assert.equal((await previewConnect(access, request())).changed, true, "the preview would write a new key");
  await applyClientConnect(access, request());
  const replaced = writtenKey()!;
  assert.notEqual(replaced, connected);
  assert.ok(keys.verify(replaced));

  // A config written when connect shared launch's key: connecting again gives it its own.
  const launch = (await ensureAppKey(access, "codex")).key;
  fs.writeFileSync(configFile(), fs.readFileSync(configFile(), "utf8").replace(replaced, launch));
  const preview = await previewConnect(access, request());
  assert.equal(preview.changed, true);
  await applyClientConnect(access, request());
  const own = writtenKey()!;
  assert.ok(own !== launch && own !== replaced);
  assert.equal(labelOf(own), "patchbay connect codex");
  assert.ok(keys.verify(launch), "launch's key is left to launch");
});

test("applies at once (a double click, the CLI beside the dashboard) share one key: none is left live and unused", async () => {
  await keys.revoke("codex", writtenKey()!.slice(3, 15)); // the next apply must make a new key
  const connectKeys = () => keys.list("codex").filter((k) => k.label === connectKeyLabel("codex"));
  const before = connectKeys().length;
  await Promise.all([1, 2, 3, 4].map(() => applyClientConnect(access, request())));
  assert.equal(connectKeys().length, before + 1, "one new key for four applies");
  assert.ok(keys.verify(writtenKey()!), "and it is the one in the file");
});

test("a port picked for this run (--port 0) is named in a note: the next start gets another one", async () => {
  assert.equal((await applyClientConnect(access, request())).notes, undefined, "a fixed port needs no note");
  status.api = { ...status.api, port: 40123, baseUrl: "http://127.0.0.1:40123/v1", portPicked: true };
  try {
    const r = await applyClientConnect(access, request());
    assert.equal(r.notes?.length, 1);
    assert.match(
      r.notes?.[0] ?? "",
      /picked port 40123 for this run \(port 0 asks for a free one at each start\); the next start picks another, and Codex will not reach it/,
    );
    assert.match(fs.readFileSync(configFile(), "utf8"), /127\.0\.0\.1:40123/, "written as it runs now");
  } finally {
    status.api = { ...status.api, port: 4747, baseUrl: "http://127.0.0.1:4747/v1", portPicked: false };
  }
});
