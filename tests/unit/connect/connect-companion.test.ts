// connect's companion file (Codex's model catalog, named by `model_catalog_json` in config.toml): written before the
// config, backed up and restored byte for byte with it, removed by undo when it did not exist, checked by verify.
import { test, describe, beforeEach, afterEach } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "smol-toml";
import { findConnectable } from "../../../server/clients/registry";
import { checkCodexCatalog } from "../../../server/clients/codex";
import { applyConnect, backupsDir, planConnect, undoConnect } from "../../../server/connect/connect-files";
import { verifyClientConnect } from "../../../server/connect/connect-service";

const MODEL = {
  id: "demo/echo",
  name: "Echo",
  description: "Echo (Demo) through Patchbay",
  contextWindow: 200_000,
  image: true,
  reasoning: false,
};
const S = {
  origin: "http://127.0.0.1:4747",
  key: "pb-SECRETSECRETSECRET",
  model: "demo/echo",
  smallModel: "demo/echo",
  models: [MODEL, { ...MODEL, id: "fast", name: "fast (Echo)" }],
};
const codex = findConnectable("codex")!;

describe("connect codex: the model catalog beside config.toml", () => {
  let tmp: string;
  let env: Record<string, string>;
  let dataDir: string;
  let config: string;
  let catalog: string;

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pb-companion-"));
    env = { HOME: path.join(tmp, "home") };
    dataDir = path.join(tmp, "data");
    config = path.join(tmp, "home", ".codex", "config.toml");
    catalog = path.join(tmp, "home", ".codex", "patchbay-models.json");
    fs.mkdirSync(path.dirname(config), { recursive: true });
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  test("the plan writes nothing; apply writes the catalog (0600) that model_catalog_json names", async () => {
    const t = { client: codex, dataDir, env };
    const plan = await planConnect(t, S);
    assert.equal(plan.companion?.path, catalog);
    assert.equal(plan.companion?.changed, true);
    assert.equal(fs.existsSync(catalog), false, "a plan writes nothing");

    const applied = await applyConnect(t, S);
    assert.equal(applied.companion?.changed, true);
    const toml = parse(fs.readFileSync(config, "utf8")) as Record<string, unknown>;
    assert.equal(toml.model_catalog_json, catalog);
    const models = (JSON.parse(fs.readFileSync(catalog, "utf8")) as { models: { slug: string }[] }).models;
    assert.deepEqual(
      models.map((m) => m.slug),
      ["demo/echo", "fast"],
    );
    assert.equal(fs.statSync(catalog).mode & 0o777, 0o600);
    // A second run changes nothing.
    const again = await applyConnect(t, S);
    assert.equal(again.changed, false);
    assert.equal(again.companion?.changed, false);
  });

  test("undo restores config.toml and a catalog that was there before, byte for byte", async () => {
    const originalConfig = Buffer.from('approval_policy = "never"\n# mine\n');
    const originalCatalog = Buffer.from('{"models":[]}');
    fs.writeFileSync(config, originalConfig, { mode: 0o644 });
    fs.writeFileSync(catalog, originalCatalog, { mode: 0o640 });
    const t = { client: codex, dataDir, env };
    await applyConnect(t, S);
    assert.notDeepEqual(fs.readFileSync(catalog), originalCatalog);
    const undone = await undoConnect(t);
    assert.equal(undone.action, "restored");
    assert.equal(undone.companion?.action, "restored");
    assert.ok(fs.readFileSync(config).equals(originalConfig));
    assert.ok(fs.readFileSync(catalog).equals(originalCatalog));
    assert.equal(fs.statSync(catalog).mode & 0o777, 0o640);
    assert.deepEqual(fs.readdirSync(backupsDir(dataDir)), [], "backups and records removed");
  });

  test("undo removes a catalog connect created; without models no catalog is written or named", async () => {
    const t = { client: codex, dataDir, env };
    await applyConnect(t, S);
    const undone = await undoConnect(t);
    assert.equal(undone.action, "removed");
    assert.equal(undone.companion?.action, "removed");
    assert.equal(fs.existsSync(catalog), false);

    const bare = { ...S, models: [] };
    const plan = await applyConnect(t, bare);
    assert.equal(plan.companion, undefined);
    assert.equal(fs.existsSync(catalog), false);
    assert.doesNotMatch(fs.readFileSync(config, "utf8"), /model_catalog_json/);
  });

  test("undo with another data folder (no backup here): no empty config.toml or orphaned catalog left behind", async () => {
    await applyConnect({ client: codex, dataDir, env }, S);
    const elsewhere = { client: codex, dataDir: path.join(tmp, "other-data"), env };
    const undone = await undoConnect(elsewhere, Date.now, { force: true });
    assert.equal(undone.action, "unmerged");
    assert.equal(undone.emptied, true, "config.toml held only Patchbay's settings");
    assert.equal(fs.existsSync(config), false);
    assert.equal(undone.companion?.action, "unmerged");
    assert.equal(fs.existsSync(catalog), false, "the catalog config.toml no longer names is gone too");
    // Nothing lost: what was there is kept aside in the data folder undo ran with.
    assert.ok(undone.savedCurrent && fs.readFileSync(undone.savedCurrent, "utf8").includes("model_catalog_json"));
  });

  test("verify names a missing or stale catalog before sending anything", async () => {
    const t = { client: codex, dataDir, env };
    await applyConnect(t, S);
    let calls = 0;
    const fetchSpy = (async () => {
      calls++;
      throw new Error("not reached");
    }) as typeof fetch;
    fs.writeFileSync(catalog, '{"models":[{"slug":"other"}]}');
    const stale = await verifyClientConnect({ client: codex, env, cli: (a) => `patchbay ${a}` }, fetchSpy);
    assert.equal(stale.ok, false);
    assert.match(stale.message, /patchbay-models\.json .*does not list the model "demo\/echo"/);
    assert.match(stale.hint ?? "", /patchbay connect codex/);
    fs.rmSync(catalog);
    const missing = await verifyClientConnect({ client: codex, env, cli: (a) => `patchbay ${a}` }, fetchSpy);
    assert.match(missing.message, /does not exist/);
    assert.equal(calls, 0);
  });

  test("checkCodexCatalog: broken JSON, no list, missing model", () => {
    assert.equal(checkCodexCatalog("{", "m"), "it is not valid JSON");
    assert.equal(checkCodexCatalog("{}", "m"), "it has no models list");
    assert.equal(checkCodexCatalog('{"models":[{"slug":"m"}]}', "m"), null);
  });
});
