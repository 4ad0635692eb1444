// Claude Code's model picker and `launch` over `connect` (issue 25 item 3), with the real `claude` CLI (pinned
// @anthropic-ai/claude-code), a real Patchbay (mock upstream, real OpenCode) and a temp HOME, loopback only:
// - GET /v1/models as Claude Code's gateway discovery asks it lists every model under an id Claude Code keeps, and a
//   model picked under that id answers on /v1/messages;
// - `launch claude` turns discovery on: the real CLI caches Patchbay's models (gateway-models.json);
// - after `connect claude` wrote ~/.claude/settings.json and its key was revoked, `launch claude --model other` uses
//   the model and the key launch chose (no hang on 401 retries), and leaves no per-run file behind.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startPatchbayFixture, type PatchbayFixture } from "../harness/patchbay-fixture";
import { inheritedEnv, runPatchbay, type CliRun } from "../harness/agent-cli";
const CONNECTED = "mock/mock-model";
const LAUNCHED = "mock/mock-reasoner";
/** The User-Agent of Claude Code's discovery request (`claude-code/<version>`, from the CLI's code). */
const DISCOVERY_UA = "claude-code/2.1.332";

describe("Claude Code: /model discovery and launch over connect", { timeout: 600_000 }, () => {
  let fx: PatchbayFixture;
  let tmp: string;
  let home: string;

  /** `patchbay …` in the temp HOME (XDG folders inside it). */
  function cli(args: string[], timeoutMs = 180_000): Promise<CliRun> {
    const env = inheritedEnv(home, {
      XDG_CONFIG_HOME: path.join(home, ".config"),
      XDG_CACHE_HOME: path.join(home, ".cache"),
    });
    return runPatchbay(fx.dataDir, args, { cwd: tmp, env, timeoutMs });
  }

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pb-claude-picker-"));
    home = path.join(tmp, "home");
    fs.mkdirSync(home);
    fx = await startPatchbayFixture({ clientEnv: { HOME: home } });
  });
  after(async () => {
    await fx?.stop();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test("GET /v1/models as Claude Code asks: every model under an id its filter keeps; that id works", async () => {
    const key = await fx.createKey("picker");
    await fx.admin.updateApp({ params: { name: "picker" }, body: { aliases: { fast: CONNECTED } } });
    const headers = { "anthropic-version": "2023-06-01", "user-agent": DISCOVERY_UA };
    const res = await fx.api("/v1/models?limit=1000", { key, headers });
    assert.equal(res.status, 200);
    const list = (await res.json()) as { data: { id: string; display_name: string }[] };
    const ids = list.data.map((m) => m.id);
    // Claude Code keeps only ids matching /(claude|anthropic)/i (gateway discovery's filter).
    assert.ok(
      ids.every((id) => /(claude|anthropic)/i.test(id)),
      ids.join(", "),
    );
    assert.ok(ids.includes(`claude/${CONNECTED}`), ids.join(", "));
    assert.ok(ids.includes("claude/fast"), "aliases too");
    assert.equal(list.data.find((m) => m.id === `claude/${CONNECTED}`)?.display_name, "Mock Model (Mock upstream)");
    // Another Anthropic client sees the ids unchanged.
    const plain = (await (
      await fx.api("/v1/models", { key, headers: { "anthropic-version": "2023-06-01" } })
    ).json()) as { data: { id: string }[] };
    assert.ok(plain.data.some((m) => m.id === CONNECTED));
    // The picked id answers.
    fx.mock.reset();
    const msg = await fx.api("/v1/messages", {
      key,
      method: "POST",
      headers: { "anthropic-version": "2023-06-01", "content-type": "application/json" },
      body: JSON.stringify({
        model: `claude/${CONNECTED}`,
        max_tokens: 50,
        messages: [{ role: "user", content: "hi" }],
      }),
    });
    assert.equal(msg.status, 200, await msg.clone().text());
    assert.equal(((await msg.json()) as { model: string }).model, `claude/${CONNECTED}`);
    const unknown = await fx.api("/v1/messages", {
      key,
      method: "POST",
      headers: { "anthropic-version": "2023-06-01", "content-type": "application/json" },
      body: JSON.stringify({ model: "claude/nope/none", max_tokens: 5, messages: [{ role: "user", content: "x" }] }),
    });
    assert.equal(unknown.status, 404);
  });

  test("launch claude after connect claude (its key revoked): launch's model and key win, no hang", async () => {
    const settingsFile = path.join(home, ".claude", "settings.json");
    const connected = await cli(["connect", "claude", "--model", CONNECTED, "--no-verify"]);
    assert.equal(connected.code, 0, connected.stderr + connected.stdout);
    const written = JSON.parse(fs.readFileSync(settingsFile, "utf8")) as { env: Record<string, string> };
    assert.equal(written.env.ANTHROPIC_MODEL, CONNECTED);
    assert.equal(written.env.CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY, "1");
    const connectedKey = written.env.ANTHROPIC_AUTH_TOKEN ?? "";
    await fx.admin.revokeKey({ params: { name: "claude-code", prefix: connectedKey.slice(3, 15) } });

    fx.mock.reset();
    const r = await cli(["launch", "claude", "--model", LAUNCHED, "--", "-p", "Say hello"], 240_000);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.match(r.stdout, /MOCK_DEFAULT_REPLY/);
    // Which binary ran is said.
    assert.match(r.stderr, /starting Claude Code \(\/\S+claude\S*\) on http:\/\/127\.0\.0\.1:\d+/);
    const models = new Set(fx.mock.chatRequests().map((q) => q.body.model));
    assert.deepEqual([...models], ["mock-reasoner"], "every request used the model launch chose");
    // The connected settings are untouched, the per-run settings file is gone.
    assert.equal(
      (JSON.parse(fs.readFileSync(settingsFile, "utf8")) as { env: Record<string, string> }).env.ANTHROPIC_AUTH_TOKEN,
      connectedKey,
    );
    const runs = path.join(fx.dataDir, "launch");
    assert.deepEqual(fs.existsSync(runs) ? fs.readdirSync(runs) : [], []);

    // Discovery was on: Claude Code cached Patchbay's models for its /model picker.
    const cache = path.join(home, ".claude", "cache", "gateway-models.json");
    assert.ok(fs.existsSync(cache), `no ${cache}: gateway model discovery did not run`);
    const cached = JSON.parse(fs.readFileSync(cache, "utf8")) as { models: { id: string }[] };
    assert.ok(
      cached.models.some((m) => m.id === `claude/${LAUNCHED}`),
      JSON.stringify(cached.models),
    );
  });
});
