// The real Claude Code CLI (`claude -p`, from the pinned @anthropic-ai/claude-code) against Patchbay's Messages API,
// configured exactly as the Connect snippet says (key + an app alias as every model tier), with a temporary HOME and
// CLAUDE_CONFIG_DIR and no network beyond loopback: (a) a plain prompt, (b) an agent loop where the mock asks for a
// Bash tool call that Claude Code runs itself, and the tool result reaches the mock.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startPatchbayFixture, type PatchbayFixture } from "../harness/patchbay-fixture";
import type { MockReply, RecordedRequest } from "../harness/mock-upstream";
import {
  MockAnthropicUpstream,
  anthropicProviderConfig,
  type AnthropicMockReply,
  type AnthropicRecordedRequest,
} from "../harness/mock-anthropic-upstream";
import { runClaudePrint, type CliRun } from "../harness/agent-cli";

type Json = Record<string, unknown>;

const ALIAS = "cc-main";
/** An alias for the mock Anthropic model (OpenCode's bundled @ai-sdk/anthropic). */
const CLAUDE_ALIAS = "cc-claude";
const SIGNATURE = "EqoBCkgIARABGAIiQClaudeCodeRoundTrip/0123==";
const PLAIN_ANSWER = "PLAIN_ANSWER_FROM_MOCK_42";
const FINAL_ANSWER = "FINAL_ANSWER_AFTER_BASH_7";

let fx: PatchbayFixture;
let anthropic: MockAnthropicUpstream;
let key: string;
let tmp: string;

/** Scripts the mock by what it is asked: a tool result → the final answer; the agent prompt → a Bash call; Claude
 *  Code's background asks (titles, summaries) and the plain prompt → plain text. */
function respond(rec: RecordedRequest): MockReply {
  const messages = (rec.body.messages as Json[] | undefined) ?? [];
  const last = messages.at(-1);
  if (last?.role === "tool") return { text: FINAL_ANSWER };
  const said = JSON.stringify(messages.filter((m) => m.role === "user"));
  if (said.includes("MAKE_THE_FILE"))
    return {
      toolCalls: [
        { id: "call_bash_1", name: "Bash", arguments: { command: "echo hi > out.txt", description: "Write out.txt" } },
      ],
    };
  return { text: PLAIN_ANSWER };
}

/** The mock Anthropic model: thinking (signed) + a Bash call first; after the tool result, the final answer. */
function respondAnthropic(rec: AnthropicRecordedRequest): AnthropicMockReply {
  const messages = (rec.body.messages as Json[] | undefined) ?? [];
  const last = messages.at(-1);
  const content = Array.isArray(last?.content) ? (last.content as Json[]) : [];
  if (content.some((b) => b.type === "tool_result")) return { text: FINAL_ANSWER };
  return {
    thinking: "I will write the file with Bash.",
    signature: SIGNATURE,
    toolCalls: [
      { id: "toolu_cc_1", name: "Bash", input: { command: "echo hi > out.txt", description: "Write out.txt" } },
    ],
  };
}

before(async () => {
  anthropic = await new MockAnthropicUpstream().start();
  fx = await startPatchbayFixture({ extraProviders: anthropicProviderConfig(anthropic.baseURL) });
  key = await fx.createKey("claude-code");
  await fx.admin.updateApp({
    params: { name: "claude-code" },
    body: { aliases: { [ALIAS]: "mock/mock-model", [CLAUDE_ALIAS]: "anthro/mock-claude" } },
  });
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pb-claude-"));
});
after(async () => {
  await fx?.stop();
  await anthropic?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** Runs `claude -p prompt` in `cwd` with the Connect snippet's exports and a HOME of its own; killed after
 *  `timeoutMs`. */
function runClaude(
  prompt: string,
  cwd: string,
  extraArgs: string[] = [],
  timeoutMs = 120_000,
  model = ALIAS,
): Promise<CliRun> {
  return runClaudePrint({
    apiRoot: fx.apiBase.replace(/\/v1$/, ""),
    model,
    key,
    home: path.join(tmp, `home-${path.basename(cwd)}`),
    cwd,
    prompt,
    args: extraArgs,
    timeoutMs,
  });
}

test("claude -p: a plain prompt is answered with the mock's text", async () => {
  fx.mock.reset();
  fx.mock.setResponder(respond);
  const cwd = path.join(tmp, "plain");
  fs.mkdirSync(cwd);
  const run = await runClaude("Say hello", cwd);
  assert.equal(run.code, 0, `stdout: ${run.stdout}\nstderr: ${run.stderr}`);
  assert.equal(run.stdout.trim(), PLAIN_ANSWER);
  const main = fx.mock.chatRequests().find((r) => JSON.stringify(r.body.messages).includes("Say hello"));
  assert.ok(main, "the prompt reached the upstream");
  const messages = main.body.messages as Json[];
  const system = messages.filter((m) => m.role === "system").map((m) => String(m.content));
  assert.ok(system.length > 0, "Claude Code's system prompt reached the upstream");
  assert.ok(!system.join("\n").includes("x-anthropic-billing-header"), "CLAUDE_CODE_ATTRIBUTION_HEADER=0 took effect");
  const tools = ((main.body.tools as Json[] | undefined) ?? []).map((t) => (t.function as Json).name);
  assert.ok(tools.includes("Bash"), `tools: ${tools.join(",")}`);
  for (const r of fx.mock.chatRequests()) assert.equal(r.body.model, "mock-model");
});

test("claude -p: agent loop — the mock asks for Bash, Claude Code runs it, the result reaches the mock", async () => {
  fx.mock.reset();
  fx.mock.setResponder(respond);
  const cwd = path.join(tmp, "agent");
  fs.mkdirSync(cwd);
  const run = await runClaude("MAKE_THE_FILE out.txt containing hi", cwd, ["--allowedTools", "Bash"]);
  assert.equal(run.code, 0, `stdout: ${run.stdout}\nstderr: ${run.stderr}`);
  assert.equal(run.stdout.trim(), FINAL_ANSWER);
  assert.equal(fs.readFileSync(path.join(cwd, "out.txt"), "utf8").trim(), "hi", "Claude Code ran the Bash call");
  const followUp = fx.mock.chatRequests().find((r) => (r.body.messages as Json[]).at(-1)?.role === "tool");
  assert.ok(followUp, "the tool result reached the upstream");
  const messages = followUp.body.messages as Json[];
  const tool = messages.at(-1);
  assert.equal(tool?.tool_call_id, "call_bash_1");
  assert.equal(typeof tool?.content, "string");
  const assistant = messages.findLast((m) => m.role === "assistant");
  const call = (assistant?.tool_calls as Json[] | undefined)?.[0];
  assert.equal((call?.function as Json | undefined)?.name, "Bash");
  assert.deepEqual(JSON.parse(String((call?.function as Json).arguments)), {
    command: "echo hi > out.txt",
    description: "Write out.txt",
  });
});

test("claude -p against an Anthropic upstream: signed thinking goes back unchanged in the agent loop", async () => {
  anthropic.reset();
  anthropic.setResponder(respondAnthropic);
  const cwd = path.join(tmp, "thinking");
  fs.mkdirSync(cwd);
  const run = await runClaude("Write out.txt containing hi", cwd, ["--allowedTools", "Bash"], 120_000, CLAUDE_ALIAS);
  assert.equal(run.code, 0, `stdout: ${run.stdout}\nstderr: ${run.stderr}`);
  assert.equal(run.stdout.trim(), FINAL_ANSWER);
  assert.equal(fs.readFileSync(path.join(cwd, "out.txt"), "utf8").trim(), "hi");
  const followUp = anthropic.messageRequests().find((r) => JSON.stringify(r.body.messages).includes('"tool_result"'));
  assert.ok(followUp, "the tool result reached the Anthropic upstream");
  const assistant = (followUp.body.messages as Json[]).findLast((m) => m.role === "assistant");
  const blocks = (assistant?.content as Json[] | undefined) ?? [];
  assert.deepEqual(blocks[0], { type: "thinking", thinking: "I will write the file with Bash.", signature: SIGNATURE });
  assert.deepEqual(
    blocks.filter((b) => b.type === "tool_use").map((b) => [b.id, b.name]),
    [["toolu_cc_1", "Bash"]],
  );
});
