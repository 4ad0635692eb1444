// The same conversation sent as chat completions and as Responses input decodes to the same neutral request
// (issue 4: "the same upstream body at the mock" starts here).
import { test } from "node:test";
import assert from "node:assert/strict";
import { decodeChatRequest } from "../../../../server/wires/openai-chat/decode";
import { decodeResponsesRequest } from "../../../../server/wires/openai-responses/decode";

const PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";
const params = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
const schema = { type: "object", properties: { answer: { type: "string" } } };

test("chat and Responses forms of one conversation give the same neutral request", () => {
  const chat = decodeChatRequest({
    model: "demo/echo",
    messages: [
      { role: "system", content: "Be terse." },
      {
        role: "user",
        content: [
          { type: "text", text: "Weather in Paris and Rome? Also this:" },
          { type: "image_url", image_url: { url: PNG } },
        ],
      },
      {
        role: "assistant",
        content: "Checking.",
        tool_calls: [
          { id: "call_a", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
          { id: "call_b", type: "function", function: { name: "get_weather", arguments: "" } },
        ],
      },
      { role: "tool", tool_call_id: "call_a", content: "18C" },
      { role: "tool", tool_call_id: "call_b", content: [{ type: "text", text: "21C" }] },
    ],
    tools: [
      { type: "function", function: { name: "get_weather", description: "Weather", parameters: params, strict: true } },
    ],
    tool_choice: "auto",
    parallel_tool_calls: true,
    response_format: { type: "json_schema", json_schema: { name: "answer", schema, strict: true } },
    temperature: 0.5,
    top_p: 0.9,
    max_completion_tokens: 300,
    reasoning_effort: "low",
    stream: true,
    stream_options: { include_usage: true },
    prompt_cache_key: "k1",
  });
  const { request: responses } = decodeResponsesRequest({
    model: "demo/echo",
    instructions: "Be terse.",
    input: [
      {
        role: "user",
        content: [
          { type: "input_text", text: "Weather in Paris and Rome? Also this:" },
          { type: "input_image", image_url: PNG },
        ],
      },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "Checking." }] },
      { type: "function_call", call_id: "call_a", name: "get_weather", arguments: '{"city":"Paris"}' },
      { type: "function_call", call_id: "call_b", name: "get_weather", arguments: "" },
      { type: "function_call_output", call_id: "call_a", output: "18C" },
      { type: "function_call_output", call_id: "call_b", output: [{ type: "input_text", text: "21C" }] },
    ],
    tools: [{ type: "function", name: "get_weather", description: "Weather", parameters: params, strict: true }],
    tool_choice: "auto",
    parallel_tool_calls: true,
    text: { format: { type: "json_schema", name: "answer", schema, strict: true } },
    temperature: 0.5,
    top_p: 0.9,
    max_output_tokens: 300,
    reasoning: { effort: "low" },
    stream: true,
    prompt_cache_key: "k1",
  });
  // Media parts remember where each client put them (its own wire's field path); all else is identical.
  const paramsOf = (r: typeof chat) =>
    r.messages.flatMap((m) =>
      m.role === "tool" ? [] : m.content.flatMap((p) => (p.type === "media" ? [p.param] : [])),
    );
  assert.deepEqual(paramsOf(chat), ["messages[1].content[1].image_url.url"]);
  assert.deepEqual(paramsOf(responses), ["input[0].content[1].image_url"]);
  const withoutParams = (r: typeof chat): typeof chat => ({
    ...r,
    messages: r.messages.map((m) =>
      m.role === "tool" ? m : { ...m, content: m.content.map((p) => (p.type === "media" ? { ...p, param: "" } : p)) },
    ),
  });
  assert.deepEqual(withoutParams(responses), withoutParams(chat));
});
