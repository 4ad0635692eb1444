// `patchbay connect claude-desktop` against a real Patchbay (mock upstream, real OpenCode), temp HOME, loopback only.
// Claude Desktop itself cannot run here (a macOS/Windows GUI app), so the test checks the file against the documented
// keys and then sends the requests Claude Desktop makes with such a profile, exactly as the profile configures them:
// `GET <inferenceGatewayBaseUrl>/v1/models` (its model discovery) and a streaming `POST …/v1/messages` with the key
// as `Authorization: Bearer` (inferenceGatewayAuthScheme "bearer") and the first of `inferenceModels`.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startPatchbayFixture, type PatchbayFixture } from "../harness/patchbay-fixture";
import { CLAUDE_DESKTOP_PROFILE_ID } from "../../server/clients/claude-desktop";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BIN = path.join(ROOT, "bin", "patchbay.mjs");

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe("connect claude-desktop", { timeout: 300_000 }, () => {
  let fx: PatchbayFixture;
  let tmp: string;
  let userData: string;
  let profile: string;
  let meta: string;

  function cli(args: string[]): Promise<Run> {
    const e: NodeJS.ProcessEnv = { ...process.env };
    for (const k of Object.keys(e)) if (/^(PATCHBAY_|OPENCODE_|ANTHROPIC_|CLAUDE_)/.test(k)) delete e[k];
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, "--data-dir", fx.dataDir, ...args], {
        env: { ...e, HOME: path.join(tmp, "home"), CLAUDE_USER_DATA_DIR: userData, NO_COLOR: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
      child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
      const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
      child.on("error", reject);
      child.on("close", (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });
  }

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pb-desktop-int-"));
    fs.mkdirSync(path.join(tmp, "home"));
    userData = path.join(tmp, "Claude-3p");
    const lib = path.join(userData, "configLibrary");
    profile = path.join(lib, `${CLAUDE_DESKTOP_PROFILE_ID}.json`);
    meta = path.join(lib, "_meta.json");
    fs.mkdirSync(lib, { recursive: true });
    fx = await startPatchbayFixture({ clientEnv: { HOME: path.join(tmp, "home") } });
  });
  after(async () => {
    await fx?.stop();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test("dry run, write (verified), Claude Desktop's own requests, undo byte for byte", async () => {
    const original = Buffer.from('{"appliedId":"work","entries":[{"id":"work","name":"Work"}]}');
    fs.writeFileSync(meta, original);

    const dry = await cli(["connect", "claude-desktop", "--model", "mock/mock-model", "--dry-run"]);
    assert.equal(dry.code, 0, dry.stderr);
    assert.ok(dry.stdout.includes(`Would write ${profile}:`), dry.stdout);
    assert.match(dry.stdout, /\+\s+"inferenceProvider": "gateway"/);
    assert.ok(dry.stdout.includes(`Would write ${meta}`), dry.stdout);
    assert.equal(fs.existsSync(profile), false, "a dry run writes nothing");
    assert.ok(fs.readFileSync(meta).equals(original));

    const r = await cli(["connect", "claude-desktop", "--model", "mock/mock-model"]);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.match(r.stdout, /^OK: Claude Desktop settings work/m);
    assert.match(r.stdout, /quit it fully and open it again/);
    const p = JSON.parse(fs.readFileSync(profile, "utf8")) as Record<string, unknown>;
    assert.equal(p.inferenceProvider, "gateway");
    assert.match(String(p.inferenceGatewayBaseUrl), /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(p.inferenceGatewayAuthScheme, "bearer");
    const models = p.inferenceModels as string[];
    assert.equal(models[0], "claude/mock/mock-model");
    assert.ok(
      models.every((m) => /(claude|anthropic)/i.test(m)),
      models.join(", "),
    );
    assert.equal(JSON.parse(fs.readFileSync(meta, "utf8")).appliedId, CLAUDE_DESKTOP_PROFILE_ID);

    // The app's model discovery and a streamed turn, exactly as the profile configures them.
    const base = String(p.inferenceGatewayBaseUrl);
    const auth = { authorization: `Bearer ${String(p.inferenceGatewayApiKey)}`, "anthropic-version": "2023-06-01" };
    const list = await fetch(`${base}/v1/models`, { headers: auth });
    assert.equal(list.status, 200);
    const ids = ((await list.json()) as { data: { id: string }[] }).data.map((m) => m.id);
    assert.ok(ids.includes("mock/mock-model"), ids.join(", "));
    fx.mock.reset();
    const res = await fetch(`${base}/v1/messages`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({
        model: models[0],
        max_tokens: 64,
        stream: true,
        messages: [{ role: "user", content: "Hello from Claude Desktop" }],
      }),
    });
    assert.equal(res.status, 200);
    const sse = await res.text();
    assert.match(sse, /event: message_stop/);
    const text = [...sse.matchAll(/"text_delta","text":"([^"]*)"/g)].map((m) => m[1]).join("");
    assert.equal(text, "MOCK_DEFAULT_REPLY");
    assert.ok(fx.mock.chatRequests().some((q) => JSON.stringify(q.body).includes("Hello from Claude Desktop")));

    const undo = await cli(["connect", "claude-desktop", "--undo"]);
    assert.equal(undo.code, 0, undo.stderr);
    assert.equal(fs.existsSync(profile), false);
    assert.ok(fs.readFileSync(meta).equals(original), "_meta.json restored byte for byte");
  });

  test("a broken or symlinked _meta.json is refused with its path; nothing is written", async () => {
    fs.writeFileSync(meta, "{ broken");
    const bad = await cli(["connect", "claude-desktop"]);
    assert.notEqual(bad.code, 0);
    assert.ok(bad.stderr.includes(meta), bad.stderr);
    assert.match(bad.stderr, /not valid JSON/);
    assert.equal(fs.existsSync(profile), false);
    fs.rmSync(meta);
    const target = path.join(tmp, "meta-elsewhere.json");
    fs.writeFileSync(target, '{"entries":[]}');
    fs.symlinkSync(target, meta);
    const link = await cli(["connect", "claude-desktop"]);
    assert.notEqual(link.code, 0);
    assert.match(link.stderr, /is a symbolic link/);
    assert.equal(fs.readFileSync(target, "utf8"), '{"entries":[]}');
    assert.equal(fs.existsSync(profile), false);
  });
});
