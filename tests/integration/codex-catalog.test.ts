// Codex's model catalog through `patchbay launch codex` and `patchbay connect codex` (issue 25 item 2) with the real `codex` CLI (pinned
// @openai/codex), a real Patchbay (mock upstream, real OpenCode) and a temp HOME, loopback only. With the catalog
// Patchbay writes, Codex knows the model: its request's tools gain the freeform `apply_patch` tool (a `custom` tool,
// which reaches the upstream as the function tool client_apply_patch), and the image Codex's view_image tool returns
// reaches the upstream model in a user message after the tool result; the per-run catalog is removed afterwards.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startPatchbayFixture, type PatchbayFixture } from "../harness/patchbay-fixture";
import {
  CODEX_BIN,
  REPO_ROOT,
  inheritedEnv,
  runCli,
  runPatchbay,
  testCodexArgs,
  type CliRun,
} from "../harness/agent-cli";

const MODEL = "mock/mock-model";

/** Names of the tools an upstream (chat completions) request offered. */
function toolNames(body: Record<string, unknown>): string[] {
  const tools = (body.tools as { function?: { name?: string } }[] | undefined) ?? [];
  return tools.map((t) => t.function?.name ?? "").filter(Boolean);
}

describe("Codex: the model catalog launch writes", { timeout: 600_000 }, () => {
  let fx: PatchbayFixture;
  let tmp: string;
  let home: string;

  /** `patchbay …` in the temp HOME. */
  function cli(args: string[], timeoutMs = 240_000): Promise<CliRun> {
    return runPatchbay(fx.dataDir, args, { cwd: tmp, env: inheritedEnv(home), timeoutMs });
  }

  /** `codex exec <prompt>`: doctor's arguments with feedback off, and Codex's sandbox left on. */
  const codexArgs = (prompt: string) => testCodexArgs(prompt);

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pb-codex-catalog-"));
    home = path.join(tmp, "home");
    fs.mkdirSync(home);
    fx = await startPatchbayFixture({ clientEnv: { HOME: home } });
  });
  after(async () => {
    await fx?.stop();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test("launch codex: Codex reads the catalog (its tools gain apply_patch) and the run's files are removed", async () => {
    fx.mock.reset();
    const r = await cli(["launch", "codex", "--model", MODEL, "--", ...codexArgs("Say hello")]);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.match(r.stdout + r.stderr, /MOCK_DEFAULT_REPLY/);
    const main = fx.mock.chatRequests().filter((q) => toolNames(q.body).length > 0);
    assert.ok(main.length > 0, "Codex's turn offered tools");
    const names = toolNames(main[0]!.body);
    // Patchbay names client tools `client_<name>` upstream (seen: client_apply_patch, exec_command, view_image, …).
    assert.ok(
      names.some((n) => /(^|_)apply_patch$/.test(n)),
      `no apply_patch among ${names.join(", ")}`,
    );
    // The catalog's instructions are the system prompt.
    assert.match(JSON.stringify(main[0]!.body.messages), /You are a coding agent running in the Codex CLI/);
    const runs = path.join(fx.dataDir, "launch");
    assert.deepEqual(fs.existsSync(runs) ? fs.readdirSync(runs) : [], []);
  });

  test("connect codex: the catalog it writes beside config.toml takes effect in a plain `codex exec`", async () => {
    const r = await cli(["connect", "codex", "--model", MODEL]);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const catalog = path.join(home, ".codex", "patchbay-models.json");
    assert.ok(r.stdout.includes(`Wrote Codex's model catalog to ${catalog}.`), r.stdout);
    assert.match(r.stdout, /^OK: /m);
    fx.mock.reset();
    // Codex itself, no launch: it reads ~/.codex/config.toml, whose model_catalog_json names the catalog.
    const run = await runCli(CODEX_BIN, codexArgs("Say hello"), {
      cwd: tmp,
      env: inheritedEnv(home),
      timeoutMs: 240_000,
    });
    assert.equal(run.code, 0, run.stderr + run.stdout);
    assert.match(run.stdout + run.stderr, /MOCK_DEFAULT_REPLY/);
    const main = fx.mock.chatRequests().filter((q) => toolNames(q.body).length > 0);
    assert.ok(main.length > 0, "Codex's turn offered tools");
    // The field that shows it: `tools` gains apply_patch, which Codex offers only for a model its catalog knows.
    const names = toolNames(main[0]!.body);
    assert.ok(
      names.some((n) => /(^|_)apply_patch$/.test(n)),
      `no apply_patch among ${names.join(", ")}`,
    );
    assert.match(JSON.stringify(main[0]!.body.messages), /You are a coding agent running in the Codex CLI/);
    const undo = await cli(["connect", "codex", "--undo"]);
    assert.equal(undo.code, 0, undo.stderr + undo.stdout);
    assert.equal(fs.existsSync(catalog), false, "undo removes the catalog connect created");
    const config = path.join(home, ".codex", "config.toml");
    assert.ok(!fs.existsSync(config) || !fs.readFileSync(config, "utf8").includes("patchbay"), "config restored");
  });

  test("view_image: the PNG Codex reads with its tool reaches the upstream model as an image", async () => {
    const png = path.join(tmp, "pic.png");
    fs.writeFileSync(
      png,
      Buffer.from(fs.readFileSync(path.join(REPO_ROOT, "tests/fixtures/red16.b64"), "utf8").trim(), "base64"),
    );
    fx.mock.reset();
    fx.mock.setResponder((rec) => {
      const messages = (rec.body.messages as { role: string }[] | undefined) ?? [];
      if (toolNames(rec.body).length === 0) return { text: "title" };
      if (messages.some((m) => m.role === "tool")) return { text: "SAW_THE_IMAGE" };
      return { toolCalls: [{ id: "call_view_1", name: "view_image", arguments: { path: png } }] };
    });
    const r = await cli(["launch", "codex", "--model", "mock/mock-vision", "--", ...codexArgs("Look at pic.png")]);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.match(r.stdout + r.stderr, /SAW_THE_IMAGE/);
    const after = fx.mock.chatRequests().find((q) => JSON.stringify(q.body.messages).includes('"role":"tool"'));
    assert.ok(after, "the tool result went upstream");
    const messages = after.body.messages as { role: string; content: unknown }[];
    const images = messages.filter(
      (m) => m.role === "user" && JSON.stringify(m.content).includes("data:image/png;base64,"),
    );
    assert.equal(images.length, 1, JSON.stringify(messages).slice(0, 2000));
    // It follows the tool result, which keeps a placeholder.
    const toolAt = messages.findIndex((m) => m.role === "tool");
    assert.ok(messages.indexOf(images[0]!) > toolAt);
    assert.match(JSON.stringify(messages[toolAt]), /see the next user message/);
  });
});
