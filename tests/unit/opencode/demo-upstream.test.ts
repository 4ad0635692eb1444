// The built-in demo upstream: OpenAI-compatible answers (JSON and SSE), tool calls when asked, provider block.
import { test } from "node:test";
import assert from "node:assert/strict";
import { demoProviderConfig, demoReply, startDemoUpstream } from "../../../server/demo/upstream";

test("answers JSON and SSE chat completions on loopback and echoes the user", async () => {
  const demo = await startDemoUpstream();
  try {
    assert.match(demo.url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const post = (body: unknown) =>
      fetch(`${demo.url}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const json = (await (await post({ model: "echo", messages: [{ role: "user", content: "ping 42" }] })).json()) as {
      choices: Array<{ message: { content: string }; finish_reason: string }>;
      usage: { total_tokens: number };
    };
    assert.match(json.choices[0]!.message.content, /demo model.*ping 42/s);
    assert.equal(json.choices[0]!.finish_reason, "stop");
    assert.ok(json.usage.total_tokens > 0);

    const sse = await (
      await post({
        model: "echo",
        stream: true,
        messages: [{ role: "user", content: [{ type: "text", text: "hello" }] }],
      })
    ).text();
    const chunks = sse
      .split("\n\n")
      .filter((l) => l.startsWith("data: "))
      .map((l) => l.slice(6));
    assert.equal(chunks.at(-1), "[DONE]");
    const text = chunks
      .slice(0, -1)
      .map((c) => JSON.parse(c) as { choices: Array<{ delta: { content?: string } }> })
      .map((c) => c.choices[0]?.delta.content ?? "")
      .join("");
    assert.match(text, /hello/);

    type ToolAnswer = {
      choices: Array<{
        message: { tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }> };
        finish_reason: string;
      }>;
    };
    const askTool = async () =>
      (await (
        await post({
          model: "echo",
          messages: [{ role: "user", content: "please use get_time" }],
          tools: [{ type: "function", function: { name: "get_time", parameters: {} } }],
        })
      ).json()) as ToolAnswer;
    const tool = await askTool();
    assert.equal(tool.choices[0]!.finish_reason, "tool_calls");
    assert.equal(tool.choices[0]!.message.tool_calls?.[0]?.function.name, "get_time");
    // Two calls in the same second get different ids (a Responses chain refuses repeated call ids).
    const again = await askTool();
    assert.notEqual(again.choices[0]!.message.tool_calls?.[0]?.id, tool.choices[0]!.message.tool_calls?.[0]?.id);
    assert.equal((await post("nope")).status, 400);
  } finally {
    await demo.stop();
  }
});

test("demoProviderConfig is an openai-compatible provider block with a tool-calling model", () => {
  const block = demoProviderConfig("http://127.0.0.1:1/v1") as {
    npm: string;
    options: { baseURL: string };
    models: Record<string, { tool_call: boolean }>;
  };
  assert.equal(block.npm, "@ai-sdk/openai-compatible");
  assert.equal(block.options.baseURL, "http://127.0.0.1:1/v1");
  assert.equal(block.models.echo?.tool_call, true);
});

test("demoReply calls a tool only when asked by name, with harmless required arguments", () => {
  const bash = {
    type: "function",
    function: {
      name: "Bash",
      parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
    },
  };
  const read = {
    type: "function",
    function: {
      name: "Read",
      parameters: {
        type: "object",
        properties: { file_path: { type: "string" }, limit: { type: "number" } },
        required: ["file_path"],
      },
    },
  };
  const ask = (content: string) =>
    demoReply({ model: "echo", messages: [{ role: "user", content }], tools: [bash, read] });
  // Claude Code's context block names tools ("Read", "already"): not a request to call one.
  const hello = ask("<system-reminder>You can Read files; already read.</system-reminder> hello");
  assert.equal(hello.toolCall, null);
  assert.match(hello.text ?? "", /You said: "hello"/);
  assert.equal(ask("I already said hello").toolCall, null, "a tool name inside a word is not a request");
  assert.deepEqual(ask("please use the Bash tool").toolCall, {
    name: "Bash",
    arguments: JSON.stringify({ command: "echo demo" }),
  });
  assert.deepEqual(ask("use read").toolCall, { name: "Read", arguments: JSON.stringify({ file_path: "README.md" }) });
});

test("the demo model's context window leaves Claude Code room: it is not told to compact every turn (issue 21 §3.7)", () => {
  const block = demoProviderConfig("http://127.0.0.1:1/v1") as {
    models: Record<string, { limit: { context: number } }>;
  };
  const context = block.models.echo?.limit.context ?? 0;
  // Claude Code gets the window as CLAUDE_CODE_MAX_CONTEXT_TOKENS; its system prompt and tools take ~25k tokens and
  // it compacts well before the window is full, so anything near 32k compacts around every turn.
  assert.ok(context >= 200_000, `context window ${context}`);
});

test("demoReply: images in the last message are described (doctor's image check); a typed absolute path is the tool's path", () => {
  const png =
    "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAF0lEQVR4nGP4z8BAEiJN9aiGUQ1DSgMAkPn/Afnh+ngAAAAASUVORK5CYII=";
  const seen = demoReply({
    model: "echo",
    messages: [
      { role: "user", content: "Please use the Read tool on /tmp/x/doctor-check.png" },
      { role: "tool", tool_call_id: "c1", content: "[image: see the next user message]" },
      {
        role: "user",
        content: [
          { type: "text", text: "The image the tool returned:" },
          { type: "image_url", image_url: { url: `data:image/png;base64,${png}` } },
        ],
      },
    ],
  });
  assert.equal(seen.toolCall, null);
  assert.match(seen.text ?? "", /^I see an image: image\/png, 80 bytes\./);
  const two = demoReply({
    model: "echo",
    messages: [
      {
        role: "user",
        content: [
          { type: "image_url", image_url: "https://example.test/a.png" },
          { type: "image_url", image_url: { url: `data:image/jpeg;base64,${png}` } },
        ],
      },
    ],
  });
  assert.match(two.text ?? "", /^I see 2 images: https:\/\/example\.test\/a\.png, image\/jpeg, 80 bytes\./);
  // An image earlier in the conversation is not described again.
  const later = demoReply({
    model: "echo",
    messages: [
      ...(two.text ? [{ role: "user", content: [{ type: "image_url", image_url: "https://x.test/a" }] }] : []),
      { role: "user", content: "thanks" },
    ],
  });
  assert.match(later.text ?? "", /You said: "thanks"/);
  const read = {
    type: "function",
    function: {
      name: "Read",
      parameters: { type: "object", properties: { file_path: { type: "string" } }, required: ["file_path"] },
    },
  };
  const call = demoReply({
    model: "echo",
    messages: [{ role: "user", content: "Please use the Read tool on /tmp/x/doctor-check.png." }],
    tools: [read],
  });
  assert.deepEqual(call.toolCall, {
    name: "Read",
    arguments: JSON.stringify({ file_path: "/tmp/x/doctor-check.png" }),
  });
});
