// The conversations of the chat fidelity test (tests/integration/fidelity-chat.test.ts): each a chat request body,
// what the mock upstream answers, and what the client must get. The test checks that the upstream sees exactly the
// client's conversation, with only the documented differences (tests/compat/fidelity.ts).
import assert from "node:assert/strict";
import type { MockReply } from "../harness/mock-upstream";
import { red16Base64 } from "./cases";
import type { Exchange } from "./exchange";

type Json = Record<string, unknown>;

/** A client function tool named `name` whose parameters are `properties` (all required). */
export const fn = (name: string, properties: Json = {}, extra: Json = {}) => ({
  type: "function",
  function: {
    name,
    parameters: {
      type: "object",
      properties,
      ...(Object.keys(properties).length ? { required: Object.keys(properties) } : {}),
    },
    ...extra,
  },
});
export const weather = fn("get_weather", { city: { type: "string" } }, { description: "Current weather for a city" });
export const clock = fn("get_time", { tz: { type: "string" } }, { description: "Time in a zone" });
export const search = fn(
  "search_docs",
  { query: { type: "string" }, limit: { type: "integer" } },
  { description: "Search the docs" },
);

/** One conversation: the request body, the scripted upstream replies, checks on what the client got. */
export interface Conversation {
  name: string;
  body: Json;
  script?: MockReply[];
  /** Checks on what the client got (JSON body or chat chunks). */
  check?: (got: {
    res: Exchange;
    text: string;
    toolCalls: Array<{ id: string; name: string; arguments: string }>;
  }) => void;
}

const RED = red16Base64();

/** At least 15 conversations: plain, multi-turn, tools, images, parameters, content parts. */
export const conversations: Conversation[] = [
  {
    name: "plain",
    body: { messages: [{ role: "user", content: "Hello there" }] },
    script: [{ text: "Hi!" }],
    check: (g) => assert.equal(g.text, "Hi!"),
  },
  {
    name: "multi-turn",
    body: {
      messages: [
        { role: "user", content: "My name is Ada." },
        { role: "assistant", content: "Nice to meet you, Ada." },
        { role: "user", content: "I like tea." },
        { role: "assistant", content: "Tea is great." },
        { role: "user", content: "What is my name and what do I like?" },
      ],
      stream: true,
    },
    script: [{ text: "Ada, and tea.", chunks: 3 }],
    check: (g) => assert.equal(g.text, "Ada, and tea."),
  },
  {
    name: "system+developer",
    body: {
      messages: [
        { role: "system", content: "You are a pirate." },
        {
          role: "developer",
          content: [
            { type: "text", text: "Answer in one line." },
            { type: "text", text: "No emojis." },
          ],
        },
        { role: "user", content: "Greet me." },
      ],
    },
  },
  {
    name: "tool call → result → answer",
    body: {
      messages: [
        { role: "system", content: "You are WeatherBot." },
        { role: "user", content: "Weather in Paris?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_p1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_p1", content: '{"temp":21,"sky":"clear"}' },
      ],
      tools: [weather],
    },
    script: [{ text: "It is 21°C and clear in Paris." }],
    check: (g) => assert.equal(g.text, "It is 21°C and clear in Paris."),
  },
  {
    name: "3 parallel calls",
    body: {
      messages: [{ role: "user", content: "Weather in Oslo and Rome, time in Tokyo." }],
      tools: [weather, clock, search],
      parallel_tool_calls: true,
      stream: true,
    },
    script: [
      {
        toolCalls: [
          { id: "call_a", name: "get_weather", arguments: { city: "Oslo" } },
          { id: "call_b", name: "get_weather", arguments: { city: "Rome" } },
          { id: "call_c", name: "get_time", arguments: { tz: "Asia/Tokyo" } },
        ],
      },
    ],
    check: (g) =>
      assert.deepEqual(
        g.toolCalls.map((c) => [c.id, c.name, JSON.parse(c.arguments)]),
        [
          ["call_a", "get_weather", { city: "Oslo" }],
          ["call_b", "get_weather", { city: "Rome" }],
          ["call_c", "get_time", { tz: "Asia/Tokyo" }],
        ],
      ),
  },
  {
    name: "3 parallel results in history",
    body: {
      messages: [
        { role: "user", content: "Weather in Oslo and Rome, time in Tokyo." },
        {
          role: "assistant",
          content: "",
          tool_calls: [
            { id: "call_a", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } },
            { id: "call_b", type: "function", function: { name: "get_weather", arguments: '{"city":"Rome"}' } },
            { id: "call_c", type: "function", function: { name: "get_time", arguments: '{"tz":"Asia/Tokyo"}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_a", content: "-3C" },
        {
          role: "tool",
          tool_call_id: "call_b",
          content: [
            { type: "text", text: "18C" },
            { type: "text", text: "sunny" },
          ],
        },
        { role: "tool", tool_call_id: "call_c", content: "21:04" },
      ],
      tools: [weather, clock, search],
      tool_choice: "auto",
    },
    script: [{ text: "Oslo -3C, Rome 18C sunny, Tokyo 21:04." }],
  },
  {
    name: "empty-args call",
    body: {
      messages: [
        { role: "user", content: "What time is it?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call_t", type: "function", function: { name: "now", arguments: "" } }],
        },
        { role: "tool", tool_call_id: "call_t", content: "12:00" },
        { role: "user", content: "And again?" },
      ],
      tools: [fn("now")],
    },
    script: [{ toolCalls: [{ id: "call_t2", name: "now", arguments: "" }] }],
    check: (g) =>
      assert.deepEqual(
        g.toolCalls.map((c) => [c.name, c.arguments]),
        [["now", "{}"]],
        'arguments "" come back as "{}"',
      ),
  },
  {
    name: "images (data URL)",
    body: {
      model: "mock/mock-vision",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "What colour is this?" },
            { type: "image_url", image_url: { url: `data:image/png;base64,${RED}`, detail: "high" } },
            { type: "image_url", image_url: { url: `data:image/jpeg;base64,${RED}` } },
          ],
        },
      ],
    },
    script: [{ text: "Red." }],
  },
  {
    name: "json_schema",
    body: {
      messages: [{ role: "user", content: "Alice, 30" }],
      response_format: {
        type: "json_schema",
        json_schema: {
          name: "person",
          description: "A person",
          strict: true,
          schema: {
            type: "object",
            properties: { name: { type: "string" }, age: { type: "integer" } },
            required: ["name", "age"],
            additionalProperties: false,
          },
        },
      },
    },
    script: [{ text: '{"name":"Alice","age":30}' }],
    check: (g) => assert.deepEqual(JSON.parse(g.text), { name: "Alice", age: 30 }),
  },
  {
    name: "json_object",
    body: {
      messages: [
        { role: "system", content: "Reply in JSON." },
        { role: "user", content: "Three colours." },
      ],
      response_format: { type: "json_object" },
    },
    script: [{ text: '{"colours":["red","green","blue"]}' }],
  },
  {
    name: "every generation parameter",
    body: {
      messages: [{ role: "user", content: "Tell me a fact.", name: "ada" }],
      temperature: 0.42,
      top_p: 0.9,
      max_tokens: 77,
      stop: ["\n\n", "END"],
      seed: 1234,
      presence_penalty: 0.5,
      frequency_penalty: -0.25,
      tools: [search],
      parallel_tool_calls: false,
      user: "user-42",
      metadata: { trace: "t1" },
      store: false,
      service_tier: "auto",
      logit_bias: {},
      n: 1,
    },
  },
  { name: "stop string", body: { messages: [{ role: "user", content: "Count." }], stop: "5" } },
  {
    name: "max_completion_tokens → max_tokens",
    body: {
      messages: [{ role: "user", content: "A long story." }],
      max_completion_tokens: 5,
      stream: true,
      stream_options: { include_usage: true },
    },
    script: [{ text: "Once upon a", finishReason: "length", usage: { completion_tokens: 5 } }],
  },
  {
    name: "tool_choice required",
    body: {
      messages: [{ role: "user", content: "Weather in Lima." }],
      tools: [weather, { ...clock, function: { ...clock.function, strict: true } }],
      tool_choice: "required",
    },
    script: [{ toolCalls: [{ name: "get_weather", arguments: { city: "Lima" } }] }],
  },
  {
    name: "tool_choice auto",
    body: { messages: [{ role: "user", content: "Hi." }], tools: [weather, clock], tool_choice: "auto" },
  },
  {
    name: "tool_choice named",
    body: {
      messages: [{ role: "user", content: "Time in Lima." }],
      tools: [weather, clock],
      tool_choice: { type: "function", function: { name: "get_time" } },
    },
    script: [{ toolCalls: [{ name: "get_time", arguments: { tz: "America/Lima" } }] }],
  },
  {
    name: "tool_choice none",
    body: { messages: [{ role: "user", content: "Just chat." }], tools: [weather, clock], tool_choice: "none" },
  },
  {
    name: "clashing tool names (edit/write) restored",
    body: {
      messages: [
        { role: "user", content: "Fix the typo and save." },
        {
          role: "assistant",
          content: "Reading first.",
          tool_calls: [{ id: "call_r", type: "function", function: { name: "read", arguments: '{"path":"a.md"}' } }],
        },
        { role: "tool", tool_call_id: "call_r", content: "teh cat" },
      ],
      tools: [
        fn(
          "edit",
          { path: { type: "string" }, old: { type: "string" }, new: { type: "string" } },
          { description: "Edit a file" },
        ),
        fn("write", { path: { type: "string" }, content: { type: "string" } }, { description: "Write a file" }),
        fn("read", { path: { type: "string" } }, { description: "Read a file" }),
      ],
      stream: true,
    },
    script: [
      {
        toolCalls: [
          { id: "call_e", name: "client_edit", arguments: { path: "a.md", old: "teh", new: "the" } },
          { id: "call_w", name: "client_write", arguments: { path: "b.md", content: "the cat" } },
        ],
      },
    ],
    check: (g) =>
      assert.deepEqual(
        g.toolCalls.map((c) => c.name),
        ["edit", "write"],
        "names restored on the way out",
      ),
  },
  {
    name: "reasoning_effort → variant",
    body: {
      model: "mock/mock-reasoner",
      messages: [{ role: "user", content: "Think hard: 2+2?" }],
      reasoning_effort: "high",
    },
    script: [{ reasoning: "Two plus two.", text: "4", usage: { completion_tokens: 10, reasoning_tokens: 6 } }],
    check: (g) => assert.equal(g.text, "4"),
  },
  {
    name: "content parts (user/assistant/tool)",
    body: {
      messages: [
        { role: "system", content: [{ type: "text", text: "Be terse." }] },
        {
          role: "user",
          content: [
            { type: "text", text: "Part one." },
            { type: "text", text: "Part two." },
          ],
        },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Got both." },
            { type: "text", text: " Anything else?" },
          ],
        },
        { role: "user", content: [{ type: "text", text: "Summarise." }] },
      ],
    },
  },
];
