// GitHub Copilot CLI (pinned @github/copilot) through `patchbay launch copilot`: a real Patchbay (mock upstream, real
// OpenCode), a temp HOME, no GitHub login (COPILOT_OFFLINE + COPILOT_PROVIDER_* in its environment only), loopback
// only. A plain prompt, and a shell loop: the model asks for Copilot's shell tool, Copilot runs it (Patchbay never
// does) and sends the result back, which the model answers.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startPatchbayFixture, type PatchbayFixture } from "../harness/patchbay-fixture";
import type { RecordedRequest } from "../harness/mock-upstream";
import { inheritedEnv, runPatchbay, type CliRun } from "../harness/agent-cli";

interface Tool {
  function?: { name?: string; parameters?: { required?: string[]; properties?: Record<string, { type?: string }> } };
}

/** The upstream request's tools. */
function toolsOf(body: Record<string, unknown>): Tool[] {
  return (body.tools as Tool[] | undefined) ?? [];
}

/** Copilot's shell tool as it reaches the upstream (Patchbay names client tools `client_<name>` there). */
function shellTool(body: Record<string, unknown>): Tool | undefined {
  return toolsOf(body).find((t) => /(^|_)(bash|shell|powershell)$/.test(t.function?.name ?? ""));
}

describe("GitHub Copilot CLI through launch copilot", { timeout: 600_000 }, () => {
  let fx: PatchbayFixture;
  let tmp: string;
  let home: string;

  /** `patchbay …` in the temp HOME. */
  function cli(args: string[], timeoutMs = 240_000): Promise<CliRun> {
    return runPatchbay(fx.dataDir, args, { cwd: tmp, env: inheritedEnv(home), timeoutMs });
  }

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pb-copilot-"));
    home = path.join(tmp, "home");
    fs.mkdirSync(home);
    fx = await startPatchbayFixture({ clientEnv: { HOME: home } });
  });
  after(async () => {
    await fx?.stop();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test("plain prompt, then a shell loop, without any GitHub login", async () => {
    fx.mock.reset();
    const plain = await cli(["launch", "copilot", "--model", "mock/mock-model", "--", "-p", "Say hello", "--no-color"]);
    assert.equal(plain.code, 0, plain.stderr + plain.stdout);
    assert.match(plain.stdout, /MOCK_DEFAULT_REPLY/);
    assert.match(plain.stderr, /starting GitHub Copilot CLI/);
    const first = fx.mock.chatRequests().find((q) => toolsOf(q.body).length > 0);
    assert.ok(first, "Copilot's turn reached the upstream with its tools");
    assert.match(JSON.stringify(first.body.messages), /Say hello/);
    const shell = shellTool(first.body);
    assert.ok(shell?.function?.name, `no shell tool among ${toolsOf(first.body).map((t) => t.function?.name)}`);

    fx.mock.reset();
    const name = shell.function.name;
    fx.mock.setResponder((rec: RecordedRequest) => {
      const messages = (rec.body.messages as { role: string; content?: unknown }[] | undefined) ?? [];
      const tool = messages.find((m) => m.role === "tool");
      if (tool)
        return { text: `SHELL_SAID ${JSON.stringify(tool.content).includes("PATCHBAY_SHELL_OK") ? "ok" : "no"}` };
      if (!shellTool(rec.body)) return { text: "title" };
      const schema = shellTool(rec.body)?.function?.parameters;
      const args: Record<string, unknown> = {};
      for (const key of schema?.required ?? []) {
        const type = schema?.properties?.[key]?.type;
        args[key] =
          key === "command" ? "echo PATCHBAY_SHELL_OK" : type === "boolean" ? false : type === "number" ? 30 : "demo";
      }
      return { toolCalls: [{ id: "call_shell_1", name: name.replace(/^client_/, ""), arguments: args }] };
    });
    const loop = await cli([
      "launch",
      "copilot",
      "--model",
      "mock/mock-model",
      "--",
      "-p",
      "Run echo",
      "--allow-all-tools",
      "--no-color",
    ]);
    assert.equal(loop.code, 0, loop.stderr + loop.stdout);
    assert.match(loop.stdout, /SHELL_SAID ok/);
  });
});
