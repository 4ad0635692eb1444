// Both decoders against hostile-but-well-formed input: huge ids are quoted short in messages, JSON nested too deep is
// refused naming its field, empty user messages are refused (never sent upstream or dropped), prototype-named
// extensions do not become media types.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { PatchbayError } from "../../../../server/core/errors";
import { decodeChatRequest } from "../../../../server/wires/openai-chat/decode";
import { decodeResponsesRequest } from "../../../../server/wires/openai-responses/decode";
import { assert400 } from "./decode-helpers";

const HUGE = "z".repeat(50_000);
const USER = { role: "user", content: "hi" };
const chat = (extra: Record<string, unknown>) => () => decodeChatRequest({ model: "m/x", messages: [USER], ...extra });
const responses = (extra: Record<string, unknown>) => () =>
  decodeResponsesRequest({ model: "m/x", input: "hi", ...extra });

/** `{a:{a:…}}` nested `levels` objects deep. */
function nested(levels: number): Record<string, unknown> {
  let v: Record<string, unknown> = { type: "string" };
  for (let i = 0; i < levels; i++) v = { type: "object", properties: { a: v } };
  return v;
}

/** The 400's message and param stay short; `param` is checked exactly when given, else only its start. */
function assertShort(fn: () => unknown, param: string, exact = true): void {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof PatchbayError && caught.status === 400, String(caught));
  if (exact) assert.equal(caught.param, param);
  else assert.ok(caught.param?.startsWith(param), `param ${caught.param?.slice(0, 40)}`);
  assert.ok(caught.message.length < 600, `message of ${caught.message.length} characters for ${param}`);
  assert.ok((caught.param ?? "").length < 300, `param of ${(caught.param ?? "").length} characters`);
}

describe("client values are quoted short in error messages", () => {
  test("chat: tool_call_id, tool type, tool_choice type and name", () => {
    assertShort(
      chat({ messages: [USER, { role: "tool", tool_call_id: HUGE, content: "x" }] }),
      "messages[1].tool_call_id",
    );
    assertShort(chat({ tools: [{ type: HUGE }] }), "tools[0].type");
    assertShort(chat({ tool_choice: { type: HUGE } }), "tool_choice");
    assertShort(chat({ tool_choice: { type: "function", function: { name: HUGE } } }), "tool_choice");
  });

  test("responses: call_id, item type, hosted tool type, tool_choice name, metadata key", () => {
    assertShort(
      responses({ input: [{ type: "function_call_output", call_id: HUGE, output: "x" }] }),
      "input[0].call_id",
    );
    assertShort(responses({ input: [{ type: HUGE }] }), "input[0].type");
    assertShort(responses({ tools: [{ type: HUGE }] }), "tools[0].type");
    assertShort(responses({ tool_choice: { type: "function", name: HUGE } }), "tool_choice");
    assertShort(responses({ metadata: { [HUGE]: "v" } }), "metadata.zzz", false);
  });
});

describe("JSON nested deeper than 64 levels is refused naming the field", () => {
  const deep = nested(5000);
  test("chat: tools[i].function.parameters, response_format schema, object-valued tool-call arguments", () => {
    assert400(chat({ tools: [{ type: "function", function: { name: "f", parameters: deep } }] }), {
      param: "tools[0].function.parameters",
      message: /nested/,
    });
    assert400(chat({ response_format: { type: "json_schema", json_schema: { name: "s", schema: deep } } }), {
      param: "response_format.json_schema.schema",
    });
    const call = { id: "c1", type: "function", function: { name: "f", arguments: deep } };
    assert400(chat({ messages: [USER, { role: "assistant", content: null, tool_calls: [call] }] }), {
      param: "messages[1].tool_calls[0].function.arguments",
    });
  });

  test("responses: tools[i].parameters and text.format.schema", () => {
    assert400(responses({ tools: [{ type: "function", name: "f", parameters: deep }] }), {
      param: "tools[0].parameters",
    });
    assert400(responses({ text: { format: { type: "json_schema", name: "s", schema: deep } } }), {
      param: "text.format.schema",
    });
  });

  test("string-valued tool-call arguments: chat messages[i].tool_calls[j].function.arguments, responses input[i].arguments", () => {
    const text = '{"a":'.repeat(100) + "1" + "}".repeat(100);
    const call = { id: "c1", type: "function", function: { name: "f", arguments: text } };
    assert400(chat({ messages: [USER, { role: "assistant", content: null, tool_calls: [call] }] }), {
      param: "messages[1].tool_calls[0].function.arguments",
      message: /Too deeply nested/,
    });
    const item = { type: "function_call", call_id: "c1", name: "f", arguments: text };
    assert400(responses({ input: [USER, item] }), { param: "input[1].arguments", message: /Too deeply nested/ });
    // Brackets inside strings do not count; text that is not JSON is carried as text, not refused.
    const inString = JSON.stringify({ code: "[".repeat(500) });
    const notJson = "[".repeat(500);
    for (const args of [inString, notJson]) {
      const ok = decodeResponsesRequest({ model: "m/x", input: [USER, { ...item, arguments: args }] });
      assert.equal(ok.request.messages.length, 2);
    }
  });

  test("deep arrays count too; 30 levels of schema (60 JSON levels) are fine", () => {
    let arr: unknown = 1;
    for (let i = 0; i < 100; i++) arr = [arr];
    assert400(
      chat({ tools: [{ type: "function", function: { name: "f", parameters: { type: "object", enum: arr } } }] }),
      {
        param: "tools[0].function.parameters",
      },
    );
    const ok = decodeChatRequest({
      model: "m/x",
      messages: [USER],
      tools: [{ type: "function", function: { name: "f", parameters: nested(30) } }],
    });
    assert.equal(ok.tools.length, 1);
  });
});

describe("tool call ids are unique, refused naming the repeated id's field", () => {
  test("chat: messages[i].tool_calls[j].id", () => {
    const call = (id: string) => ({ id, type: "function", function: { name: "f", arguments: "{}" } });
    const assistant = (...ids: string[]) => ({ role: "assistant", content: null, tool_calls: ids.map(call) });
    const answer = (id: string) => ({ role: "tool", tool_call_id: id, content: "r" });
    assert400(chat({ messages: [USER, assistant("c1", "c1")] }), {
      param: "messages[1].tool_calls[1].id",
      message: /'c1' is the id of an earlier tool call/,
    });
    assert400(chat({ messages: [USER, assistant("c1"), answer("c1"), assistant("c1")] }), {
      param: "messages[3].tool_calls[0].id",
    });
  });

  test("responses: input[i].call_id across function_call and custom_tool_call items", () => {
    const fn = { type: "function_call", call_id: "c1", name: "f", arguments: "{}" };
    const custom = { type: "custom_tool_call", call_id: "c1", name: "g", input: "x" };
    assert400(responses({ input: [USER, fn, custom] }), {
      param: "input[2].call_id",
      message: /'c1' is the call_id of an earlier item/,
    });
  });
});

describe("a user message with no content is refused", () => {
  test("chat: '', [] and only empty text parts → 400 naming messages[i].content", () => {
    for (const content of ["", [], [{ type: "text", text: "" }]]) {
      assert400(() => decodeChatRequest({ model: "m/x", messages: [{ role: "user", content }] }), {
        param: "messages[0].content",
        message: /empty/,
      });
    }
    const history = [USER, { role: "assistant", content: "yo" }, { role: "user", content: "" }];
    assert400(() => decodeChatRequest({ model: "m/x", messages: history }), { param: "messages[2].content" });
  });

  test("chat: empty text parts beside an image are dropped, the image stays", () => {
    const png = "data:image/png;base64,iVBORw0KGgo=";
    const req = decodeChatRequest({
      model: "m/x",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "" },
            { type: "image_url", image_url: { url: png } },
          ],
        },
      ],
    });
    // The image keeps the client's own index (content[1]) although the empty text before it is gone.
    assert.deepEqual(req.messages[0], {
      role: "user",
      content: [{ type: "media", mediaType: "image/png", url: png, param: "messages[0].content[1].image_url.url" }],
    });
  });

  test("responses: input '' → input; empty message items → input[i].content", () => {
    assert400(() => decodeResponsesRequest({ model: "m/x", input: "" }), { param: "input", message: /empty/ });
    for (const content of ["", [], [{ type: "input_text", text: "" }]]) {
      assert400(
        () =>
          decodeResponsesRequest({
            model: "m/x",
            input: [
              { role: "user", content: "hi" },
              { role: "assistant", content: "yo" },
              { role: "user", content },
            ],
          }),
        { param: "input[2].content" },
      );
    }
  });
});

describe("media types from extensions", () => {
  test("a file or image URL ending in .constructor gets the unknown-type default, not Object", () => {
    const req = decodeChatRequest({
      model: "m/x",
      messages: [
        {
          role: "user",
          content: [
            { type: "file", file: { file_data: "QUJD", filename: "x.constructor" } },
            { type: "image_url", image_url: { url: "https://example.com/a.constructor" } },
          ],
        },
      ],
    });
    const first = req.messages[0];
    assert.equal(first?.role, "user");
    const parts = first?.role === "user" ? first.content : [];
    assert.deepEqual(
      parts.map((p) => (p.type === "media" ? p.mediaType : p.type)),
      ["application/octet-stream", "image/*"],
    );
  });
});
