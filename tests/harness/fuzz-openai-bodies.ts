// Generated OpenAI request bodies for the fuzz test (tests/integration/hardening-fuzz.test.ts): chat completions and
// Responses bodies built field by field from odd values, valid templates with a few fields broken, and bodies that are
// not a JSON object at all.
import fc from "fast-check";
import { anyish, nest } from "./fuzz";

/** The one model the fuzz app may use: the few fully valid bodies reach OpenCode with it (bounded time). */
export const FUZZ_OPENAI_MODEL = "mock/mock-vision";
const ALLOWED = FUZZ_OPENAI_MODEL;

const model = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom<unknown>(
      "mock/mock-model",
      "mock/nope",
      "nope",
      "",
      "mock/",
      "/mock-vision",
      "mock/*",
      "*",
      ` ${ALLOWED}`,
      `${ALLOWED}#high`,
      "mock/mock-reasoner#bogus",
      "a/b/c",
      "x".repeat(5000),
    ),
  },
  { weight: 1, arbitrary: fc.constant<unknown>(ALLOWED) },
  { weight: 2, arbitrary: anyish },
);
const url = fc.constantFrom(
  "data:image/png;base64,iVBORw0KGgo=",
  "data:;base64,",
  "data:image/png;base64,!!!",
  "data:text/plain,hi",
  "http://127.0.0.1/x.png",
  "https://[::1]/a.png",
  "file:///etc/passwd",
  "javascript:alert(1)",
  "ftp://x/y",
  "//no-scheme",
  "",
  "x".repeat(3000),
);
const part = fc.record(
  {
    type: fc.constantFrom<unknown>(
      "text",
      "image_url",
      "input_audio",
      "file",
      "refusal",
      "input_text",
      "output_text",
      "input_image",
      "input_file",
      "bogus",
      5,
      null,
    ),
    text: fc.oneof(fc.string(), anyish),
    image_url: fc.oneof(url, fc.record({ url: fc.oneof(url, anyish), detail: anyish }, { requiredKeys: [] }), anyish),
    file: anyish,
    file_data: fc.oneof(url, anyish),
    refusal: anyish,
    input_audio: anyish,
  },
  { requiredKeys: [] },
);
const content = fc.oneof(fc.string({ maxLength: 50 }), fc.array(part, { maxLength: 3 }), anyish);
const toolCall = fc.record(
  {
    id: fc.oneof(fc.string(), anyish),
    type: fc.constantFrom<unknown>("function", "custom", 1),
    function: fc.record({ name: fc.oneof(fc.string(), anyish), arguments: anyish }, { requiredKeys: [] }),
  },
  { requiredKeys: [] },
);
const chatMessage = fc.record(
  {
    role: fc.constantFrom<unknown>(
      "system",
      "developer",
      "user",
      "assistant",
      "tool",
      "function",
      "bogus",
      "",
      1,
      null,
    ),
    content,
    tool_calls: fc.oneof(fc.array(toolCall, { maxLength: 2 }), anyish),
    tool_call_id: anyish,
    name: anyish,
    refusal: anyish,
  },
  { requiredKeys: ["role"] },
);
const schema = fc.oneof(
  fc.constant<unknown>({ type: "object", properties: { a: { type: "string" } }, required: ["a"] }),
  fc.constant<unknown>(nest(2000)),
  anyish,
);
const tool = fc.record(
  {
    type: fc.constantFrom<unknown>("function", "web_search", "custom", "file_search", "bogus", null),
    name: fc.oneof(fc.constantFrom<unknown>("get_weather", "invalid", "edit", "a b", "x".repeat(200)), anyish),
    parameters: schema,
    function: fc.record(
      {
        name: fc.oneof(fc.constantFrom<unknown>("get_weather", "task", "", "a.b"), anyish),
        description: anyish,
        parameters: schema,
        strict: anyish,
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: [] },
);
const common = {
  model,
  tools: fc.oneof(fc.array(tool, { maxLength: 2 }), anyish),
  tool_choice: fc.oneof(
    fc.constantFrom<unknown>(
      "auto",
      "none",
      "required",
      "bogus",
      { type: "function", function: { name: "x" } },
      { type: "function", name: "x" },
    ),
    anyish,
  ),
  temperature: fc.oneof(fc.double(), anyish),
  top_p: fc.oneof(fc.double(), anyish),
  stream: fc.oneof({ weight: 3, arbitrary: fc.boolean() }, { weight: 1, arbitrary: anyish }),
  parallel_tool_calls: anyish,
  user: anyish,
  metadata: anyish,
  store: anyish,
  seed: fc.oneof(fc.integer(), anyish),
  service_tier: anyish,
  prompt_cache_key: anyish,
};
const chatFields = {
  ...common,
  messages: fc.oneof(
    { weight: 4, arbitrary: fc.array(chatMessage, { maxLength: 4 }) },
    { weight: 1, arbitrary: anyish },
  ),
  max_tokens: fc.oneof(fc.integer(), anyish),
  max_completion_tokens: fc.oneof(fc.integer(), anyish),
  n: fc.oneof(fc.integer({ min: -1, max: 3 }), anyish),
  stop: anyish,
  stream_options: fc.oneof(fc.record({ include_usage: anyish }, { requiredKeys: [] }), anyish),
  response_format: fc.oneof(
    fc.constantFrom<unknown>(
      { type: "json_object" },
      { type: "json_schema" },
      { type: "json_schema", json_schema: { name: "x", schema: {} } },
      { type: "text" },
    ),
    anyish,
  ),
  logprobs: anyish,
  top_logprobs: anyish,
  presence_penalty: anyish,
  frequency_penalty: anyish,
  logit_bias: anyish,
  reasoning_effort: anyish,
  modalities: anyish,
  audio: anyish,
  prediction: anyish,
  functions: anyish,
  function_call: anyish,
  web_search_options: anyish,
};
const chatBody = fc.record(chatFields, { requiredKeys: [] });
const responsesItem = fc.record(
  {
    type: fc.constantFrom<unknown>(
      "message",
      "function_call",
      "function_call_output",
      "reasoning",
      "item_reference",
      "web_search_call",
      "bogus",
      undefined,
      1,
    ),
    role: fc.constantFrom<unknown>("user", "assistant", "system", "developer", "tool", "bogus"),
    content,
    call_id: anyish,
    name: anyish,
    arguments: anyish,
    output: fc.oneof(content, anyish),
    id: anyish,
    summary: anyish,
  },
  { requiredKeys: [] },
);
const responsesFields = {
  ...common,
  input: fc.oneof(
    { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 4, arbitrary: fc.array(responsesItem, { maxLength: 4 }) },
    { weight: 1, arbitrary: anyish },
  ),
  instructions: anyish,
  max_output_tokens: fc.oneof(fc.integer(), anyish),
  text: fc.oneof(
    fc.constantFrom<unknown>(
      { format: { type: "json_schema" } },
      { format: { type: "json_schema", name: "x", schema: { type: "object" } } },
      { verbosity: "low" },
    ),
    anyish,
  ),
  reasoning: fc.oneof(fc.constantFrom<unknown>({ effort: "high" }, { effort: "bogus" }, { summary: "auto" }), anyish),
  previous_response_id: anyish,
  conversation: anyish,
  include: anyish,
  truncation: anyish,
  background: anyish,
  prompt: anyish,
  max_tool_calls: anyish,
};
const responsesBody = fc.record(responsesFields, { requiredKeys: [] });
/** Bodies that are not a JSON object at all, or not JSON. */
const rawBody = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v) ?? "null"),
  fc.constantFrom(
    "",
    "{",
    "}",
    '{"model":',
    "\ufeff{}",
    '{"model":"\\ud800","messages":[]}',
    '{"a":1e400}',
    "[".repeat(100_000),
    '{"a":'.repeat(20_000),
    '{"__proto__":{"model":"mock/mock-vision"}}',
    "null",
    "NaN",
    '{"model":"mock/mock-vision","messages":[{"role":"user","content":"\\u0000"}]}',
  ),
);

/** Valid bodies (for the allowed model) with 1–3 fields replaced, removed or added: errors deep inside the decoder,
 *  the policy and the runner, not just at the first field. */
function mutated(templates: Record<string, unknown>[], fields: fc.Arbitrary<[string, unknown]>): fc.Arbitrary<string> {
  const mutation = fc.oneof(
    fields.map(
      ([k, v]) =>
        (b: Record<string, unknown>) =>
          void (b[k] = v),
    ),
    fc
      .constantFrom("model", "messages", "input", "stream", "tools")
      .map((k) => (b: Record<string, unknown>) => void delete b[k]),
    fc.tuple(fc.string({ maxLength: 10 }), anyish).map(
      ([k, v]) =>
        (b: Record<string, unknown>) =>
          void (b[k] = v),
    ),
    fc.tuple(fc.nat(5), anyish).map(([i, v]) => (b: Record<string, unknown>) => {
      const list = (b.messages ?? b.input) as unknown;
      if (Array.isArray(list) && list.length) list[i % list.length] = v;
    }),
  );
  return fc.tuple(fc.constantFrom(...templates), fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([t, ms]) => {
    const b = structuredClone(t);
    for (const m of ms) m(b);
    return JSON.stringify(b);
  });
}

const chatTemplates: Record<string, unknown>[] = [
  { model: ALLOWED, messages: [{ role: "user", content: "hi" }] },
  {
    model: ALLOWED,
    stream: true,
    stream_options: { include_usage: true },
    messages: [
      { role: "system", content: "s" },
      { role: "user", content: [{ type: "text", text: "a" }] },
    ],
  },
  {
    model: ALLOWED,
    messages: [
      { role: "user", content: "q" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "c1", content: "r" },
    ],
  },
  {
    model: ALLOWED,
    messages: [
      { role: "user", content: [{ type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } }] },
    ],
    max_tokens: 5,
    temperature: 0.5,
  },
];
const responsesTemplates: Record<string, unknown>[] = [
  { model: ALLOWED, input: "hi" },
  {
    model: ALLOWED,
    stream: true,
    instructions: "be brief",
    input: [{ role: "user", content: [{ type: "input_text", text: "a" }] }],
  },
  {
    model: ALLOWED,
    input: [
      { type: "function_call", call_id: "c1", name: "f", arguments: "{}" },
      { type: "function_call_output", call_id: "c1", output: "r" },
    ],
  },
  {
    model: ALLOWED,
    input: [{ role: "user", content: [{ type: "input_image", image_url: "data:image/png;base64,iVBORw0KGgo=" }] }],
    max_output_tokens: 16,
  },
];

/** Chat completions bodies as sent: generated, mutated templates, or not an object. */
export const chatBodyText = fc.oneof(
  { weight: 4, arbitrary: chatBody.map((b) => JSON.stringify(b)) },
  { weight: 3, arbitrary: mutated(chatTemplates, fc.tuple(fc.constantFrom(...Object.keys(chatFields)), anyish)) },
  { weight: 1, arbitrary: rawBody },
);
/** Responses bodies as sent: generated, mutated templates, or not an object. */
export const responsesBodyText = fc.oneof(
  { weight: 4, arbitrary: responsesBody.map((b) => JSON.stringify(b)) },
  {
    weight: 3,
    arbitrary: mutated(responsesTemplates, fc.tuple(fc.constantFrom(...Object.keys(responsesFields)), anyish)),
  },
  { weight: 1, arbitrary: rawBody },
);
