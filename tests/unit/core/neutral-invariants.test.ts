// The neutral contract's invariants (server/core/neutral-invariants.ts): every wire's decoder keeps them, and the one
// check refuses a request that breaks them with a 400 naming the neutral field.
import { test } from "node:test";
import assert from "node:assert/strict";
import { PatchbayError } from "../../../server/core/errors";
import { assertNeutralInvariants } from "../../../server/core/neutral-invariants";
import { decodeMessagesRequest } from "../../../server/wires/anthropic-messages/decode";
import { decodeChatRequest } from "../../../server/wires/openai-chat/decode";
import { decodeResponsesRequest } from "../../../server/wires/openai-responses/decode";
import { neutralRequest } from "../../harness/neutral-fixtures";

const isBad = (param: string) => (err: unknown) =>
  err instanceof PatchbayError && err.status === 400 && err.param === param;

test("a request that keeps the contract passes", () => {
  assertNeutralInvariants(
    neutralRequest({
      tools: [{ name: "a", parameters: {} }],
      toolChoice: { type: "function", name: "a" },
      messages: [
        { role: "user", content: [{ type: "text", text: "hi" }] },
        { role: "assistant", content: [], toolCalls: [{ id: "c1", name: "a", arguments: "{}" }] },
        { role: "tool", toolCallId: "c1", content: "ok" },
      ],
    }),
  );
});

test("duplicate tool names, an unanswered tool result and a named tool_choice outside tools are 400s", () => {
  const tool = { name: "a", parameters: {} };
  assert.throws(() => assertNeutralInvariants(neutralRequest({ tools: [tool, tool] })), isBad("tools"));
  assert.throws(
    () => assertNeutralInvariants(neutralRequest({ messages: [{ role: "tool", toolCallId: "nope", content: "x" }] })),
    isBad("messages"),
  );
  assert.throws(
    () => assertNeutralInvariants(neutralRequest({ tools: [tool], toolChoice: { type: "function", name: "b" } })),
    isBad("tool_choice"),
  );
});

test("a named tool_choice called like an Object.prototype key is outside tools, not found by inheritance", () => {
  const tools = [{ name: "get_weather", parameters: {} }];
  for (const name of ["constructor", "__proto__", "toString"])
    assert.throws(
      () => assertNeutralInvariants(neutralRequest({ tools, toolChoice: { type: "function", name } })),
      isBad("tool_choice"),
    );
});

// The OpenCode planner relies on this (session/plan/tools.ts has no check of its own): no request whose named
// tool_choice is outside its tools reaches a backend, from any wire.
test("every wire's decoder refuses a named tool_choice outside tools itself", () => {
  const refusesToolChoice = (e: unknown) =>
    e instanceof PatchbayError && e.status === 400 && (e.param ?? "").startsWith("tool_choice");
  const fn = { type: "function", function: { name: "a", parameters: { type: "object" } } };
  const chat = () =>
    decodeChatRequest({
      model: "m",
      messages: [{ role: "user", content: "hi" }],
      tools: [fn],
      tool_choice: { type: "function", function: { name: "b" } },
    });
  assert.throws(chat, refusesToolChoice);
  const responses = () =>
    decodeResponsesRequest({
      model: "m",
      input: "hi",
      tools: [{ type: "function", name: "a", parameters: { type: "object" } }],
      tool_choice: { type: "function", name: "b" },
    });
  assert.throws(responses, refusesToolChoice);
  const messages = () =>
    decodeMessagesRequest({
      model: "m",
      max_tokens: 10,
      messages: [{ role: "user", content: "hi" }],
      tools: [{ name: "a", input_schema: { type: "object" } }],
      tool_choice: { type: "tool", name: "b" },
    });
  assert.throws(messages, refusesToolChoice);
});

test("every wire's decoder refuses an orphan tool result itself, naming its own field", () => {
  const chat = () => decodeChatRequest({ model: "m", messages: [{ role: "tool", tool_call_id: "x", content: "r" }] });
  assert.throws(chat, (e: unknown) => e instanceof PatchbayError && e.status === 400);
  const responses = () =>
    decodeResponsesRequest({ model: "m", input: [{ type: "function_call_output", call_id: "x", output: "r" }] });
  assert.throws(responses, (e: unknown) => e instanceof PatchbayError && e.status === 400);
  const messages = () =>
    decodeMessagesRequest({
      model: "m",
      max_tokens: 10,
      messages: [{ role: "user", content: [{ type: "tool_result", tool_use_id: "x", content: "r" }] }],
    });
  assert.throws(messages, (e: unknown) => e instanceof PatchbayError && e.status === 400);
});

test("tool call ids are unique across the conversation; ids are echoed at most 200 characters long", () => {
  const id = "c".repeat(5000);
  const call = { id, name: "a", arguments: "{}" };
  assert.throws(
    () =>
      assertNeutralInvariants(
        neutralRequest({
          messages: [
            { role: "assistant", content: [], toolCalls: [call] },
            { role: "tool", toolCallId: id, content: "ok" },
            { role: "assistant", content: [], toolCalls: [call] },
          ],
        }),
      ),
    (err: unknown) => isBad("messages")(err) && (err as Error).message.length < 300,
  );
});
