// decodeChatRequest: every accepted field maps to the neutral request; every bad input is a 400 naming its field.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { formatWarning } from "../../../../server/core/warnings";
import { decodeChatRequest } from "../../../../server/wires/openai-chat/decode";
import { assert400 } from "./decode-helpers";

const PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";
const USER = { role: "user", content: "hi" };
const WEATHER_TOOL = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Weather",
    parameters: { type: "object", properties: { city: { type: "string" } } },
  },
};

/** A minimal valid body plus overrides. */
function body(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: "demo/echo", messages: [USER], ...extra };
}
const decode = (extra: Record<string, unknown> = {}) => decodeChatRequest(body(extra));

describe("decodeChatRequest: mapping", () => {
  test("minimal request", () => {
    assert.deepEqual(decode(), {
      model: "demo/echo",
      system: [],
      messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
      tools: [],
      toolChoice: "auto",
      generation: {},
      responseFormat: { type: "text" },
      stream: false,
      includeUsage: false,
      warnings: [],
    });
  });

  test("system and developer messages become system texts; parts are joined with a newline", () => {
    const req = decode({
      messages: [
        {
          role: "system",
          content: [
            { type: "text", text: "You are terse." },
            { type: "text", text: "Answer in English." },
          ],
        },
        { role: "developer", content: "Be brief." },
        USER,
      ],
    });
    assert.deepEqual(req.system, ["You are terse.\nAnswer in English.", "Be brief."]);
    assert.equal(req.messages.length, 1);
    assert.deepEqual(req.warnings, []);
  });

  test("a system message after the conversation started is hoisted with one warning", () => {
    const req = decode({
      messages: [
        { role: "system", content: "A" },
        USER,
        { role: "developer", content: "B" },
        { role: "assistant", content: "ok" },
        { role: "system", content: "C" },
      ],
    });
    assert.deepEqual(req.system, ["A", "B", "C"]);
    assert.equal(req.warnings.length, 1);
    assert.match(formatWarning(req.warnings[0]!), /messages\[2\], messages\[4\]/);
    assert.deepEqual([req.warnings[0]!.kind, req.warnings[0]!.param], ["approximated", "messages"]);
  });

  test("user parts: text, data-URL and http(s) images (detail dropped), files from file_data", () => {
    const req = decode({
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Look" },
            { type: "image_url", image_url: { url: PNG, detail: "low" } },
            { type: "image_url", image_url: { url: "https://example.com/a/red16.PNG?x=1", detail: "auto" } },
            { type: "image_url", image_url: { url: "http://example.com/pic" } },
            { type: "image_url", image_url: "data:image/webp;base64,UklGRg==" },
            { type: "file", file: { file_data: "data:application/pdf;base64,JVBERi0=", filename: "a.pdf" } },
            { type: "file", file: { file_data: "JVBERi0=", filename: "b.pdf" } },
          ],
        },
      ],
    });
    assert.deepEqual(req.messages[0], {
      role: "user",
      content: [
        { type: "text", text: "Look" },
        { type: "media", mediaType: "image/png", url: PNG, param: "messages[0].content[1].image_url.url" },
        {
          type: "media",
          mediaType: "image/png",
          url: "https://example.com/a/red16.PNG?x=1",
          param: "messages[0].content[2].image_url.url",
        },
        {
          type: "media",
          mediaType: "image/*",
          url: "http://example.com/pic",
          param: "messages[0].content[3].image_url.url",
        },
        {
          type: "media",
          mediaType: "image/webp",
          url: "data:image/webp;base64,UklGRg==",
          param: "messages[0].content[4].image_url",
        },
        {
          type: "media",
          mediaType: "application/pdf",
          url: "data:application/pdf;base64,JVBERi0=",
          filename: "a.pdf",
          param: "messages[0].content[5].file.file_data",
        },
        {
          type: "media",
          mediaType: "application/pdf",
          url: "data:application/pdf;base64,JVBERi0=",
          filename: "b.pdf",
          param: "messages[0].content[6].file.file_data",
        },
      ],
    });
  });

  test("assistant content null / '' / absent / parts / refusal, with tool calls", () => {
    const calls = [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Lima"}' } }];
    const answer = (i: number) => ({ role: "tool", tool_call_id: `c${i}`, content: "r" });
    const req = decode({
      messages: [
        USER,
        { role: "assistant", content: null, tool_calls: [{ ...calls[0], id: "c0" }] },
        answer(0),
        { role: "assistant", content: "", tool_calls: [{ ...calls[0], id: "c1" }] },
        answer(1),
        { role: "assistant", tool_calls: [{ id: "c2", function: { name: "now", arguments: "" } }] },
        answer(2),
        {
          role: "assistant",
          content: [
            { type: "text", text: "Noted." },
            { type: "refusal", refusal: "No." },
            { type: "text", text: "" },
          ],
        },
        { role: "assistant", content: null, refusal: "I can't." },
      ],
    });
    const assistants = req.messages.filter((m) => m.role === "assistant");
    assert.deepEqual(assistants, [
      { role: "assistant", content: [], toolCalls: [{ id: "c0", name: "get_weather", arguments: '{"city":"Lima"}' }] },
      { role: "assistant", content: [], toolCalls: [{ id: "c1", name: "get_weather", arguments: '{"city":"Lima"}' }] },
      { role: "assistant", content: [], toolCalls: [{ id: "c2", name: "now", arguments: "{}" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Noted." },
          { type: "text", text: "No." },
        ],
        toolCalls: [],
      },
      { role: "assistant", content: [{ type: "text", text: "I can't." }], toolCalls: [] },
    ]);
  });

  test("tool-call arguments: null and objects are normalised, whitespace becomes {}", () => {
    const req = decode({
      messages: [
        USER,
        {
          role: "assistant",
          tool_calls: [
            { id: "a", type: "function", function: { name: "f", arguments: null } },
            { id: "b", type: "function", function: { name: "f", arguments: { x: 1 } } },
            { id: "c", type: "function", function: { name: "f", arguments: "  " } },
          ],
        },
      ],
    });
    assert.deepEqual(req.messages[1]?.role === "assistant" && req.messages[1].toolCalls.map((c) => c.arguments), [
      "{}",
      '{"x":1}',
      "{}",
    ]);
  });

  test("tool messages: string content or text parts joined", () => {
    const req = decode({
      messages: [
        USER,
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call_abc", type: "function", function: { name: "f", arguments: "{}" } }],
        },
        {
          role: "tool",
          tool_call_id: "call_abc",
          content: [
            { type: "text", text: "4" },
            { type: "text", text: "2" },
          ],
        },
        { role: "tool", tool_call_id: "call_abc", content: "42" },
      ],
    });
    assert.deepEqual(req.messages.slice(2), [
      { role: "tool", toolCallId: "call_abc", content: "4\n2" },
      { role: "tool", toolCallId: "call_abc", content: "42" },
    ]);
  });

  test("tools (strict accepted, default parameters) and every tool_choice form", () => {
    const tools = [
      {
        type: "function",
        function: { name: "get_weather", strict: true, parameters: { type: "object", additionalProperties: false } },
      },
      { type: "function", function: { name: "mcp.server:tool-1" } },
    ];
    const req = decode({ tools });
    assert.deepEqual(req.tools, [
      { name: "get_weather", parameters: { type: "object", additionalProperties: false }, strict: true },
      { name: "mcp.server:tool-1", parameters: { type: "object", properties: {} } },
    ]);
    assert.equal(req.toolChoice, "auto");
    assert.equal(decode({ tools, tool_choice: "none" }).toolChoice, "none");
    assert.equal(decode({ tools, tool_choice: "required" }).toolChoice, "required");
    assert.deepEqual(
      decode({ tools, tool_choice: { type: "function", function: { name: "get_weather" } } }).toolChoice,
      {
        type: "function",
        name: "get_weather",
      },
    );
    assert.equal(
      decode({ tool_choice: "none", parallel_tool_calls: false }).toolChoice,
      "none",
      "Zed: none without tools",
    );
    assert.equal(decode({ tool_choice: "auto" }).toolChoice, "auto");
  });

  test("response_format text / json_object / json_schema", () => {
    assert.deepEqual(decode({ response_format: { type: "text" } }).responseFormat, { type: "text" });
    assert.deepEqual(decode({ response_format: { type: "json_object" } }).responseFormat, { type: "json_object" });
    const schema = {
      type: "object",
      properties: { name: { type: "string" } },
      required: ["name"],
      additionalProperties: false,
    };
    assert.deepEqual(
      decode({
        response_format: {
          type: "json_schema",
          json_schema: { name: "person", strict: true, schema, description: "A person" },
        },
      }).responseFormat,
      { type: "json_schema", name: "person", schema, strict: true, description: "A person" },
    );
  });

  test("generation parameters", () => {
    const req = decode({
      temperature: 0,
      top_p: 1,
      max_tokens: 100,
      max_completion_tokens: 50,
      stop: ["STOP", "", "END"],
      seed: 42,
      presence_penalty: -2,
      frequency_penalty: 2,
      reasoning_effort: "high",
      parallel_tool_calls: false,
    });
    assert.deepEqual(req.generation, {
      temperature: 0,
      topP: 1,
      maxOutputTokens: 50,
      stop: ["STOP", "END"],
      seed: 42,
      presencePenalty: -2,
      frequencyPenalty: 2,
      reasoningEffort: "high",
      parallelToolCalls: false,
    });
    assert.equal(decode({ max_tokens: 16 }).generation.maxOutputTokens, 16);
    assert.equal(decode({ temperature: 2 }).generation.temperature, 2);
  });

  test("stop: a string, or none for '' and []", () => {
    assert.deepEqual(decode({ stop: "STOP" }).generation.stop, ["STOP"]);
    assert.equal(decode({ stop: "" }).generation.stop, undefined);
    assert.equal(decode({ stop: [] }).generation.stop, undefined);
    assert.equal(decode({ stop: [""] }).generation.stop, undefined);
    assert.deepEqual(decode({ stop: ["a", "b", "c", "d"] }).generation.stop, ["a", "b", "c", "d"]);
  });

  test("stream, include_usage, prompt_cache_key and user", () => {
    const streamed = decode({ stream: true, stream_options: { include_usage: true } });
    assert.deepEqual([streamed.stream, streamed.includeUsage], [true, true]);
    assert.equal(decode({ stream: false, stream_options: { include_usage: true } }).includeUsage, false);
    assert.equal(decode({ stream: true }).includeUsage, false);
    assert.equal(decode({ user: "u1" }).promptCacheKey, "u1");
    assert.equal(decode({ user: "u1", prompt_cache_key: "k" }).promptCacheKey, "k");
  });

  test("null means 'not set' for every optional field", () => {
    const nulls = Object.fromEntries(
      [
        "tools",
        "tool_choice",
        "parallel_tool_calls",
        "response_format",
        "temperature",
        "top_p",
        "max_tokens",
        "max_completion_tokens",
        "stop",
        "seed",
        "presence_penalty",
        "frequency_penalty",
        "reasoning_effort",
        "stream",
        "stream_options",
        "prompt_cache_key",
        "user",
        "n",
        "logprobs",
        "top_logprobs",
        "modalities",
        "logit_bias",
        "audio",
        "functions",
        "function_call",
        "prediction",
        "web_search_options",
      ].map((k) => [k, null]),
    );
    assert.deepEqual(decode(nulls), decode());
  });

  test("unknown top-level and message-level fields are tolerated (CC-OPTIONAL-PARAMS-TOLERATED)", () => {
    const req = decodeChatRequest({
      model: "demo/echo",
      messages: [{ role: "user", content: "hello", metadata: { trimmed: true }, name: "bob" }],
      seed: 42,
      user: "user-1234",
      store: false,
      metadata: { session: "abc" },
      service_tier: "auto",
      top_p: 1,
      presence_penalty: 0,
      frequency_penalty: 0,
      logit_bias: {},
      some_future_field: { x: 1 },
    });
    assert.deepEqual(req.messages, [{ role: "user", content: [{ type: "text", text: "hello" }] }]);
    assert.deepEqual(req.warnings, []);
    assert.equal(req.generation.seed, 42);
  });

  test("n = 1, logprobs false and top_logprobs 0 are fine; ignored parameters are noted", () => {
    assert.deepEqual(decode({ n: 1, logprobs: false, top_logprobs: 0 }).warnings, []);
    assert.deepEqual(
      decode({ logit_bias: { "50256": -100 }, prediction: { type: "content", content: "x" } }).warnings,
      [
        { kind: "ignored", param: "logit_bias", detail: "logit_bias ignored" },
        { kind: "ignored", param: "prediction", detail: "prediction ignored" },
      ],
    );
  });

  test("assistant history may carry reasoning_content and other extensions", () => {
    const req = decode({ messages: [USER, { role: "assistant", content: "a", reasoning_content: "think" }, USER] });
    assert.deepEqual(req.messages[1], { role: "assistant", content: [{ type: "text", text: "a" }], toolCalls: [] });
  });
});

describe("decodeChatRequest: refusals name the field", () => {
  test("a body that is not a JSON object", () => {
    for (const bad of [null, [], "hello", 42, true])
      assert400(() => decodeChatRequest(bad), { param: null, message: /JSON object/ });
  });

  test("model", () => {
    assert400(() => decodeChatRequest({ messages: [USER] }), {
      param: "model",
      message: /Missing required parameter: 'model'/,
    });
    assert400(() => decode({ model: "" }), { param: "model" });
    assert400(() => decode({ model: 5 }), { param: "model", message: /must be a string/ });
  });

  test("messages", () => {
    assert400(() => decodeChatRequest({ model: "m" }), {
      param: "messages",
      message: /Missing required parameter: 'messages'/,
    });
    assert400(() => decode({ messages: [] }), { param: "messages", message: /at least one/ });
    assert400(() => decode({ messages: "hi" }), { param: "messages" });
    assert400(() => decode({ messages: [{ role: "system", content: "only system" }] }), { param: "messages" });
    assert400(() => decode({ messages: [USER, "hi"] }), { param: "messages[1]" });
  });

  test("roles", () => {
    assert400(() => decode({ messages: [{ role: "bot", content: "x" }] }), {
      param: "messages[0].role",
      message: /'user'/,
    });
    assert400(() => decode({ messages: [{ content: "x" }] }), { param: "messages[0].role" });
    assert400(() => decode({ messages: [USER, { role: "function", name: "f", content: "x" }] }), {
      param: "messages[1].role",
      code: "unsupported_value",
      message: /role 'tool'/,
    });
  });

  test("content shapes", () => {
    assert400(() => decode({ messages: [{ role: "user", content: 5 }] }), {
      param: "messages[0].content",
      message: /string or an array/,
    });
    assert400(() => decode({ messages: [{ role: "user" }] }), { param: "messages[0].content", message: /Missing/ });
    assert400(
      () => decode({ messages: [{ role: "user", content: [{ type: "text", text: "a" }, { type: "video" }] }] }),
      {
        param: "messages[0].content[1].type",
      },
    );
    assert400(() => decode({ messages: [{ role: "user", content: [{ type: "text", text: 3 }] }] }), {
      param: "messages[0].content[0].text",
    });
    assert400(
      () => decode({ messages: [{ role: "system", content: [{ type: "image_url", image_url: { url: PNG } }] }, USER] }),
      {
        param: "messages[0].content[0].type",
      },
    );
    assert400(() => decode({ messages: [USER, { role: "assistant", content: 7 }] }), { param: "messages[1].content" });
  });

  test("images", () => {
    const image = (image_url: unknown) =>
      decode({ messages: [{ role: "user", content: [{ type: "image_url", image_url }] }] });
    assert400(() => image({ url: "ftp://example.com/a.png" }), {
      param: "messages[0].content[0].image_url.url",
      message: /http\(s\)/,
    });
    assert400(() => image({ url: "data:text/plain;base64,AAAA" }), { param: "messages[0].content[0].image_url.url" });
    assert400(() => image({ url: "data:image/png,notbase64" }), { param: "messages[0].content[0].image_url.url" });
    assert400(() => image({ url: "not a url" }), { param: "messages[0].content[0].image_url.url" });
    assert400(() => image("file:///etc/passwd"), { param: "messages[0].content[0].image_url" });
    assert400(() => image({ detail: "low" }), { param: "messages[0].content[0].image_url.url" });
  });

  test("base64 of an impossible length is the client's mistake: 400 naming the field (issue 16 item 5)", () => {
    const image = (url: string) =>
      decode({ messages: [{ role: "user", content: [{ type: "image_url", image_url: { url } }] }] });
    for (const url of ["data:image/png;base64,AAAAA==", "data:image/png;base64,AAAAA", "data:image/png;base64,AA="]) {
      assert400(() => image(url), { param: "messages[0].content[0].image_url.url", message: /not valid base64/ });
    }
    const file = (file_data: string) =>
      decode({ messages: [{ role: "user", content: [{ type: "file", file: { file_data, filename: "a.pdf" } }] }] });
    assert400(() => file("JVBERi0=A"), { param: "messages[0].content[0].file.file_data" });
    assert400(() => file("data:application/pdf;base64,JVBERi0=A"), { param: "messages[0].content[0].file.file_data" });
  });

  test("an upper-case data URL is accepted and passed on in canonical form (RFC 2397: case-insensitive)", () => {
    const req = decode({
      messages: [
        {
          role: "user",
          content: [{ type: "image_url", image_url: { url: `DATA:IMAGE/PNG;BASE64,${PNG.slice(22)}` } }],
        },
      ],
    });
    const part = req.messages[0]?.content[0];
    assert.deepEqual(typeof part === "object" && "url" in part ? { mediaType: part.mediaType, url: part.url } : null, {
      mediaType: "image/png",
      url: PNG,
    });
  });

  test("audio and file ids", () => {
    assert400(
      () =>
        decode({
          messages: [
            { role: "user", content: [{ type: "input_audio", input_audio: { data: "AAAA", format: "wav" } }] },
          ],
        }),
      {
        param: "messages[0].content[0].type",
        code: "unsupported_value",
        message: /transcribe/,
      },
    );
    assert400(
      () => decode({ messages: [{ role: "user", content: [{ type: "file", file: { file_id: "file-abc" } }] }] }),
      {
        param: "messages[0].content[0].file.file_id",
        code: "unsupported_parameter",
      },
    );
    assert400(() => decode({ messages: [{ role: "user", content: [{ type: "file", file: {} }] }] }), {
      param: "messages[0].content[0].file.file_data",
    });
    assert400(
      () =>
        decode({
          messages: [
            { role: "user", content: [{ type: "file", file: { file_data: "data:application/pdf;base64,%%%" } }] },
          ],
        }),
      {
        param: "messages[0].content[0].file.file_data",
      },
    );
  });

  test("assistant tool calls and legacy function_call", () => {
    const assistant = (m: Record<string, unknown>) => decode({ messages: [USER, { role: "assistant", ...m }] });
    assert400(() => assistant({ tool_calls: [{ id: "c", type: "custom", custom: { name: "x" } }] }), {
      param: "messages[1].tool_calls[0].type",
    });
    assert400(() => assistant({ tool_calls: [{ id: "c", type: "function", function: { arguments: "{}" } }] }), {
      param: "messages[1].tool_calls[0].function.name",
    });
    assert400(() => assistant({ tool_calls: [{ id: "", type: "function", function: { name: "f" } }] }), {
      param: "messages[1].tool_calls[0].id",
    });
    assert400(() => assistant({ content: null, function_call: { name: "f", arguments: "{}" } }), {
      param: "messages[1].function_call",
      code: "unsupported_parameter",
    });
  });

  test("tool messages must answer an earlier call", () => {
    assert400(() => decode({ messages: [USER, { role: "tool", tool_call_id: "nope", content: "x" }] }), {
      param: "messages[1].tool_call_id",
      message: /'nope'/,
    });
    assert400(() => decode({ messages: [USER, { role: "tool", content: "x" }] }), {
      param: "messages[1].tool_call_id",
    });
  });

  test("tools", () => {
    assert400(() => decode({ tools: [{ type: "custom", custom: { name: "x" } }] }), {
      param: "tools[0].type",
      code: "unsupported_value",
    });
    assert400(() => decode({ tools: [{ type: "function" }] }), { param: "tools[0].function" });
    assert400(() => decode({ tools: [{ type: "function", function: { name: "has space" } }] }), {
      param: "tools[0].function.name",
    });
    assert400(() => decode({ tools: [WEATHER_TOOL, WEATHER_TOOL] }), {
      param: "tools[1].function.name",
      message: /Duplicate/,
    });
    assert400(() => decode({ tools: [{ type: "function", function: { name: "f", parameters: "x" } }] }), {
      param: "tools[0].function.parameters",
    });
    assert400(() => decode({ tools: { type: "function" } }), { param: "tools" });
  });

  test("tool_choice", () => {
    assert400(() => decode({ tools: [WEATHER_TOOL], tool_choice: { type: "function", function: { name: "other" } } }), {
      param: "tool_choice",
      message: /'other' is not in 'tools'/,
    });
    assert400(() => decode({ tool_choice: { type: "function", function: { name: "get_weather" } } }), {
      param: "tool_choice",
    });
    assert400(() => decode({ tool_choice: "required" }), { param: "tool_choice" });
    assert400(() => decode({ tool_choice: "sometimes" }), { param: "tool_choice" });
    assert400(() => decode({ tools: [WEATHER_TOOL], tool_choice: { type: "allowed_tools", allowed_tools: {} } }), {
      param: "tool_choice",
      code: "unsupported_value",
    });
  });

  test("response_format", () => {
    assert400(() => decode({ response_format: { type: "xml" } }), { param: "response_format.type" });
    assert400(() => decode({ response_format: { type: "json_schema", json_schema: { schema: {} } } }), {
      param: "response_format.json_schema.name",
    });
    assert400(() => decode({ response_format: { type: "json_schema", json_schema: { name: "x" } } }), {
      param: "response_format.json_schema.schema",
    });
    assert400(
      () => decode({ response_format: { type: "json_schema", json_schema: { name: "bad name", schema: {} } } }),
      {
        param: "response_format.json_schema.name",
      },
    );
    assert400(() => decode({ response_format: { type: "json_schema" } }), { param: "response_format.json_schema" });
  });

  test("numeric ranges and types", () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ temperature: 2.5 }, "temperature"],
      [{ temperature: -0.1 }, "temperature"],
      [{ temperature: "hot" }, "temperature"],
      [{ top_p: 1.5 }, "top_p"],
      [{ max_tokens: 0 }, "max_tokens"],
      [{ max_tokens: 1.5 }, "max_tokens"],
      [{ max_completion_tokens: -1 }, "max_completion_tokens"],
      [{ seed: 1.5 }, "seed"],
      [{ presence_penalty: 3 }, "presence_penalty"],
      [{ frequency_penalty: -2.5 }, "frequency_penalty"],
      [{ stream: "yes" }, "stream"],
      [{ stream_options: { include_usage: "yes" } }, "stream_options.include_usage"],
      [{ parallel_tool_calls: "no" }, "parallel_tool_calls"],
      [{ stop: 5 }, "stop"],
      [{ stop: ["a", "b", "c", "d", "e"] }, "stop"],
      [{ reasoning_effort: 3 }, "reasoning_effort"],
      [{ n: 0 }, "n"],
    ];
    for (const [extra, param] of cases) assert400(() => decode(extra), { param });
    assert400(() => decode({ temperature: 3 }), { param: "temperature", message: /between 0 and 2 .*|\(got 3\)/ });
  });

  test("honest refusals: n > 1, logprobs, legacy functions, audio, hosted search", () => {
    assert400(() => decode({ n: 2 }), { param: "n", code: "unsupported_value", message: /one choice/ });
    assert400(() => decode({ logprobs: true, top_logprobs: 2 }), { param: "logprobs", code: "unsupported_parameter" });
    assert400(() => decode({ top_logprobs: 2 }), { param: "top_logprobs", code: "unsupported_parameter" });
    assert400(() => decode({ functions: [{ name: "f" }] }), { param: "functions", message: /tools/ });
    assert400(() => decode({ function_call: "auto" }), { param: "function_call" });
    assert400(() => decode({ modalities: ["text", "audio"] }), { param: "modalities" });
    assert400(() => decode({ audio: { voice: "alloy", format: "wav" } }), { param: "audio" });
    assert400(() => decode({ web_search_options: {} }), { param: "web_search_options" });
  });
});
