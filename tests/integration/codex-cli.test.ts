// The real Codex CLI (`codex exec`, @openai/codex 0.171.0) against Patchbay's /v1/responses, configured with exactly
// the Connect panel's Codex snippet: a plain prompt, an agent loop where Codex runs the shell command the mock asks for,
// and Codex's default tools (a namespace tool and hosted web_search) working without any change. Asserts on what Codex
// prints AND on what the mock upstream received. Loopback only; every wait is bounded.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PatchbayFixture } from "../harness/patchbay-fixture";
import { releaseSharedPatchbay, useSharedPatchbay } from "../harness/shared-patchbay";
import type { RecordedRequest } from "../harness/mock-upstream";
import { describeRun, runCodexExec, testCodexArgs, writeCodexSnippetConfig, type CliRun } from "../harness/agent-cli";

const MODEL = "mock/mock-model";
/** Bound of one `codex exec` run. The first request of a tool set starts an OpenCode instance directory, which takes
 *  tens of seconds on a loaded 2-core machine; later ones take seconds. */
const RUN_TIMEOUT_MS = 180_000;

let fx: PatchbayFixture;
let key: string;
let home: string;

interface CodexRun extends CliRun {
  cwd: string;
}

/** Runs `codex exec` once in a fresh git-less directory with the temp CODEX_HOME; killed after RUN_TIMEOUT_MS. The
 *  same flags on every run keep Codex's tool set, and so Patchbay's OpenCode instance directory, the same. */
async function runCodex(prompt: string, extraArgs: string[] = []): Promise<CodexRun> {
  const cwd = fs.mkdtempSync(path.join(home, "work-"));
  const args = testCodexArgs(prompt, { bypassSandbox: true, extra: extraArgs });
  return { ...(await runCodexExec({ home, key, cwd, args, timeoutMs: RUN_TIMEOUT_MS })), cwd };
}

/** Warnings Codex 0.171.0 prints that are not about the provider: its model catalog does not know Patchbay's model
 *  ids (set `model_catalog_json` to silence it), no system bubblewrap on test machines, and helper binaries it refuses
 *  to create under a temporary CODEX_HOME. */
const KNOWN_CODEX_WARNINGS = [
  /Model metadata for `[^`]+` not found/,
  /could not find bubblewrap/i,
  /could not create PATH aliases/,
];

type Json = Record<string, unknown>;
interface ChatMessage {
  role: string;
  content?: unknown;
  tool_call_id?: string;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
}

function messagesOf(req: RecordedRequest | undefined): ChatMessage[] {
  return ((req?.body as Json | undefined)?.messages ?? []) as ChatMessage[];
}
function toolNamesOf(req: RecordedRequest | undefined): string[] {
  const tools = ((req?.body as Json | undefined)?.tools ?? []) as Array<{ function: { name: string } }>;
  return tools.map((t) => t.function.name);
}
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p: { text?: string }) => p.text ?? "").join("");
  return "";
}

before(async () => {
  fx = await useSharedPatchbay();
  key = await fx.createKey("codex");
  home = fs.mkdtempSync(path.join(os.tmpdir(), "pb-codex-"));
  writeCodexSnippetConfig(home, { baseUrl: fx.apiBase, model: MODEL, app: "codex" });
});
after(async () => {
  await releaseSharedPatchbay(fx);
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

describe("codex exec through Patchbay (Connect snippet config)", () => {
  test("a plain prompt is answered with the mock's text", async (t) => {
    fx.mock.reset();
    fx.mock.script({ text: "PONG-7431 from the mock" });
    const run = await runCodex("Reply with PONG.");
    assert.equal(run.code, 0, describeRun(run));
    assert.match(run.stdout, /PONG-7431 from the mock/, describeRun(run));
    const reqs = fx.mock.chatRequests();
    assert.equal(reqs.length, 1, "one upstream call");
    const msgs = messagesOf(reqs[0]);
    assert.ok(
      msgs.some((m) => m.role === "user" && textOf(m.content).includes("Reply with PONG.")),
      "the prompt reached the model",
    );
    assert.ok(
      msgs.some((m) => m.role === "system" && textOf(m.content).includes("Codex")),
      "Codex's developer message is the system prompt",
    );
    assert.doesNotMatch(run.stderr, /unsupported_parameter|400 Bad Request|stream disconnected/i, describeRun(run));
    // Codex's own warnings: only the ones about its environment and its model catalog, none about the provider.
    const warnings = run.stderr.split("\n").filter((l) => /^\s*(warning|WARNING)\b/.test(l));
    for (const w of warnings)
      assert.ok(
        KNOWN_CODEX_WARNINGS.some((re) => re.test(w)),
        `unexpected Codex warning: ${w}`,
      );
    const logs = await fx.admin.queryLogs({ query: { app: "codex" } });
    const entry = logs.entries.find((e) => e.endpoint === "/v1/responses");
    t.diagnostic(`Patchbay: status ${entry?.status}, ttft ${entry?.ttftMs} ms, total ${entry?.totalMs} ms`);
    t.diagnostic(`x-patchbay-warnings: ${JSON.stringify(entry?.warnings)}`);
  });

  test("agent loop: the mock calls Codex's shell tool, Codex runs it, the result reaches the mock", async () => {
    fx.mock.reset();
    fx.mock.script(
      {
        toolCalls: [
          {
            id: "call_shell_1",
            name: "exec_command",
            arguments: { cmd: "echo made-by-codex > proof.txt && echo RAN-$((6*7))" },
          },
        ],
      },
      { text: "FINAL-ANSWER-93: the command printed RAN-42" },
    );
    const run = await runCodex("Run the proof command.");
    assert.equal(run.code, 0, describeRun(run));
    assert.match(run.stdout, /FINAL-ANSWER-93/, describeRun(run));
    assert.equal(fs.readFileSync(path.join(run.cwd, "proof.txt"), "utf8").trim(), "made-by-codex", "Codex ran it");

    const reqs = fx.mock.chatRequests();
    assert.equal(reqs.length, 2, "one upstream call per Codex request");
    assert.ok(toolNamesOf(reqs[0]).includes("exec_command"), "Codex's shell tool was offered");
    const second = messagesOf(reqs[1]);
    const call = second.find((m) => m.role === "assistant" && m.tool_calls?.length);
    assert.equal(call?.tool_calls?.[0]?.id, "call_shell_1");
    assert.equal(call?.tool_calls?.[0]?.function.name, "exec_command");
    const result = second.find((m) => m.role === "tool");
    assert.equal(result?.tool_call_id, "call_shell_1");
    assert.match(textOf(result?.content), /RAN-42/, "the command's output reached the model as the tool result");
  });

  test("a reasoning model: Codex shows the reasoning summary and replays the reasoning item next turn", async () => {
    fx.mock.reset();
    fx.mock.script(
      {
        reasoning: "REASONING-TRACE-61: list the directory first.",
        toolCalls: [{ id: "call_r1", name: "exec_command", arguments: { cmd: "echo REASONED-$((7*6))" } }],
        usage: { prompt_tokens: 120, completion_tokens: 30, cached_tokens: 100, reasoning_tokens: 12 },
      },
      { text: "REASONED-ANSWER-17" },
    );
    await fx.admin.updateSettings({ body: { logBodies: true } });
    const run = await runCodex("Think, then run the command.", ["-m", "mock/mock-reasoner"]);
    assert.equal(run.code, 0, describeRun(run));
    assert.match(run.stdout, /REASONED-ANSWER-17/, describeRun(run));
    assert.match(run.stderr, /REASONING-TRACE-61/, "Codex showed the reasoning summary it streamed");
    const reqs = fx.mock.chatRequests();
    assert.equal(reqs.length, 2, "the replayed reasoning item did not break the second request");
    const result = messagesOf(reqs[1]).find((m) => m.role === "tool");
    assert.match(textOf(result?.content), /REASONED-42/);
    // What Codex sent Patchbay on its second request: the reasoning item it was given, replayed.
    const logs = await fx.admin.queryLogs({ query: { app: "codex" } });
    const bodies = logs.entries
      .filter((e) => e.endpoint === "/v1/responses" && e.requestBody)
      .map((e) => e.requestBody as { input?: Array<{ type?: string; summary?: Array<{ text?: string }> }> });
    const replayed = bodies.flatMap((b) => b.input ?? []).find((i) => i.type === "reasoning");
    assert.match(replayed?.summary?.[0]?.text ?? "", /REASONING-TRACE-61/, "Codex replayed the reasoning item");
    await fx.admin.updateSettings({ body: { logBodies: false } });
  });

  test("Codex's default tools work unchanged: the namespace member is callable, hosted web_search is run by Patchbay", async () => {
    fx.mock.reset();
    fx.mock.script(
      { toolCalls: [{ id: "call_ns_1", name: "multi_agent_v1__close_agent", arguments: { target: "no-such-agent" } }] },
      { text: "NAMESPACE-OK-55" },
    );
    const run = await runCodex("Close the agent no-such-agent.");
    assert.equal(run.code, 0, describeRun(run));
    assert.match(run.stdout, /NAMESPACE-OK-55/, describeRun(run));

    const reqs = fx.mock.chatRequests();
    assert.equal(reqs.length, 2);
    const offered = toolNamesOf(reqs[0]);
    assert.ok(
      offered.includes("multi_agent_v1__close_agent"),
      `namespace members are offered flat: ${offered.join(", ")}`,
    );
    // The hosted tool reaches the model as the function Patchbay runs itself (server/server-tools), not dropped.
    assert.ok(
      offered.some((n) => /web_search/.test(n)),
      `the hosted web_search tool is offered as a function: ${offered.join(", ")}`,
    );
    // Codex dispatched close_agent (its own error for the unknown id), not "unsupported call".
    const result = messagesOf(reqs[1]).find((m) => m.role === "tool");
    assert.equal(result?.tool_call_id, "call_ns_1");
    assert.match(textOf(result?.content), /agent/i);
    assert.doesNotMatch(textOf(result?.content), /unsupported call|unknown tool/i, textOf(result?.content));
    // History: the replayed function_call (with its namespace) reaches the model under the same flat name.
    const replayed = messagesOf(reqs[1]).find((m) => m.role === "assistant" && m.tool_calls?.length);
    assert.equal(replayed?.tool_calls?.[0]?.function.name, "multi_agent_v1__close_agent");

    const logs = await fx.admin.queryLogs({ query: { app: "codex" } });
    const latest = logs.entries.find((e) => e.endpoint === "/v1/responses" && e.status === 200);
    assert.ok(latest, "the request is in the log");
    assert.ok(
      !latest.warnings.some((w) => /dropped/i.test(w) && /web_search/.test(w)),
      `hosted web_search is not dropped: ${JSON.stringify(latest.warnings)}`,
    );
  });
});
