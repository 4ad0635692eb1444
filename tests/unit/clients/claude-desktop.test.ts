// Claude Desktop's third-party gateway profile (configLibrary/<id>.json + _meta.json): the documented keys, a dry run
// that writes nothing, write, undo byte for byte, verify sending exactly what the profile configures, and broken or
// symlinked files refused with nothing written.
import { test, describe, beforeEach, afterEach } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { findConnectable } from "../../../server/clients/registry";
import {
  CLAUDE_DESKTOP_PROFILE_ID,
  claudeDesktopLibrary,
  readClaudeDesktopProfile,
} from "../../../server/clients/claude-desktop";
import { applyConnect, backupsDir, planConnect, undoConnect } from "../../../server/connect/connect-files";
import { verifyClientConnect } from "../../../server/connect/connect-service";
import { ConfigFileError } from "../../../server/clients/types";

const MODEL = { name: "M", description: "d", contextWindow: 200_000, image: true, reasoning: false };
const S = {
  origin: "http://localhost:4747",
  key: "pb-SECRETSECRETSECRET",
  model: "mock/mock-model",
  smallModel: "mock/mock-model",
  models: [
    { ...MODEL, id: "mock/mock-model" },
    { ...MODEL, id: "anthropic/claude-sonnet-4-5" },
  ],
};
const desktop = findConnectable("claude-desktop")!;

/** Every file under `dir` with its bytes. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (e.isFile() || e.isSymbolicLink()) {
      const full = path.join(e.parentPath, e.name);
      out[path.relative(dir, full)] = e.isFile() ? fs.readFileSync(full).toString("base64") : "link";
    }
  return out;
}

describe("Claude Desktop: the config library's path", () => {
  test("per platform, and $CLAUDE_USER_DATA_DIR first", () => {
    assert.equal(
      claudeDesktopLibrary({}, "/Users/a", "darwin"),
      "/Users/a/Library/Application Support/Claude-3p/configLibrary",
    );
    assert.equal(claudeDesktopLibrary({}, "/home/a", "linux"), "/home/a/.config/Claude-3p/configLibrary");
    assert.equal(claudeDesktopLibrary({ CLAUDE_USER_DATA_DIR: "/d" }, "/home/a", "darwin"), "/d/configLibrary");
    assert.match(claudeDesktopLibrary({ LOCALAPPDATA: "C:\\L" }, "C:\\U", "win32"), /Claude-3p.configLibrary$/);
  });
});

describe("connect claude-desktop", () => {
  let tmp: string;
  let env: Record<string, string>;
  let dataDir: string;
  let lib: string;
  let profile: string;
  let meta: string;

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pb-desktop-"));
    env = { HOME: path.join(tmp, "home"), CLAUDE_USER_DATA_DIR: path.join(tmp, "Claude-3p") };
    dataDir = path.join(tmp, "data");
    lib = path.join(tmp, "Claude-3p", "configLibrary");
    profile = path.join(lib, `${CLAUDE_DESKTOP_PROFILE_ID}.json`);
    meta = path.join(lib, "_meta.json");
    fs.mkdirSync(lib, { recursive: true });
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  test("dry run writes nothing; apply writes the documented gateway keys and applies the profile", async () => {
    const t = { client: desktop, dataDir, env };
    const before = snapshot(tmp);
    const plan = await planConnect(t, S);
    assert.equal(plan.path, profile);
    assert.equal(plan.companion?.path, meta);
    assert.deepEqual(snapshot(tmp), before, "a plan writes nothing");

    await applyConnect(t, S);
    assert.deepEqual(JSON.parse(fs.readFileSync(profile, "utf8")), {
      inferenceProvider: "gateway",
      inferenceGatewayBaseUrl: "http://127.0.0.1:4747",
      inferenceGatewayApiKey: "pb-SECRETSECRETSECRET",
      inferenceGatewayAuthScheme: "bearer",
      // Ids that read as Anthropic's: an id without claude/anthropic in it gets Patchbay's `claude/` prefix.
      inferenceModels: ["claude/mock/mock-model", "anthropic/claude-sonnet-4-5"],
    });
    assert.deepEqual(JSON.parse(fs.readFileSync(meta, "utf8")), {
      entries: [{ id: CLAUDE_DESKTOP_PROFILE_ID, name: "Patchbay" }],
      appliedId: CLAUDE_DESKTOP_PROFILE_ID,
    });
    assert.equal(fs.statSync(profile).mode & 0o777, 0o600);
    assert.equal((await applyConnect(t, S)).changed, false, "a second run changes nothing");
  });

  test("undo restores the user's own configurations and _meta.json byte for byte", async () => {
    const own = path.join(lib, "1111.json");
    const ownText = '{"inferenceProvider":"vertex"}';
    const metaText = Buffer.from('{"appliedId":"1111","entries":[{"id":"1111","name":"Work"}]}\r\n');
    fs.writeFileSync(own, ownText);
    fs.writeFileSync(meta, metaText, { mode: 0o644 });
    const t = { client: desktop, dataDir, env };
    await applyConnect(t, S);
    const applied = JSON.parse(fs.readFileSync(meta, "utf8"));
    assert.equal(applied.appliedId, CLAUDE_DESKTOP_PROFILE_ID);
    assert.deepEqual(applied.entries[0], { id: "1111", name: "Work" }, "other entries are kept");
    const undone = await undoConnect(t);
    assert.equal(undone.action, "removed");
    assert.equal(undone.companion?.action, "restored");
    assert.ok(fs.readFileSync(meta).equals(metaText));
    assert.equal(fs.statSync(meta).mode & 0o777, 0o644);
    assert.equal(fs.readFileSync(own, "utf8"), ownText);
    assert.equal(fs.existsSync(profile), false);
    assert.deepEqual(fs.readdirSync(backupsDir(dataDir)), []);
  });

  test("verify sends what the profile configures: POST <base>/v1/messages, the key as Bearer only", async () => {
    const t = { client: desktop, dataDir, env };
    await applyConnect(t, S);
    const seen: { url: string; headers: Record<string, string>; body: Record<string, unknown> }[] = [];
    const fetchSpy = (async (url: string, init: RequestInit) => {
      seen.push({
        url,
        headers: init.headers as Record<string, string>,
        body: JSON.parse(String(init.body)) as Record<string, unknown>,
      });
      return new Response(JSON.stringify({ type: "message", content: [{ type: "text", text: "pong" }] }), {
        status: 200,
        headers: { "content-type": "application/json" },
      });
    }) as unknown as typeof fetch;
    const v = await verifyClientConnect({ client: desktop, env, cli: (a) => `patchbay ${a}` }, fetchSpy);
    assert.equal(v.ok, true, v.message);
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.url, "http://127.0.0.1:4747/v1/messages");
    assert.equal(seen[0]!.headers.authorization, "Bearer pb-SECRETSECRETSECRET");
    assert.equal(seen[0]!.headers["x-api-key"], undefined, "bearer scheme: no x-api-key header");
    assert.equal(seen[0]!.body.model, "claude/mock/mock-model");

    // Another configuration applied in the app since: verify says so before sending anything.
    fs.writeFileSync(meta, JSON.stringify({ appliedId: "other", entries: [] }));
    const other = await verifyClientConnect({ client: desktop, env, cli: (a) => `c ${a}` }, fetchSpy);
    assert.equal(other.ok, false);
    assert.match(other.message, /applies another configuration/);
    assert.equal(seen.length, 1);
  });

  test("a broken _meta.json or profile is refused with its path; nothing is written", async () => {
    const t = { client: desktop, dataDir, env };
    fs.writeFileSync(meta, "{ not json");
    const before = snapshot(tmp);
    await assert.rejects(applyConnect(t, S), (e: Error) => e instanceof ConfigFileError && e.message.includes(meta));
    fs.writeFileSync(meta, '{"entries": 5}');
    await assert.rejects(applyConnect(t, S), /entries is not a list/);
    fs.rmSync(meta);
    fs.writeFileSync(profile, "[1]");
    await assert.rejects(applyConnect(t, S), (e: Error) => e.message.includes(profile));
    fs.rmSync(profile);
    fs.writeFileSync(meta, "{ not json");
    assert.deepEqual(snapshot(tmp), before);
    const backups = fs.existsSync(backupsDir(dataDir)) ? fs.readdirSync(backupsDir(dataDir)) : [];
    assert.deepEqual(
      backups.filter((f) => !f.endsWith(".lock")),
      [],
      "no backup taken",
    );
  });

  test("a symlinked profile or _meta.json is refused; the link and its target stay as they were", async () => {
    const t = { client: desktop, dataDir, env };
    const target = path.join(tmp, "elsewhere.json");
    fs.writeFileSync(target, '{"entries":[]}');
    fs.symlinkSync(target, meta);
    await assert.rejects(applyConnect(t, S), /_meta\.json is a symbolic link/);
    assert.equal(fs.readFileSync(target, "utf8"), '{"entries":[]}');
    assert.ok(fs.lstatSync(meta).isSymbolicLink());
    fs.rmSync(meta);
    fs.symlinkSync(target, profile);
    await assert.rejects(applyConnect(t, S), /is a symbolic link/);
    assert.equal(fs.readFileSync(target, "utf8"), '{"entries":[]}');
    assert.equal(fs.existsSync(meta), false);
  });

  test("readClaudeDesktopProfile: none without the gateway provider or a model", () => {
    assert.equal(readClaudeDesktopProfile('{"inferenceProvider":"vertex"}'), null);
    assert.equal(
      readClaudeDesktopProfile(
        '{"inferenceProvider":"gateway","inferenceGatewayBaseUrl":"u","inferenceGatewayApiKey":"k"}',
      ),
      null,
    );
  });
});
