// Records real OpenCode event streams (one per scenario) into tests/fixtures/opencode-events/<name>.jsonl for the
// event-mapper golden tests. Run once after an OpenCode upgrade or a deliberate change:
//   node --import tsx tests/harness/record-opencode-events.ts [scenario…]
// then `UPDATE_GOLDEN=1 node --import tsx --test tests/unit/opencode/session/event-mapper.test.ts` and review the diff.
// Line 1 of a fixture is `{"meta":{…}}` (what the mapper is initialised with); each further line is
// `{"receivedAt":<epoch ms>,"event":{type,properties}}`. Temp paths are replaced by `<dataDir>`.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { NeutralRequest } from "../../server/core/contract";
import { sessionIdOf, type OpenCodeEvent } from "../../server/opencode/session/event-hub";
import { planBridgeRequest } from "../../server/opencode/session/plan/bridge-plan";
import { promptToolsMap } from "../../server/opencode/session/plan/tools";
import { modelInfo } from "./builders";
import type { MockReply } from "./mock-upstream";
import { neutralRequest, startBridgeStack, tool, type BridgeStack } from "./opencode-stack";

const OUT = fileURLToPath(new URL("../fixtures/opencode-events/", import.meta.url));
const weather = tool("get_weather", { city: { type: "string" } }, "Get the weather");
const time = tool("get_time", { tz: { type: "string" } }, "Get the time");
const edit = tool("edit", { path: { type: "string" } }, "Edit a file");
const OPENAI_COMPATIBLE = "@ai-sdk/openai-compatible";

interface Scenario {
  request: Partial<NeutralRequest>;
  reply: MockReply;
  modelID?: string;
  /** Pretend another AI SDK package (e.g. to plan native structured output); the mock still answers. */
  npm?: string;
}

/** The recorded scenarios (each also documents an OpenCode behaviour the mapper relies on). */
export const SCENARIOS: Record<string, Scenario> = {
  "text-stream": {
    request: { system: ["Be brief."] },
    reply: { text: "Hello there, how can I help?", chunks: 4, paceMs: 20 },
  },
  "reasoning-usage": {
    request: {},
    modelID: "mock-reasoner",
    reply: {
      reasoning: "Let me think.",
      text: "42",
      usage: { prompt_tokens: 1000, completion_tokens: 50, cached_tokens: 400, reasoning_tokens: 20 },
    },
  },
  "tool-calls-parallel": {
    request: { tools: [weather, time] },
    reply: {
      text: "Checking both.",
      toolCalls: [
        { id: "call_1", name: "get_weather", arguments: { city: "Paris" } },
        { id: "call_2", name: "get_time", arguments: { tz: "CET" } },
      ],
    },
  },
  "tool-call-empty-args": {
    request: { tools: [time] },
    reply: { toolCalls: [{ id: "call_e", name: "get_time", arguments: "" }] },
  },
  "tool-call-malformed-args": {
    request: { tools: [weather] },
    reply: { toolCalls: [{ id: "call_m", name: "get_weather", arguments: "{city: Paris" }] },
  },
  "tool-call-unknown-tool": {
    request: { tools: [weather] },
    reply: { toolCalls: [{ id: "call_u", name: "launch_rocket", arguments: {} }] },
  },
  "tool-call-renamed": {
    request: { tools: [edit] },
    reply: { toolCalls: [{ id: "call_r", name: "client_edit", arguments: { path: "a.txt" } }] },
  },
  "finish-length": { request: {}, reply: { text: "Truncat", finishReason: "length" } },
  "structured-native": {
    request: {
      responseFormat: {
        type: "json_schema",
        name: "answer",
        schema: { type: "object", properties: { a: { type: "number" } }, required: ["a"] },
      },
    },
    npm: "@ai-sdk/anthropic",
    reply: { toolCalls: [{ id: "call_s", name: "StructuredOutput", arguments: { a: 1 } }] },
  },
  "error-401": {
    request: {},
    reply: { error: { status: 401, message: "Incorrect API key provided: sk-live-abcdef0123456789" } },
  },
  "error-400": { request: {}, reply: { error: { status: 400, message: "Unsupported value: 'temperature'" } } },
  "error-429-retry": {
    request: {},
    reply: { error: { status: 429, message: "Rate limit reached for requests", headers: { "retry-after": "7" } } },
  },
  "error-500-retry": { request: {}, reply: { error: { status: 500, message: "Internal server error" } } },
  // A 429 whose message does not say "rate limit": the retry status carries only "slow down" (no HTTP status).
  "error-429-slow-down": {
    request: {},
    reply: { error: { status: 429, body: { error: { message: "slow down" } }, headers: { "retry-after": "7" } } },
  },
  // Streams that end without a finish_reason: OpenCode reports finish "unknown" and no usage.
  "stream-cut-off": { request: {}, reply: { text: "hello", chunks: 1, endWithoutFinish: true } },
  "stream-not-sse": { request: {}, reply: { rawBody: "this is not sse" } },
  "stream-empty": { request: {}, reply: { rawBody: "" } },
  // A complete answer whose finish_reason OpenCode does not know: also "unknown", but with the final usage report.
  "finish-nonstandard": { request: {}, reply: { text: "Done.", rawFinishReason: "end_turn" } },
};

async function record(stack: BridgeStack, name: string, s: Scenario, builtins: string[]): Promise<void> {
  stack.mock.reset();
  stack.mock.script(s.reply);
  const modelID = s.modelID ?? "mock-model";
  const request = neutralRequest(s.request);
  const model = modelInfo({ providerID: "mock", modelID, npm: s.npm ?? OPENAI_COMPATIBLE });
  const plan = planBridgeRequest(
    { app: "record", model, request },
    {
      now: Date.now(),
      idPrefix: "rec",
    },
  );
  const directory = path.join(stack.dataDir, "apps", "record", plan.toolsetHash);
  fs.mkdirSync(path.join(directory, ".patchbay"), { recursive: true });
  fs.writeFileSync(path.join(directory, ".patchbay", "toolset.json"), JSON.stringify({ tools: plan.toolset }));
  const client = stack.supervisor.client(directory);
  const session = (
    await client.session.create({ title: "patchbay: record", permission: plan.permission }, { throwOnError: true })
  ).data;
  stack.sideChannel.register(session.id, plan.spec);
  const lines: string[] = [
    JSON.stringify({
      meta: {
        scenario: name,
        sessionID: session.id,
        toolNames: Object.fromEntries(plan.toolNames),
        structured: plan.structured,
      },
    }),
  ];
  let idle!: () => void;
  const ended = new Promise<void>((r) => (idle = r));
  let retries = 0;
  const off = stack.backend.tapEvents((event: OpenCodeEvent) => {
    if (sessionIdOf(event) !== session.id) return;
    lines.push(JSON.stringify({ receivedAt: Date.now(), event }));
    if (event.type === "session.idle") setTimeout(idle, 150); // late session.error after idle is part of the story
    const st = event.properties.status as { type?: string } | undefined;
    if (event.type === "session.status" && st?.type === "retry" && ++retries === 1) idle();
  });
  await client.session.promptAsync(
    {
      sessionID: session.id,
      agent: "bridge",
      model: { providerID: "mock", modelID },
      parts: [{ type: "text", text: plan.triggerText }],
      tools: promptToolsMap(plan, builtins),
      ...(plan.format ? { format: plan.format } : {}),
      ...(plan.variant ? { variant: plan.variant } : {}),
    },
    { throwOnError: true },
  );
  await Promise.race([ended, new Promise((r) => setTimeout(r, 15_000))]);
  off();
  await client.session.abort({ sessionID: session.id }).catch(() => {});
  stack.sideChannel.unregister(session.id);
  const text = lines.join("\n").split(stack.dataDir).join("<dataDir>") + "\n";
  fs.writeFileSync(path.join(OUT, `${name}.jsonl`), text);
  process.stdout.write(
    `recorded ${name}: ${lines.length - 1} events, ${stack.mock.chatRequests().length} upstream call(s)\n`,
  );
}

async function main(): Promise<void> {
  fs.mkdirSync(OUT, { recursive: true });
  const wanted = process.argv.slice(2);
  const stack = await startBridgeStack();
  try {
    const builtins = (
      await stack.supervisor.client(stack.supervisor.defaultDirectory()!).tool.ids({}, { throwOnError: true })
    ).data;
    for (const [name, s] of Object.entries(SCENARIOS)) {
      if (wanted.length && !wanted.includes(name)) continue;
      await record(stack, name, s, builtins);
    }
  } finally {
    await stack.stop();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await main();
