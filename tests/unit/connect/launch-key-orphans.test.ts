// Issue 21 item 4.6: a damaged launch-keys.json must not make every `launch` leave one more valid key behind: a new
// launch key revokes the launch keys nobody can use any more, and a key that cannot be saved is revoked again.
import assert from "node:assert/strict";
import fs from "node:fs";
import { after, before, test } from "node:test";
import {
  ensureAppKey,
  LAUNCH_KEY_LABEL,
  storeAccess,
  type PatchbayAccess,
} from "../../../server/connect/patchbay-access";
import { launchKeysPath } from "../../../server/connect/launch-keys";
import { createAppsStore, type AppsStoreHandle } from "../../../server/stores/apps-store";
import { createKeysStore } from "../../../server/stores/keys-store";
import type { KeysStore, StoreLifecycle } from "../../../server/stores/types";
import type { PatchbayStatus } from "../../../shared/status";
import { removeDir, tempDir } from "../stores/helpers";

let dataDir: string;
let apps: AppsStoreHandle;
let keys: KeysStore & StoreLifecycle;
let access: PatchbayAccess;

before(async () => {
  dataDir = tempDir("launch-orphans");
  apps = await createAppsStore({ dataDir, watch: false });
  keys = await createKeysStore({ dataDir, apps, watch: false });
  access = storeAccess({ apps, keys, listModels: async () => [], status: () => ({ dataDir }) as PatchbayStatus });
});
after(async () => {
  await keys.close();
  await apps.close();
  removeDir(dataDir);
});

const launchKeys = () => keys.list("codex").filter((k) => k.label === LAUNCH_KEY_LABEL);

test("each launch after the file was damaged leaves exactly one valid launch key", async () => {
  const first = await ensureAppKey(access, "codex");
  assert.equal(first.created, true);
  assert.equal((await ensureAppKey(access, "codex")).key, first.key, "the saved key is reused");
  let later = Date.now();
  for (let run = 0; run < 3; run++) {
    fs.writeFileSync(launchKeysPath(dataDir), "{damaged");
    later += 120_000;
    const at = later;
    const next = await ensureAppKey(access, "codex", () => at);
    assert.equal(next.created, true);
    assert.ok(keys.verify(next.key), "the new key works");
    assert.equal(launchKeys().length, 1, `run ${run}: only the new launch key stays valid`);
  }
  assert.equal(keys.verify(first.key), null, "the first key, lost with the file, was revoked");
});

test("a launch key made moments ago by a parallel launch is not revoked", async () => {
  const a = await ensureAppKey(access, "codex");
  fs.writeFileSync(launchKeysPath(dataDir), "{damaged");
  const b = await ensureAppKey(access, "codex");
  assert.ok(keys.verify(a.key) && keys.verify(b.key));
});

test("a key that cannot be saved is revoked again and the error says where", async () => {
  const before = launchKeys().length;
  fs.rmSync(launchKeysPath(dataDir), { force: true });
  fs.mkdirSync(launchKeysPath(dataDir)); // a folder where the file should be: every write fails
  await assert.rejects(ensureAppKey(access, "codex"), /Could not save the key of app "codex" in .*launch-keys\.json/);
  assert.equal(launchKeys().length, before, "no new valid key was left behind");
  fs.rmSync(launchKeysPath(dataDir), { recursive: true });
});
