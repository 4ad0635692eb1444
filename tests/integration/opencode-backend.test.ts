// The OpenCode backend for real: one `opencode serve` for this file (companion plugin, side channel) and a scripted
// mock upstream. Asserts what the backend yields AND what the upstream model received, field by field.
import { test, describe, before, after, beforeEach } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { NeutralMessage } from "../../server/core/contract";
import {
  backendRequest,
  neutralRequest,
  runStream,
  startBridgeStack,
  tool,
  type BridgeStack,
} from "../harness/opencode-stack";
import { waitFor } from "../harness/wait-for";

const STREAM_OPTIONS = { stream: true, stream_options: { include_usage: true } };
const weather = tool(
  "get_weather",
  { city: { type: "string", description: "City name" } },
  "Get the weather for a city",
);
const time = tool("get_time", { tz: { type: "string" } }, "Get the time in a zone");
const fnTool = (t: { name: string; description?: string; parameters: Record<string, unknown> }) => ({
  type: "function",
  function: { name: t.name, description: t.description, parameters: t.parameters },
});

let stack: BridgeStack;

describe("OpenCode backend (real opencode serve + mock upstream)", () => {
  before(async () => {
    stack = await startBridgeStack();
  });
  after(async () => {
    await stack?.stop();
  });
  beforeEach(() => stack.mock.reset());

  test("plain text: the upstream sees exactly the client's system and message, nothing else", async () => {
    stack.mock.script({ text: "Hello from the mock" });
    const r = await runStream(stack.backend, backendRequest(neutralRequest({ system: ["You are terse."] })));
    assert.equal(r.error, null);
    assert.equal(r.events[0]?.type, "start");
    assert.match(r.sessionId ?? "", /^ses_/);
    assert.equal(r.text, "Hello from the mock");
    assert.equal(r.finish?.reason, "stop");
    const [up, ...more] = stack.mock.chatRequests();
    assert.equal(more.length, 0, "exactly one upstream call");
    // Field by field: absent generation params are absent upstream (OpenCode's per-model defaults cleared).
    assert.deepEqual(up?.body, {
      model: "mock-model",
      messages: [
        { role: "system", content: "You are terse." },
        { role: "user", content: "Hello" },
      ],
      ...STREAM_OPTIONS,
    });
  });

  test("streaming: deltas arrive while the upstream is still streaming", async () => {
    // The upstream sends every content chunk, then holds its stream open: all text reaching the client before the
    // release proves it was streamed through, not collected at the end (no wall-clock budget, so a loaded machine
    // makes this slower, never red).
    stack.mock.script({ text: "one two three four five six", chunks: 6, paceMs: 30, hold: true });
    let textBeforeRelease = "";
    const run = runStream(stack.backend, backendRequest(neutralRequest()), {
      onEvent: (e) => {
        if (e.type === "text-delta" && stack.mock.chatRequests()[0]?.finishedAt === null) textBeforeRelease += e.delta;
      },
    });
    await waitFor(
      "every delta while the upstream holds its stream",
      () => textBeforeRelease === "one two three four five six" && stack.mock.heldCount === 1,
    );
    stack.mock.release();
    const r = await run;
    assert.equal(r.error, null);
    assert.ok(r.events.filter((e) => e.type === "text-delta").length >= 3, "several deltas, not one");
    assert.equal(r.text, "one two three four five six");
    assert.equal(r.finish?.reason, "stop");
  });

  test("system and developer texts stay separate system messages, in order", async () => {
    const r = await runStream(stack.backend, backendRequest(neutralRequest({ system: ["System A.", "Developer B."] })));
    assert.equal(r.error, null);
    assert.deepEqual(stack.mock.chatRequests()[0]?.body.messages, [
      { role: "system", content: "System A." },
      { role: "system", content: "Developer B." },
      { role: "user", content: "Hello" },
    ]);
  });

  test("multi-turn with tool call → result → answer: history reaches the upstream as the client sent it", async () => {
    stack.mock.script({ text: "It is 21°C in Paris and 12°C in Berlin." });
    const messages: NeutralMessage[] = [
      { role: "user", content: [{ type: "text", text: "Weather in Paris?" }] },
      {
        role: "assistant",
        content: [],
        toolCalls: [{ id: "call_abc123", name: "get_weather", arguments: '{"city":"Paris"}' }],
      },
      { role: "tool", toolCallId: "call_abc123", content: '{"temp":21}' },
      { role: "assistant", content: [{ type: "text", text: "It is 21°C in Paris." }], toolCalls: [] },
      { role: "user", content: [{ type: "text", text: "And Berlin?" }] },
    ];
    const r = await runStream(
      stack.backend,
      backendRequest(neutralRequest({ system: ["You are WeatherBot."], messages, tools: [weather] })),
    );
    assert.equal(r.error, null);
    assert.equal(r.text, "It is 21°C in Paris and 12°C in Berlin.");
    assert.deepEqual(stack.mock.chatRequests()[0]?.body, {
      model: "mock-model",
      messages: [
        { role: "system", content: "You are WeatherBot." },
        { role: "user", content: "Weather in Paris?" },
        {
          role: "assistant",
          content: "",
          tool_calls: [
            { id: "call_abc123", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_abc123", content: '{"temp":21}' },
        { role: "assistant", content: "It is 21°C in Paris." },
        { role: "user", content: "And Berlin?" },
      ],
      tools: [fnTool(weather)],
      tool_choice: "auto",
      ...STREAM_OPTIONS,
    });
  });

  test("3 parallel tool calls come back unexecuted, with exactly one upstream call (a client `bash` writes no file)", async () => {
    const marker = path.join(os.tmpdir(), `pb-pwned-${process.pid}-${Date.now()}.txt`);
    const bash = tool("bash", { command: { type: "string" } }, "Run a shell command");
    stack.mock.script({
      text: "Let me check.",
      toolCalls: [
        { id: "call_1", name: "get_weather", arguments: { city: "Paris" } },
        { id: "call_2", name: "get_time", arguments: { tz: "Europe/Paris" } },
        { id: "call_3", name: "bash", arguments: { command: `touch ${marker}` } },
      ],
    });
    const r = await runStream(stack.backend, backendRequest(neutralRequest({ tools: [weather, time, bash] })));
    assert.equal(r.error, null);
    assert.equal(r.text, "Let me check.");
    assert.deepEqual(
      [...r.toolCalls].sort((a, b) => a.id.localeCompare(b.id)),
      [
        { id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' },
        { id: "call_2", name: "get_time", arguments: '{"tz":"Europe/Paris"}' },
        { id: "call_3", name: "bash", arguments: JSON.stringify({ command: `touch ${marker}` }) },
      ],
    );
    assert.equal(r.finish?.reason, "tool_calls");
    await new Promise((res) => setTimeout(res, 500)); // give a (wrong) second step or execution time to show up
    assert.equal(stack.mock.chatRequests().length, 1, "exactly one upstream call");
    assert.equal(fs.existsSync(marker), false, "the client tool must never be executed");
    const body = stack.mock.chatRequests()[0]!.body;
    assert.deepEqual(body.tools, [fnTool(bash), fnTool(time), fnTool(weather)]);
  });

  test("tool schemas reach the upstream exactly, not OpenCode's reconstruction of them", async () => {
    const search = {
      name: "search",
      description: "Search the catalogue",
      parameters: {
        type: "object",
        properties: {
          query: { type: "string", minLength: 1 },
          limit: { type: "integer", default: 10 },
          filters: { type: "object", additionalProperties: { type: "string" } },
        },
        required: ["query"],
        additionalProperties: false,
      },
    };
    const noDescription = { name: "ping", parameters: { type: "object", properties: {} } };
    const r = await runStream(stack.backend, backendRequest(neutralRequest({ tools: [search, noDescription] })));
    assert.equal(r.error, null);
    assert.deepEqual(stack.mock.chatRequests()[0]?.body.tools, [
      { type: "function", function: { name: "ping", description: "", parameters: noDescription.parameters } },
      fnTool(search),
    ]);
  });

  test('a tool call with empty arguments comes back as "{}"', async () => {
    stack.mock.script({ toolCalls: [{ id: "call_e", name: "get_time", arguments: "" }] });
    const r = await runStream(stack.backend, backendRequest(neutralRequest({ tools: [time] })));
    assert.deepEqual(r.toolCalls, [{ id: "call_e", name: "get_time", arguments: "{}" }]);
    assert.equal(stack.mock.chatRequests().length, 1);
  });

  test("malformed tool arguments come back raw, still one upstream call", async () => {
    stack.mock.script({ toolCalls: [{ id: "call_m", name: "get_weather", arguments: "{city: Paris" }] });
    const r = await runStream(stack.backend, backendRequest(neutralRequest({ tools: [weather] })));
    assert.equal(r.error, null);
    assert.deepEqual(r.toolCalls, [{ id: "call_m", name: "get_weather", arguments: "{city: Paris" }]);
    assert.equal(r.finish?.reason, "tool_calls");
    await new Promise((res) => setTimeout(res, 300));
    assert.equal(stack.mock.chatRequests().length, 1);
  });

  test("clashing names (edit) are renamed for OpenCode and restored for the client", async () => {
    const edit = tool("edit", { path: { type: "string" } }, "Edit a file");
    stack.mock.script({ toolCalls: [{ id: "call_x", name: "client_edit", arguments: { path: "a.txt" } }] });
    const r = await runStream(stack.backend, backendRequest(neutralRequest({ tools: [edit] })));
    assert.deepEqual(r.toolCalls, [{ id: "call_x", name: "edit", arguments: '{"path":"a.txt"}' }]);
    const body = stack.mock.chatRequests()[0]!.body;
    assert.deepEqual(body.tools, [fnTool({ ...edit, name: "client_edit" })]);
  });

  test("tool_choice required is exact; named and none are approximated with a warning", async () => {
    stack.mock.script({ toolCalls: [{ name: "get_time", arguments: { tz: "UTC" } }] });
    const req = await runStream(
      stack.backend,
      backendRequest(neutralRequest({ tools: [weather, time], toolChoice: "required" })),
    );
    assert.deepEqual(req.warnings, []);
    let body = stack.mock.chatRequests()[0]!.body;
    assert.equal(body.tool_choice, "required");
    assert.deepEqual(body.tools, [fnTool(time), fnTool(weather)]);

    stack.mock.reset();
    stack.mock.script({ toolCalls: [{ name: "get_time", arguments: { tz: "UTC" } }] });
    const named = await runStream(
      stack.backend,
      backendRequest(neutralRequest({ tools: [weather, time], toolChoice: { type: "function", name: "get_time" } })),
    );
    assert.match(named.warnings.join(" "), /approximated/);
    body = stack.mock.chatRequests()[0]!.body;
    assert.equal(body.tool_choice, "required");
    assert.deepEqual(body.tools, [fnTool(time)]);

    stack.mock.reset();
    const none = await runStream(
      stack.backend,
      backendRequest(neutralRequest({ tools: [weather, time], toolChoice: "none" })),
    );
    assert.match(none.warnings.join(" "), /approximated/);
    body = stack.mock.chatRequests()[0]!.body;
    assert.equal("tools" in body, false);
    assert.equal("tool_choice" in body, false);
  });

  test("response_format json_schema passes through unchanged (OpenAI-compatible provider)", async () => {
    const schema = {
      type: "object",
      properties: { city: { type: "string" }, temp_c: { type: "number" } },
      required: ["city", "temp_c"],
      additionalProperties: false,
    };
    stack.mock.script({ text: '{"city":"Paris","temp_c":21}' });
    const r = await runStream(
      stack.backend,
      backendRequest(
        neutralRequest({ responseFormat: { type: "json_schema", name: "weather_report", schema, strict: true } }),
      ),
    );
    assert.equal(r.text, '{"city":"Paris","temp_c":21}');
    assert.deepEqual(stack.mock.chatRequests()[0]?.body, {
      model: "mock-model",
      response_format: { type: "json_schema", json_schema: { name: "weather_report", schema, strict: true } },
      messages: [{ role: "user", content: "Hello" }],
      ...STREAM_OPTIONS,
    });
  });

  test("an image data URL arrives byte-identical", async () => {
    const png = fs.readFileSync(new URL("../fixtures/red16.b64", import.meta.url), "utf8").trim();
    const url = png.startsWith("data:") ? png : `data:image/png;base64,${png}`;
    const r = await runStream(
      stack.backend,
      backendRequest(
        neutralRequest({
          messages: [
            {
              role: "user",
              content: [
                { type: "text", text: "What color?" },
                { type: "media", mediaType: "image/png", url },
              ],
            },
          ],
        }),
        "mock-vision",
      ),
    );
    assert.equal(r.error, null);
    assert.deepEqual(stack.mock.chatRequests()[0]?.body.messages, [
      {
        role: "user",
        content: [
          { type: "text", text: "What color?" },
          { type: "image_url", image_url: { url } },
        ],
      },
    ]);
  });

  test("generation parameters arrive verbatim", async () => {
    const r = await runStream(
      stack.backend,
      backendRequest(
        neutralRequest({
          tools: [weather],
          generation: {
            temperature: 0.2,
            topP: 0.9,
            maxOutputTokens: 123,
            stop: ["END"],
            seed: 42,
            presencePenalty: 0.5,
            frequencyPenalty: 0.1,
            parallelToolCalls: false,
          },
        }),
      ),
    );
    assert.equal(r.error, null);
    assert.deepEqual(r.warnings, []);
    assert.deepEqual(stack.mock.chatRequests()[0]?.body, {
      model: "mock-model",
      max_tokens: 123,
      temperature: 0.2,
      top_p: 0.9,
      stop: ["END"],
      seed: 42,
      presence_penalty: 0.5,
      frequency_penalty: 0.1,
      parallel_tool_calls: false,
      messages: [{ role: "user", content: "Hello" }],
      tools: [fnTool(weather)],
      tool_choice: "auto",
      ...STREAM_OPTIONS,
    });
  });

  test("reasoning_effort selects the model variant; reasoning deltas and recombined usage come back", async () => {
    stack.mock.script({
      reasoning: "Thinking hard",
      text: "42",
      usage: { prompt_tokens: 1000, completion_tokens: 50, cached_tokens: 400, reasoning_tokens: 20 },
    });
    const r = await runStream(
      stack.backend,
      backendRequest(neutralRequest({ generation: { reasoningEffort: "high" } }), "mock-reasoner"),
    );
    assert.equal(r.error, null);
    assert.equal(r.reasoning, "Thinking hard");
    assert.equal(r.text, "42");
    assert.deepEqual(r.finish, {
      reason: "stop",
      usage: { inputTokens: 1000, outputTokens: 50, cachedInputTokens: 400, reasoningTokens: 20 },
    });
    assert.equal(stack.mock.chatRequests()[0]?.body.reasoning_effort, "high");
  });

  test("finish_reason length is reported", async () => {
    stack.mock.script({ text: "Trunc", finishReason: "length" });
    const r = await runStream(stack.backend, backendRequest(neutralRequest({ generation: { maxOutputTokens: 2 } })));
    assert.equal(r.finish?.reason, "length");
  });

  test("upstream 429 surfaces promptly as 429 with Retry-After (no hidden retries)", async () => {
    stack.mock.script({
      error: { status: 429, message: "Rate limit reached for requests", headers: { "retry-after": "7" } },
    });
    const r = await runStream(stack.backend, backendRequest(neutralRequest()));
    assert.equal(r.error?.status, 429);
    assert.equal(r.error?.code, "upstream_rate_limited");
    assert.ok(
      r.error?.retryAfter !== undefined && r.error.retryAfter >= 5 && r.error.retryAfter <= 8,
      `retryAfter ${r.error?.retryAfter}`,
    );
    // "Promptly" by the order of events: OpenCode would retry after Retry-After; the error came before any retry,
    // and the session was aborted so none follows.
    assert.equal(stack.mock.chatRequests().length, 1, "the error came after a hidden retry");
    await new Promise((res) => setTimeout(res, 300));
    assert.equal(stack.mock.chatRequests().length, 1, "the session was aborted instead of retried");
  });

  test("upstream 401 becomes 502 upstream_auth_error without leaking the key", async () => {
    stack.mock.script({
      error: {
        status: 401,
        message: "Incorrect API key provided: sk-mock-key-000000000000. You can find your key at …",
      },
    });
    const r = await runStream(stack.backend, backendRequest(neutralRequest()));
    assert.equal(r.error?.status, 502);
    assert.equal(r.error?.code, "upstream_auth_error");
    assert.doesNotMatch(r.error?.message ?? "", /sk-mock-key/);
    assert.equal(stack.mock.chatRequests().length, 1, "one upstream call, no retry");
  });

  test("upstream 400 becomes 400 upstream_bad_request with the upstream's message", async () => {
    stack.mock.script({ error: { status: 400, message: "Unsupported value: temperature" } });
    const r = await runStream(stack.backend, backendRequest(neutralRequest()));
    assert.equal(r.error?.status, 400);
    assert.equal(r.error?.code, "upstream_bad_request");
    assert.match(r.error?.message ?? "", /Unsupported value: temperature/);
  });

  test("upstream 500 surfaces promptly as 502", async () => {
    stack.mock.script({ error: { status: 500, message: "boom" } });
    const r = await runStream(stack.backend, backendRequest(neutralRequest()));
    assert.equal(r.error?.status, 502);
    assert.equal(r.error?.code, "upstream_error");
    assert.match(r.error?.message ?? "", /boom/);
    // Before OpenCode's 2–30 s backoff would have sent a second call (order of events, not a stopwatch).
    assert.equal(stack.mock.chatRequests().length, 1, "the error came after a hidden retry");
    await new Promise((res) => setTimeout(res, 300));
    assert.equal(stack.mock.chatRequests().length, 1);
  });

  test("abort interrupts the upstream", async () => {
    stack.mock.script({ text: "partial answer", chunks: 2, hold: true });
    const controller = new AbortController();
    let abortedAt = 0;
    const r = await runStream(stack.backend, backendRequest(neutralRequest()), {
      controller,
      onEvent: (e) => {
        if (e.type === "text-delta" && !abortedAt) {
          abortedAt = Date.now();
          controller.abort();
        }
      },
    });
    assert.ok(abortedAt > 0, "saw output before aborting");
    assert.equal(r.finish, null);
    const up = stack.mock.chatRequests()[0]!;
    // The mock holds its stream for good: only the abort can close it (a bounded wait, no stopwatch).
    await waitFor("the upstream connection to close", () => up.closedEarlyAt !== null, 15_000);
    assert.ok(up.closedEarlyAt! >= abortedAt, "the upstream closed before the abort");
    stack.mock.release();
  });

  test("an abort around the prompt call (0-60 ms after start) leaves no upstream call running", async () => {
    // The client goes away right after `start`, while the prompt may still be on its way to OpenCode: an abort that
    // OpenCode serves before the prompt is a no-op, so the bridge must still keep the upstream from being called
    // (the plugin fails closed once the spec is gone) or stop the call it made.
    // Aborts from 0 to 60 ms after `start` land before, during and after OpenCode's prompt call (with 2 cores idle
    // its upstream call starts 35-50 ms after `start`); none may leave an upstream call open.
    for (const delayMs of [0, 10, 20, 30, 40, 60]) {
      stack.mock.reset();
      stack.mock.script({ text: "nobody is listening", hold: true });
      const controller = new AbortController();
      const r = await runStream(stack.backend, backendRequest(neutralRequest()), {
        controller,
        onEvent: (e) => {
          if (e.type === "start") setTimeout(() => controller.abort(), delayMs);
        },
      });
      assert.ok(r.sessionId, "the stream started");
      assert.equal(r.finish, null);
      await new Promise((res) => setTimeout(res, 1500));
      const open = stack.mock.chatRequests().filter((q) => q.closedEarlyAt === null);
      stack.mock.release();
      assert.deepEqual(
        open.map((q) => q.n),
        [],
        `abort ${delayMs} ms after start: ${stack.mock.chatRequests().length} upstream call(s), still open after 1.5 s`,
      );
    }
  });

  test("a client leaving while a new instance sets up its first prompt leaves that instance working", async () => {
    // A tool set never seen gets a new instance; OpenCode sets the instance up inside its first prompt, and an abort
    // during that set-up used to break the instance for good (every later prompt died: "All fibers interrupted").
    // The client leaves at two points of the set-up: when the prompt's loop starts (status busy) and when its
    // assistant message appears (before the model is called).
    for (const [i, leaveOn] of (["busy", "assistant"] as const).entries()) {
      const tools = [tool(`cold_probe_${i}_${Date.now()}`, { q: { type: "string" } })];
      stack.mock.reset();
      stack.mock.setResponder(() => ({ text: "nobody is listening", hold: true }));
      const controller = new AbortController();
      let sessionId: string | null = null;
      let left = false;
      const off = stack.backend.tapEvents((e) => {
        if (left || !sessionId || e.properties.sessionID !== sessionId) return;
        const status = (e.properties.status as { type?: string } | undefined)?.type;
        const role = (e.properties.info as { role?: string } | undefined)?.role;
        if (
          leaveOn === "busy"
            ? e.type === "session.status" && status === "busy"
            : e.type === "message.updated" && role === "assistant"
        ) {
          left = true;
          controller.abort();
        }
      });
      const cancelled = await runStream(stack.backend, backendRequest(neutralRequest({ tools })), {
        controller,
        onEvent: (e) => {
          if (e.type === "start") sessionId = e.sessionId;
        },
      });
      off();
      assert.ok(left, `the client left on ${leaveOn}`);
      assert.equal(cancelled.finish, null);
      // The prompt the client left is stopped: no upstream call stays open.
      await waitFor("the left prompt's upstream calls to close", () =>
        stack.mock.chatRequests().every((q) => q.closedEarlyAt !== null || q.finishedAt !== null),
      );
      stack.mock.release();
      stack.mock.reset();
      stack.mock.setResponder(() => ({ text: "the instance still works" }));
      for (let n = 1; n <= 2; n++) {
        const r = await runStream(stack.backend, backendRequest(neutralRequest({ tools })));
        assert.equal(r.error, null, `request ${n} after leaving on ${leaveOn}: ${JSON.stringify(r.error)}`);
        assert.equal(r.text, "the instance still works");
      }
    }
  });

  // 8 concurrent requests across tool sets, each seeing only its own conversation: fidelity-chat.test.ts checks it
  // through the whole HTTP stack (one place, since each new tool set boots an OpenCode instance).

  test("listModels maps the connected providers", async () => {
    const models = await stack.backend.listModels();
    assert.deepEqual(
      models.map((m) => m.id),
      ["mock/mock-model", "mock/mock-reasoner", "mock/mock-vision"],
    );
    const reasoner = models.find((m) => m.id === "mock/mock-reasoner")!;
    assert.deepEqual(reasoner.variants.sort(), ["high", "low", "medium"]);
    assert.equal(reasoner.npm, "@ai-sdk/openai-compatible");
    assert.equal(models.find((m) => m.id === "mock/mock-vision")?.capabilities.attachment, true);
  });

  test("sessions end idle and the side channel forgets every spec", async () => {
    const r = await runStream(stack.backend, backendRequest(neutralRequest()));
    assert.equal(r.error, null);
    assert.equal(stack.sideChannel.size(), 0);
    const status = await stack.supervisor.client(stack.backend.liveInstances().at(-1)).session.status({});
    assert.equal((status.data as Record<string, unknown>)[r.sessionId!], undefined, "no session left busy");
  });

  test("fail closed: a bridge session without request data never reaches the model", async () => {
    const directory = stack.supervisor.defaultDirectory()!;
    const client = stack.supervisor.client(directory);
    const session = (await client.session.create({ title: "patchbay: no spec" }, { throwOnError: true })).data;
    const errors: string[] = [];
    let idle = false;
    const off = stack.backend.tapEvents((e) => {
      if (e.properties.sessionID !== session.id) return;
      if (e.type === "session.error") errors.push(JSON.stringify(e.properties.error));
      if (e.type === "session.idle") idle = true;
    });
    await client.session.promptAsync(
      {
        sessionID: session.id,
        agent: "bridge",
        model: { providerID: "mock", modelID: "mock-model" },
        parts: [{ type: "text", text: "hi" }],
      },
      { throwOnError: true },
    );
    const deadline = Date.now() + 10_000;
    while (!(idle && errors.length) && Date.now() < deadline) await new Promise((res) => setTimeout(res, 50));
    off();
    assert.match(errors.join(" "), /patchbay: no request data/);
    assert.equal(stack.mock.chatRequests().length, 0, "nothing was sent upstream");
  });

  test("sessions Patchbay did not create are left alone by the plugin", async () => {
    const client = stack.supervisor.client(stack.supervisor.defaultDirectory()!);
    const session = (await client.session.create({ title: "someone else" }, { throwOnError: true })).data;
    stack.mock.script({ text: "plain OpenCode" });
    await client.session.promptAsync(
      {
        sessionID: session.id,
        agent: "build",
        model: { providerID: "mock", modelID: "mock-model" },
        parts: [{ type: "text", text: "hi there" }],
        tools: { bash: false, read: false },
      },
      { throwOnError: true },
    );
    const [up] = await stack.mock.waitForRequests(1, 15_000);
    const msgs = up!.body.messages as Array<{ role: string; content: unknown }>;
    assert.equal(msgs[0]?.role, "system");
    assert.ok(String(msgs[0]?.content).length > 200, "OpenCode's own system prompt was kept");
    assert.deepEqual(msgs.at(-1), { role: "user", content: "hi there" });
    await client.session.abort({ sessionID: session.id }).catch(() => {});
  });

  // Their latencies are printed for the log; judging them is the benchmark's job (npm run bench), not a shared pass's.
  test("a new tool set's first request and the warm ones after it are answered alike (times printed)", async (t) => {
    const fresh = tool(`probe_${process.pid}_${Date.now()}`, { q: { type: "string" } });
    const run = () =>
      runStream(stack.backend, backendRequest(neutralRequest({ tools: [fresh] }), "mock-model", "latency-app"));
    const firstDelta = (r: Awaited<ReturnType<typeof run>>) =>
      r.times[r.events.findIndex((e) => e.type === "text-delta")];
    const cold = await run();
    const warm1 = await run();
    const warm2 = await run();
    for (const r of [cold, warm1, warm2]) {
      assert.equal(r.error, null);
      assert.equal(r.finish?.reason, "stop");
      assert.equal(r.text, cold.text);
    }
    assert.ok(cold.text.length > 0);
    t.diagnostic(
      `new tool set: ${cold.durationMs} ms total (first delta ${firstDelta(cold)} ms); warm: ${warm1.durationMs} / ${warm2.durationMs} ms (first delta ${firstDelta(warm1)} / ${firstDelta(warm2)} ms)`,
    );
  });
});
