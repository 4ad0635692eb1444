// decodeResponsesRequest: input items, instructions, tools and parameters map to the neutral request and the echo;
// stateful features and forced hosted tools are refused with 400 unsupported_parameter naming the field.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { formatWarning } from "../../../../server/core/warnings";
import { decodeResponsesRequest } from "../../../../server/wires/openai-responses/decode";
import { TOOL_RESULT_MEDIA_PLACEHOLDER } from "../../../../server/core/tool-result-media";
import { assert400 } from "./decode-helpers";

const PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";
const EXEC_TOOL = {
  type: "function",
  name: "exec_command",
  parameters: { type: "object", properties: { cmd: { type: "string" } } },
};
const userItem = (text: string) => ({ type: "message", role: "user", content: [{ type: "input_text", text }] });

function body(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: "demo/echo", input: "Hello", ...extra };
}
const decode = (extra: Record<string, unknown> = {}) => decodeResponsesRequest(body(extra));

describe("decodeResponsesRequest: mapping", () => {
  test("string input and instructions (RESP-INPUT-STRING-AND-INSTRUCTIONS)", () => {
    const { request, echo } = decode({ instructions: "Answer in one word.", store: false });
    assert.deepEqual(request, {
      model: "demo/echo",
      system: ["Answer in one word."],
      messages: [{ role: "user", content: [{ type: "text", text: "Hello" }] }],
      tools: [],
      toolChoice: "auto",
      generation: {},
      responseFormat: { type: "text" },
      stream: false,
      includeUsage: false,
      warnings: [],
    });
    assert.deepEqual(echo, {
      instructions: "Answer in one word.",
      max_output_tokens: null,
      metadata: {},
      parallel_tool_calls: true,
      prompt_cache_key: null,
      reasoning: { effort: null, summary: null },
      temperature: null,
      text: { format: { type: "text" } },
      tool_choice: "auto",
      tools: [],
      top_p: null,
      user: null,
    });
  });

  test("message items of every role; items without type are messages; system after conversation is hoisted", () => {
    const { request } = decode({
      input: [
        { role: "developer", content: "Be brief." },
        {
          type: "message",
          role: "system",
          content: [
            { type: "input_text", text: "S1" },
            { type: "input_text", text: "S2" },
          ],
        },
        { role: "user", content: "Hi" },
        {
          type: "message",
          role: "assistant",
          id: "msg_1",
          status: "completed",
          content: [{ type: "output_text", text: "Hello!", annotations: [] }],
        },
        { role: "system", content: "Late" },
        userItem("Again"),
      ],
    });
    assert.deepEqual(request.system, ["Be brief.", "S1\nS2", "Late"]);
    assert.deepEqual(request.messages, [
      { role: "user", content: [{ type: "text", text: "Hi" }] },
      { role: "assistant", content: [{ type: "text", text: "Hello!" }], toolCalls: [] },
      { role: "user", content: [{ type: "text", text: "Again" }] },
    ]);
    assert.equal(request.warnings.length, 1);
    assert.match(formatWarning(request.warnings[0]!), /input\[4\]/);
  });

  test("user parts: input_text, input_image (data and https, detail dropped), input_file with file_data", () => {
    const { request } = decode({
      input: [
        {
          role: "user",
          content: [
            { type: "input_text", text: "Look" },
            { type: "input_image", image_url: PNG, detail: "high" },
            { type: "input_image", image_url: "https://example.com/x.jpg", detail: "auto" },
            { type: "input_file", file_data: "data:application/pdf;base64,JVBERi0=", filename: "doc.pdf" },
          ],
        },
      ],
    });
    assert.deepEqual(request.messages[0], {
      role: "user",
      content: [
        { type: "text", text: "Look" },
        { type: "media", mediaType: "image/png", url: PNG, param: "input[0].content[1].image_url" },
        {
          type: "media",
          mediaType: "image/jpeg",
          url: "https://example.com/x.jpg",
          param: "input[0].content[2].image_url",
        },
        {
          type: "media",
          mediaType: "application/pdf",
          url: "data:application/pdf;base64,JVBERi0=",
          filename: "doc.pdf",
          param: "input[0].content[3].file_data",
        },
      ],
    });
  });

  test("adjacent function_call items form one assistant turn, outputs follow (RESP-INPUT-FUNCTION-CALL-HISTORY)", () => {
    const { request } = decode({
      input: [
        userItem("List files and print the working directory."),
        { type: "function_call", call_id: "call_a", name: "exec_command", arguments: '{"cmd":"ls"}' },
        { type: "function_call", call_id: "call_b", name: "exec_command", arguments: '{"cmd":"pwd"}' },
        { type: "function_call_output", call_id: "call_a", output: "a.txt b.txt" },
        { type: "function_call_output", call_id: "call_b", output: "/home/user" },
      ],
      tools: [EXEC_TOOL],
    });
    assert.deepEqual(request.messages.slice(1), [
      {
        role: "assistant",
        content: [],
        toolCalls: [
          { id: "call_a", name: "exec_command", arguments: '{"cmd":"ls"}' },
          { id: "call_b", name: "exec_command", arguments: '{"cmd":"pwd"}' },
        ],
      },
      { role: "tool", toolCallId: "call_a", content: "a.txt b.txt" },
      { role: "tool", toolCallId: "call_b", content: "/home/user" },
    ]);
  });

  test("an assistant message followed by calls (across a dropped reasoning item) is one turn; '' arguments → {}", () => {
    const { request } = decode({
      input: [
        userItem("q"),
        { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "gAAA" },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "Let me check." }] },
        { type: "reasoning", id: "rs_2", summary: [{ type: "summary_text", text: "x" }] },
        { type: "function_call", call_id: "c1", name: "now", arguments: "" },
        {
          type: "function_call_output",
          call_id: "c1",
          output: [
            { type: "input_text", text: "12:00" },
            { type: "input_text", text: "UTC" },
          ],
        },
      ],
    });
    assert.deepEqual(request.messages.slice(1), [
      {
        role: "assistant",
        content: [{ type: "text", text: "Let me check." }],
        toolCalls: [{ id: "c1", name: "now", arguments: "{}" }],
      },
      { role: "tool", toolCallId: "c1", content: "12:00\nUTC" },
    ]);
  });

  test("tools, tool_choice, parallel_tool_calls and their echo", () => {
    const { request, echo } = decode({
      tools: [
        { ...EXEC_TOOL, strict: true, description: "Run a command" },
        { type: "function", name: "noargs" },
      ],
      tool_choice: { type: "function", name: "exec_command" },
      parallel_tool_calls: false,
    });
    assert.deepEqual(request.tools, [
      { name: "exec_command", description: "Run a command", parameters: EXEC_TOOL.parameters, strict: true },
      { name: "noargs", parameters: { type: "object", properties: {} } },
    ]);
    assert.deepEqual(request.toolChoice, { type: "function", name: "exec_command" });
    assert.equal(request.generation.parallelToolCalls, false);
    assert.deepEqual(echo.tools, [
      {
        type: "function",
        name: "exec_command",
        description: "Run a command",
        parameters: EXEC_TOOL.parameters,
        strict: true,
      },
      {
        type: "function",
        name: "noargs",
        description: null,
        parameters: { type: "object", properties: {} },
        strict: null,
      },
    ]);
    assert.deepEqual(echo.tool_choice, { type: "function", name: "exec_command" });
    assert.equal(echo.parallel_tool_calls, false);
    for (const mode of ["auto", "none", "required"] as const)
      assert.equal(decode({ tools: [EXEC_TOOL], tool_choice: mode }).request.toolChoice, mode);
  });

  test("text.format json_schema / json_object / text", () => {
    const schema = { type: "object", properties: { city: { type: "string" } } };
    const js = decode({ text: { format: { type: "json_schema", name: "city", schema, strict: true } } });
    assert.deepEqual(js.request.responseFormat, { type: "json_schema", name: "city", schema, strict: true });
    assert.deepEqual(js.echo.text, { format: { type: "json_schema", name: "city", schema, strict: true } });
    assert.deepEqual(decode({ text: { format: { type: "json_object" } } }).request.responseFormat, {
      type: "json_object",
    });
    assert.deepEqual(decode({ text: { format: { type: "text" } } }).request.responseFormat, { type: "text" });
  });

  test("generation parameters, reasoning, metadata, user, store, stream and their echo", () => {
    const { request, echo } = decode({
      temperature: 0.3,
      top_p: 0.8,
      max_output_tokens: 200,
      reasoning: { effort: "high", summary: "auto" },
      metadata: { k: "v" },
      user: "u-1",
      store: true,
      stream: true,
      prompt_cache_key: "pck",
      include: ["reasoning.encrypted_content"],
      truncation: "disabled",
      top_logprobs: 0,
      background: false,
    });
    assert.deepEqual(request.generation, {
      temperature: 0.3,
      topP: 0.8,
      maxOutputTokens: 200,
      reasoningEffort: "high",
    });
    assert.deepEqual([request.stream, request.includeUsage, request.promptCacheKey], [true, true, "pck"]);
    // `store` is honoured by the Responses route (stored Responses), so it is no longer a warning.
    assert.deepEqual(request.warnings, [
      { kind: "unsupported", param: "include", detail: "reasoning.encrypted_content not available" },
    ]);
    assert.deepEqual(
      [
        echo.temperature,
        echo.top_p,
        echo.max_output_tokens,
        echo.reasoning,
        echo.metadata,
        echo.user,
        echo.prompt_cache_key,
      ],
      [0.3, 0.8, 200, { effort: "high", summary: "auto" }, { k: "v" }, "u-1", "pck"],
    );
    assert.equal(decode({ user: "u-2" }).request.promptCacheKey, "u-2");
  });

  test("null means 'not set'; unknown fields are tolerated", () => {
    const nulls = Object.fromEntries(
      [
        "instructions",
        "tools",
        "tool_choice",
        "parallel_tool_calls",
        "text",
        "temperature",
        "top_p",
        "max_output_tokens",
        "reasoning",
        "metadata",
        "user",
        "store",
        "stream",
        "prompt_cache_key",
        "include",
        "top_logprobs",
        "truncation",
        "background",
        "previous_response_id",
        "conversation",
        "prompt",
        "max_tool_calls",
      ].map((k) => [k, null]),
    );
    assert.deepEqual(decode(nulls), decode());
    assert.deepEqual(
      decode({ service_tier: "auto", safety_identifier: "x", stream_options: { include_obfuscation: false } }),
      decode(),
    );
  });
});

describe("decodeResponsesRequest: refusals name the field", () => {
  test("body, model and input", () => {
    for (const bad of [null, [], "x", 1]) assert400(() => decodeResponsesRequest(bad), { param: null });
    assert400(() => decodeResponsesRequest({ input: "x" }), {
      param: "model",
      message: /Missing required parameter: 'model'/,
    });
    assert400(() => decodeResponsesRequest({ model: "m" }), {
      param: "input",
      message: /Missing required parameter: 'input'/,
    });
    assert400(() => decode({ input: [] }), { param: "input", message: /at least one/ });
    assert400(() => decode({ input: 5 }), { param: "input" });
    assert400(() => decode({ input: [{ role: "developer", content: "only system" }] }), { param: "input" });
  });

  test("stateful features point at the stateless way (and the AI SDK's store: false)", () => {
    assert400(() => decode({ conversation: "conv_1" }), { param: "conversation", code: "unsupported_parameter" });
    assert400(() => decode({ input: [userItem("a"), { type: "item_reference", id: "msg_1" }] }), {
      param: "input[1]",
      code: "unsupported_parameter",
      message: /store: false/,
    });
    assert400(() => decode({ input: [userItem("a"), { id: "msg_1" }] }), {
      param: "input[1]",
      code: "unsupported_parameter",
      message: /store: false/,
    });
    assert400(() => decode({ background: true }), { param: "background", code: "unsupported_parameter" });
    assert400(() => decode({ prompt: { id: "pmpt_1" } }), {
      param: "prompt",
      code: "unsupported_parameter",
      message: /instructions/,
    });
    assert400(() => decode({ truncation: "auto" }), {
      param: "truncation",
      code: "unsupported_parameter",
      message: /disabled/,
    });
    assert400(() => decode({ top_logprobs: 2 }), { param: "top_logprobs", code: "unsupported_parameter" });
    assert400(() => decode({ include: ["reasoning.encrypted_content", "message.output_text.logprobs"] }), {
      param: "include[1]",
      code: "unsupported_parameter",
    });
  });

  test("hosted tools: forcing one is refused (listing every hosted tool); an unknown tool type is refused", () => {
    const tools = [EXEC_TOOL, { type: "web_search" }, { type: "file_search", vector_store_ids: ["vs_1"] }];
    assert400(() => decode({ tools, tool_choice: { type: "file_search" } }), {
      param: "tool_choice",
      code: "unsupported_parameter",
      message: /'file_search'.*file_search \(tools\[2\]\)/,
    });
    // Web search is run by Patchbay: forcing it means the model must call a tool.
    assert.equal(decode({ tools, tool_choice: { type: "web_search_preview" } }).request.toolChoice, "required");
    assert400(() => decode({ tools, tool_choice: { type: "mcp", server_label: "x" } }), {
      param: "tool_choice",
      message: /'mcp'/,
    });
    assert400(
      () =>
        decode({
          tools,
          tool_choice: {
            type: "allowed_tools",
            mode: "required",
            tools: [{ type: "web_search" }, { type: "file_search" }],
          },
        }),
      { param: "tool_choice", message: /'web_search', 'file_search'/ },
    );
    assert400(() => decode({ tools: [EXEC_TOOL, { type: "teleport" }] }), {
      param: "tools[1].type",
      code: "unsupported_value",
      message: /'teleport'/,
    });
    assert400(() => decode({ tools: [EXEC_TOOL], tool_choice: { type: "function", name: "other" } }), {
      param: "tool_choice",
      message: /'other'/,
    });
    assert400(() => decode({ tool_choice: "required" }), { param: "tool_choice" });
    assert400(() => decode({ tools: [{ type: "function" }] }), { param: "tools[0].name" });
    assert400(() => decode({ tools: [EXEC_TOOL, EXEC_TOOL] }), { param: "tools[1].name", message: /Duplicate/ });
  });

  test("input items", () => {
    // web_search_call items (Codex sends them back) are accepted and not replayed.
    assert.equal(
      decode({ input: [userItem("a"), { type: "web_search_call", id: "ws_1", status: "completed" }] }).request.messages
        .length,
      1,
    );
    assert400(() => decode({ input: [userItem("a"), { type: "computer_call", id: "cu_1" }] }), {
      param: "input[1].type",
      code: "unsupported_value",
    });
    assert400(
      () => decode({ input: [userItem("a"), { type: "function_call_output", call_id: "nope", output: "x" }] }),
      {
        param: "input[1].call_id",
        message: /'nope'/,
      },
    );
    assert400(
      () =>
        decode({
          input: [
            userItem("a"),
            { type: "function_call_output", call_id: "c1", output: "x" },
            { type: "function_call", call_id: "c1", name: "f", arguments: "{}" },
          ],
        }),
      { param: "input[1].call_id" },
    );
    assert400(() => decode({ input: [userItem("a"), { type: "function_call", name: "f", arguments: "{}" }] }), {
      param: "input[1].call_id",
    });
    assert400(() => decode({ input: [{ type: "message", role: "tool", content: "x" }] }), { param: "input[0].role" });
    assert400(() => decode({ input: [{ type: "message", role: "user", content: [{ type: "input_video" }] }] }), {
      param: "input[0].content[0].type",
    });
    assert400(
      () => decode({ input: [{ role: "system", content: [{ type: "input_image", image_url: PNG }] }, userItem("a")] }),
      {
        param: "input[0].content[0].type",
      },
    );
    assert400(
      () =>
        decode({ input: [userItem("a"), { role: "assistant", content: [{ type: "input_image", image_url: PNG }] }] }),
      {
        param: "input[1].content[0].type",
      },
    );
  });

  test("images, files and audio", () => {
    const part = (p: Record<string, unknown>) => decode({ input: [{ role: "user", content: [p] }] });
    assert400(() => part({ type: "input_image", image_url: "ftp://x/y.png" }), {
      param: "input[0].content[0].image_url",
    });
    assert400(() => part({ type: "input_image", file_id: "file-1" }), {
      param: "input[0].content[0].file_id",
      code: "unsupported_parameter",
    });
    assert400(() => part({ type: "input_image", detail: "auto" }), { param: "input[0].content[0].image_url" });
    assert400(() => part({ type: "input_file", file_id: "file-1" }), {
      param: "input[0].content[0].file_id",
      code: "unsupported_parameter",
    });
    assert400(() => part({ type: "input_file", file_url: "https://x/y.pdf" }), {
      param: "input[0].content[0].file_url",
      code: "unsupported_parameter",
    });
    assert400(() => part({ type: "input_file" }), { param: "input[0].content[0].file_data" });
    assert400(() => part({ type: "input_audio", input_audio: {} }), {
      param: "input[0].content[0].type",
      code: "unsupported_value",
    });
    assert400(
      () =>
        decode({
          input: [
            userItem("a"),
            { type: "function_call", call_id: "c", name: "f", arguments: "{}" },
            { type: "function_call_output", call_id: "c", output: [{ type: "input_audio", input_audio: {} }] },
          ],
        }),
      { param: "input[2].output[0].type" },
    );
  });

  test("an image in a tool result (Codex's view_image) moves to a user message after the tool results, with a warning", () => {
    const { request } = decode({
      input: [
        userItem("a"),
        { type: "function_call", call_id: "c", name: "view_image", arguments: '{"path":"a.png"}' },
        { type: "custom_tool_call", call_id: "d", name: "shell", input: "ls" },
        {
          type: "function_call_output",
          call_id: "c",
          output: [
            { type: "input_text", text: "Here it is:" },
            { type: "input_image", image_url: PNG },
          ],
        },
        { type: "custom_tool_call_output", call_id: "d", output: "a.png" },
        userItem("next"),
      ],
    });
    const [tool1, tool2, moved, next] = request.messages.slice(-4);
    assert.deepEqual(tool1, {
      role: "tool",
      toolCallId: "c",
      content: `Here it is:\n${TOOL_RESULT_MEDIA_PLACEHOLDER}`,
    });
    assert.deepEqual(tool2, { role: "tool", toolCallId: "d", content: "a.png" });
    assert.equal(moved?.role, "user");
    assert.equal(moved?.role === "user" && moved.content[0]?.type, "media");
    assert.deepEqual(next, { role: "user", content: [{ type: "text", text: "next" }] });
    assert.deepEqual(request.warnings, [
      {
        kind: "approximated",
        param: "input[].output",
        detail:
          "images/files inside tool results (input[3].output[1]) were moved to a user message after the tool results",
      },
    ]);
    // At the end of the input too.
    const end = decode({
      input: [
        userItem("a"),
        { type: "function_call", call_id: "c", name: "view_image", arguments: "{}" },
        { type: "function_call_output", call_id: "c", output: [{ type: "input_image", image_url: PNG }] },
      ],
    }).request.messages;
    assert.equal(end.at(-1)?.role, "user");
    assert.equal(end.at(-2)?.role, "tool");
  });

  test("parameters", () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ temperature: 3 }, "temperature"],
      [{ top_p: -1 }, "top_p"],
      [{ max_output_tokens: 0 }, "max_output_tokens"],
      [{ text: { format: { type: "yaml" } } }, "text.format.type"],
      [{ text: { format: { type: "json_schema", schema: {} } } }, "text.format.name"],
      [{ text: { format: { type: "json_schema", name: "x" } } }, "text.format.schema"],
      [{ metadata: { k: 1 } }, "metadata.k"],
      [{ metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, "v"])) }, "metadata"],
      [{ reasoning: { effort: 5 } }, "reasoning.effort"],
      [{ parallel_tool_calls: "yes" }, "parallel_tool_calls"],
      [{ stream: 1 }, "stream"],
      [{ instructions: 5 }, "instructions"],
    ];
    for (const [extra, param] of cases) assert400(() => decode(extra), { param });
  });
});
