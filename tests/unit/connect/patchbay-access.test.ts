// The launch/connect policy on a fake Patchbay: the app is made on first use, the saved key reused until it is
// revoked (then replaced), and the model chosen from --model, the `default` alias or the catalog.
import { test, describe, beforeEach, afterEach } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PatchbayStatus } from "../../../shared/status";
import { launchKeysPath, readLaunchKeys } from "../../../server/connect/launch-keys";
import {
  apiOrigin,
  chooseModels,
  ensureAppKey,
  type AccessModel,
  type PatchbayAccess,
} from "../../../server/connect/patchbay-access";

/** A fake Patchbay: apps, keys (by prefix), a catalog. */
function fakeAccess(dataDir: string, catalog: AccessModel[]) {
  const apps = new Map<string, { models: string[]; aliases: Record<string, string> }>();
  const keys = new Map<string, string[]>();
  let n = 0;
  const access: PatchbayAccess = {
    dataDir,
    status: async () => ({}) as PatchbayStatus,
    app: async (name) => apps.get(name) ?? null,
    createApp: async (name) => void apps.set(name, { models: [], aliases: {} }),
    keyPrefixes: async (app) => keys.get(app) ?? [],
    createKey: async (app) => {
      const key = `pb-key${String(++n).padStart(9, "0")}${"x".repeat(31)}`;
      keys.set(app, [...(keys.get(app) ?? []), key.slice(3, 15)]);
      return key;
    },
    models: async () => catalog,
  };
  return { access, apps, keys };
}

describe("launch/connect policy", () => {
  let dataDir: string;
  beforeEach(() => (dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-access-"))));
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  test("first use creates the app and a key, saved with mode 0600; later runs reuse it", async () => {
    const { access, apps } = fakeAccess(dataDir, []);
    const first = await ensureAppKey(access, "codex");
    assert.equal(first.created, true);
    assert.ok(apps.has("codex"));
    assert.equal(fs.statSync(launchKeysPath(dataDir)).mode & 0o777, 0o600);
    const second = await ensureAppKey(access, "codex");
    assert.deepEqual(second, { key: first.key, created: false });
  });

  test("a key revoked since is replaced by a new one", async () => {
    const { access, keys } = fakeAccess(dataDir, []);
    const first = await ensureAppKey(access, "claude-code");
    keys.set("claude-code", []); // revoked in the dashboard
    const next = await ensureAppKey(access, "claude-code");
    assert.equal(next.created, true);
    assert.notEqual(next.key, first.key);
    assert.equal((await readLaunchKeys(dataDir))["claude-code"], next.key);
  });

  test("an unreadable launch-keys.json counts as empty", async () => {
    fs.writeFileSync(launchKeysPath(dataDir), "{ not json");
    const { access } = fakeAccess(dataDir, []);
    assert.equal((await ensureAppKey(access, "codex")).created, true);
  });

  test("model: --model (checked), else the default alias, else the first tool-capable allowed model", async () => {
    const base = { providerName: "P", attachment: false, reasoning: false };
    const catalog = [
      { ...base, id: "a/no-tools", name: "A", toolCall: false, context: 0 },
      { ...base, id: "b/tools", name: "B", toolCall: true, context: 128_000, attachment: true },
      { ...base, id: "c/other", name: "C", toolCall: true, context: 200_000, reasoning: true },
    ];
    const pick = async (asked: string | undefined) => {
      const { models, ...rest } = await chooseModels(access, "x", asked);
      return { ...rest, ids: models.map((m) => m.id) };
    };
    const { access, apps } = fakeAccess(dataDir, catalog);
    assert.deepEqual(await pick(undefined), {
      model: "b/tools",
      smallModel: "b/tools",
      contextWindow: 128_000,
      ids: ["b/tools", "a/no-tools", "c/other"],
    });
    assert.deepEqual(await pick("c/other#high"), {
      model: "c/other#high",
      smallModel: "c/other#high",
      contextWindow: 200_000,
      ids: ["a/no-tools", "b/tools", "c/other"],
    });
    assert.equal((await chooseModels(access, "x", "a/no-tools")).contextWindow, null, "unknown window");
    await assert.rejects(
      chooseModels(access, "x", "nope/model"),
      /has no model "nope\/model".*Available: a\/no-tools, b\/tools/,
    );
    apps.set("x", { models: ["c/*"], aliases: { default: "c/other", haiku: "c/other" } });
    assert.deepEqual(await pick(undefined), {
      model: "default",
      smallModel: "haiku",
      contextWindow: 200_000,
      ids: ["default", "haiku", "c/other"],
    });
    // Aliases carry their target's capabilities, for clients that keep a catalog (Codex).
    const models = (await chooseModels(access, "x", undefined)).models;
    assert.deepEqual(models[0], {
      id: "default",
      name: "default (C)",
      description: "C (P) through Patchbay",
      contextWindow: 200_000,
      image: false,
      reasoning: true,
    });
    apps.set("y", { models: ["z/*"], aliases: {} });
    await assert.rejects(chooseModels(access, "y", undefined), /allows z\/\*, but no connected provider/);
  });

  test("no models at all: says how to log in", async () => {
    const { access } = fakeAccess(dataDir, []);
    await assert.rejects(chooseModels(access, "x", undefined), /npx --no-install opencode auth login/);
  });

  test("API origin: no /v1, loopback for a LAN-exposed listener, an error when stopped", () => {
    const st = (api: Partial<PatchbayStatus["api"]>) =>
      ({ api: { running: true, baseUrl: null, error: null, ...api } }) as PatchbayStatus;
    assert.equal(apiOrigin(st({ baseUrl: "http://127.0.0.1:4747/v1" })), "http://127.0.0.1:4747");
    assert.equal(apiOrigin(st({ baseUrl: "http://0.0.0.0:4747/v1" })), "http://127.0.0.1:4747");
    assert.throws(
      () => apiOrigin(st({ running: false, error: "port 4747 is in use" })),
      /API is stopped \(port 4747 is in use\)/,
    );
  });
});
