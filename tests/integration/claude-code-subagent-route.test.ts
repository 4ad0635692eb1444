// Routes by request role with the real Claude Code (issue 24 item 1): `patchbay launch claude` turns the hint headers
// on (CLAUDE_CODE_GATEWAY_HINT_HEADERS=1); the main agent calls the Agent tool synchronously, the subagent's requests
// (`x-claude-code-request-class: subagent`) reach the model the app routes that role to, the main agent's requests
// the main model. Real `claude` (pinned @anthropic-ai/claude-code), real Patchbay + OpenCode, scripted mock upstream,
// temp HOME, loopback only.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startPatchbayFixture, type PatchbayFixture } from "../harness/patchbay-fixture";
import type { MockReply, RecordedRequest } from "../harness/mock-upstream";

type Json = Record<string, unknown>;

const ROOT = path.resolve(import.meta.dirname, "../..");
const BIN = path.join(ROOT, "bin", "patchbay.mjs");
const NODE_BIN = path.join(ROOT, "node_modules", ".bin");
const APP = "cc-roles";
const MAIN_MODEL = "mock/mock-model";
const SUBAGENT_MODEL = "mock/mock-reasoner";
const MAIN_PROMPT = "DELEGATE_THE_COUNTING please";
const SUB_TASK = "SUBAGENT_TASK_91: count the files and answer";
const SUB_ANSWER = "SUBAGENT_ANSWER_91";
const MAIN_DONE = "MAIN_AGENT_DONE_91";

let fx: PatchbayFixture;
let tmp: string;
let home: string;

/** The user-role text of a request (Claude Code's prompt and reminders), as one string. */
function userText(rec: RecordedRequest): string {
  return JSON.stringify(((rec.body.messages as Json[] | undefined) ?? []).filter((m) => m.role === "user"));
}

/** The main agent asks for a synchronous Agent call; the subagent answers its task; after the Agent's result the
 *  main agent finishes. Anything else (background asks) gets plain text. */
function respond(rec: RecordedRequest): MockReply {
  const messages = (rec.body.messages as Json[] | undefined) ?? [];
  if (messages.at(-1)?.role === "tool") return { text: MAIN_DONE };
  const said = userText(rec);
  if (said.includes("SUBAGENT_TASK_91")) return { text: SUB_ANSWER };
  if (said.includes("DELEGATE_THE_COUNTING"))
    return {
      toolCalls: [
        {
          id: "call_agent_1",
          name: "Agent",
          arguments: {
            description: "Count the files",
            prompt: SUB_TASK,
            subagent_type: "general-purpose",
            run_in_background: false,
          },
        },
      ],
    };
  return { text: "OK" };
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `patchbay launch claude …` with a temp HOME; killed after `timeoutMs`. */
function launch(args: string[], timeoutMs = 240_000): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(env))
    if (/^(PATCHBAY_|OPENCODE_|ANTHROPIC_|CLAUDE_|CODEX_|DISABLE_)/.test(k) || k === "OPENAI_API_KEY") delete env[k];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "--data-dir", fx.dataDir, "launch", "claude", ...args], {
      cwd: tmp,
      env: {
        ...env,
        HOME: home,
        XDG_CONFIG_HOME: path.join(home, ".config"),
        XDG_CACHE_HOME: path.join(home, ".cache"),
        PATH: `${NODE_BIN}${path.delimiter}${process.env.PATH ?? ""}`,
        NO_PROXY: "127.0.0.1,localhost",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`claude timed out after ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pb-claude-roles-"));
  home = path.join(tmp, "home");
  fs.mkdirSync(home);
  fx = await startPatchbayFixture({ clientEnv: { HOME: home } });
  await fx.createKey(APP);
  await fx.admin.updateApp({ params: { name: APP }, body: { routes: { subagent: SUBAGENT_MODEL } } });
});
after(async () => {
  await fx?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

test("launch claude: a synchronous Agent call's requests reach the subagent route, the main agent's the main model", async () => {
  fx.mock.reset();
  fx.mock.setResponder(respond);
  const since = Date.now();
  const run = await launch(["--app", APP, "--model", MAIN_MODEL, "--", "-p", MAIN_PROMPT, "--allowedTools", "Agent"]);
  assert.equal(run.code, 0, `stdout: ${run.stdout}\nstderr: ${run.stderr}`);
  assert.equal(run.stdout.trim(), MAIN_DONE);

  const requests = fx.mock.chatRequests();
  const sub = requests.filter((r) => userText(r).includes("SUBAGENT_TASK_91"));
  const main = requests.filter((r) => userText(r).includes("DELEGATE_THE_COUNTING"));
  assert.ok(sub.length >= 1, "the subagent asked the upstream");
  assert.ok(main.length >= 2, "the main agent asked twice (the Agent call, then after its result)");
  assert.deepEqual([...new Set(sub.map((r) => r.body.model))], ["mock-reasoner"], "subagent → its route");
  assert.deepEqual([...new Set(main.map((r) => r.body.model))], ["mock-model"], "main agent → the main model");
  // The subagent's answer went back to the main agent as the Agent tool's result.
  const followUp = main.find((r) => (r.body.messages as Json[]).at(-1)?.role === "tool");
  assert.ok(followUp, "the Agent tool's result reached the main agent");
  assert.match(JSON.stringify((followUp.body.messages as Json[]).at(-1)), /SUBAGENT_ANSWER_91/);

  // The log names each request's role, the agent type and where the role was routed.
  const entries = (await fx.admin.queryLogs({ query: { app: APP, since, limit: 200 } })).entries;
  const subagent = entries.filter((e) => e.role === "subagent");
  assert.ok(subagent.length >= 1, JSON.stringify(entries.map((e) => [e.role, e.modelResolved])));
  for (const e of subagent) {
    assert.equal(e.routedTo, SUBAGENT_MODEL);
    assert.equal(e.modelResolved, SUBAGENT_MODEL);
    assert.equal(e.agentType, "general-purpose");
  }
  const mainEntries = entries.filter((e) => e.role === "main");
  assert.ok(mainEntries.length >= 2, JSON.stringify(entries.map((e) => [e.role, e.modelResolved])));
  for (const e of mainEntries) {
    assert.equal(e.routedTo, undefined, "no route for main");
    assert.equal(e.modelResolved, MAIN_MODEL);
  }
});
