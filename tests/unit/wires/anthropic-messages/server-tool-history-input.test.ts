// Server tool blocks a client sends back in assistant history, checked like every other block: a missing or
// wrong field of `server_tool_use` / `web_search_tool_result` / `web_fetch_tool_result` is a 400 naming it (never a
// 500, never silently read as "unknown"). And what the conversation gives a web fetch tool to fetch: URLs in user
// text, tool results and server tool results, never the system prompt or the model's own text; `url_sources`.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { PatchbayError } from "../../../../server/core/errors";
import { decodeMessagesRequest } from "../../../../server/wires/anthropic-messages/decode";

const USE = { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "q" } };
const RESULT = {
  type: "web_search_tool_result",
  tool_use_id: "srvtoolu_1",
  content: [{ type: "web_search_result", url: "https://a.example.test/", title: "A", encrypted_content: "" }],
};
const FETCH_USE = { type: "server_tool_use", id: "srvtoolu_2", name: "web_fetch", input: { url: "https://a.test/" } };
const FETCH_RESULT = {
  type: "web_fetch_tool_result",
  tool_use_id: "srvtoolu_2",
  content: {
    type: "web_fetch_result",
    url: "https://a.test/",
    retrieved_at: null,
    content: { type: "document", source: { type: "text", media_type: "text/plain", data: "x" }, title: null },
  },
};

const body = (assistant: unknown[], extra: Record<string, unknown> = {}) => ({
  model: "m",
  max_tokens: 10,
  messages: [
    { role: "user", content: "What is new?" },
    { role: "assistant", content: assistant },
    { role: "user", content: "And?" },
  ],
  ...extra,
});

/** Asserts a 400 invalid_request_error whose `param` is `param`. */
function assert400(value: unknown, param: string): void {
  assert.throws(
    () => decodeMessagesRequest(value),
    (e: unknown) => {
      assert.ok(e instanceof PatchbayError, String(e));
      assert.equal(e.status, 400, e.message);
      assert.equal(e.param, param, e.message);
      assert.ok(e.message.includes(param), e.message);
      return true;
    },
  );
}

describe("malformed server tool history → 400 naming the field", () => {
  const at = "messages[1].content";
  test("server_tool_use: missing id, empty name, input not an object, id used twice", () => {
    assert400(body([{ ...USE, id: undefined }]), `${at}[0].id`);
    assert400(body([{ ...USE, name: "" }]), `${at}[0].name`);
    assert400(body([{ ...USE, input: "q" }]), `${at}[0].input`);
    assert400(body([USE, RESULT, USE]), `${at}[2].id`);
  });

  test("web_search_tool_result: wrong content shapes and fields, or no server_tool_use before it", () => {
    assert400(body([USE, { ...RESULT, tool_use_id: 7 }]), `${at}[1].tool_use_id`);
    assert400(body([USE, { ...RESULT, content: "results" }]), `${at}[1].content`);
    assert400(
      body([USE, { ...RESULT, content: [{ type: "web_search_result", title: "A" }] }]),
      `${at}[1].content[0].url`,
    );
    assert400(
      body([USE, { ...RESULT, content: [{ type: "web_search_result", url: "https://a.test/", title: 5 }] }]),
      `${at}[1].content[0].title`,
    );
    assert400(
      body([USE, { ...RESULT, content: { type: "web_search_tool_result_error" } }]),
      `${at}[1].content.error_code`,
    );
    assert400(body([RESULT]), `${at}[0].tool_use_id`);
    assert400(body([USE, { ...RESULT, tool_use_id: "srvtoolu_other" }]), `${at}[1].tool_use_id`);
  });

  test("web_fetch_tool_result: content of the wrong type, a document without a source", () => {
    assert400(body([FETCH_USE, { ...FETCH_RESULT, content: { type: "page" } }]), `${at}[1].content.type`);
    assert400(
      body([FETCH_USE, { ...FETCH_RESULT, content: { ...FETCH_RESULT.content, url: null } }]),
      `${at}[1].content.url`,
    );
    assert400(
      body([FETCH_USE, { ...FETCH_RESULT, content: { ...FETCH_RESULT.content, content: { type: "document" } } }]),
      `${at}[1].content.content.source`,
    );
  });

  test("well-formed blocks still decode (Patchbay's own shape, and Anthropic's with extra fields)", () => {
    const req = decodeMessagesRequest(
      body([
        { ...USE, caller: { type: "direct" } },
        { ...RESULT, caller: { type: "direct" } },
        FETCH_USE,
        FETCH_RESULT,
        { type: "server_tool_use", id: "srvtoolu_3", name: "web_search", input: { query: "z" } },
        {
          type: "web_search_tool_result",
          tool_use_id: "srvtoolu_3",
          content: { type: "web_search_tool_result_error", error_code: "max_uses_exceeded" },
        },
      ]),
    );
    assert.equal(req.messages[1]?.content.length, 6);
  });
});

describe("what a web fetch tool may fetch", () => {
  const FETCH_TOOL = { type: "web_fetch_20250910", name: "web_fetch" };
  const scopeOf = (value: Record<string, unknown>) =>
    (decodeMessagesRequest(value).serverTools ?? []).find((s) => s.kind === "web_fetch")?.fetchScope;

  const conversation = {
    model: "m",
    max_tokens: 10,
    system: "Operator note: https://system.example.test/",
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: "Read https://user.example.test/a and docs.example.test/b." },
          {
            type: "document",
            source: { type: "text", media_type: "text/plain", data: "see https://doc.example.test/" },
          },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "text", text: "I will visit https://model-made.example.test/?secret=1" },
          { type: "tool_use", id: "toolu_1", name: "grep", input: {} },
          { type: "tool_use", id: "toolu_2", name: "grep", input: {} },
          USE,
          RESULT,
          FETCH_USE,
          {
            ...FETCH_RESULT,
            content: {
              ...FETCH_RESULT.content,
              content: {
                type: "document",
                source: { type: "text", media_type: "text/plain", data: "link [https://linked.example.test/]" },
              },
            },
          },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_1", content: "https://tool.example.test/x" },
          {
            type: "tool_result",
            tool_use_id: "toolu_2",
            content: [
              {
                type: "search_result",
                source: "https://result.example.test/r",
                title: "R",
                content: [{ type: "text", text: "see also https://inner.example.test/" }],
              },
            ],
          },
        ],
      },
    ],
  };

  test("user text and documents, client tool results, search hits and fetched pages; not system or model text", () => {
    const scope = scopeOf({ ...conversation, tools: [FETCH_TOOL] });
    assert.deepEqual(
      new Set(scope?.urls),
      new Set([
        "user.example.test/a",
        "docs.example.test/b",
        "doc.example.test",
        "tool.example.test/x",
        "result.example.test/r",
        "inner.example.test",
        "a.example.test",
        "a.test",
        "linked.example.test",
      ]),
    );
    assert.deepEqual(scope?.serverToolResults, { type: "all" });
  });

  test("url_sources narrows the sources; a malformed one is a 400 naming the field", () => {
    const tools = (urlSources: unknown) => [
      { name: "grep", input_schema: { type: "object" } },
      { type: "web_search_20250305", name: "web_search" },
      { ...FETCH_TOOL, url_sources: urlSources },
    ];
    const userOnly = scopeOf({
      ...conversation,
      tools: tools({ client_tool_results: { type: "none" }, server_tool_results: { type: "none" } }),
    });
    assert.deepEqual(
      new Set(userOnly?.urls),
      new Set(["user.example.test/a", "docs.example.test/b", "doc.example.test"]),
    );
    assert.deepEqual(userOnly?.serverToolResults, { type: "none" });
    const searchOnly = scopeOf({
      ...conversation,
      tools: tools({
        user_input: { type: "none" },
        client_tool_results: { type: "except", tools: [{ type: "tool_reference", name: "grep" }] },
        server_tool_results: { type: "only", tools: [{ type: "tool_reference", name: "web_search" }] },
      }),
    });
    assert.deepEqual(searchOnly?.urls, ["a.example.test"]);
    const at = "tools[2].url_sources";
    assert400({ ...conversation, tools: tools("all") }, at);
    assert400({ ...conversation, tools: tools({ user_input: { type: "only", tools: [] } }) }, `${at}.user_input.type`);
    assert400(
      { ...conversation, tools: tools({ server_tool_results: { type: "only" } }) },
      `${at}.server_tool_results.tools`,
    );
    assert400(
      {
        ...conversation,
        tools: tools({ server_tool_results: { type: "only", tools: [{ type: "tool_reference", name: "nope" }] } }),
      },
      `${at}.server_tool_results.tools[0].name`,
    );
  });
});
