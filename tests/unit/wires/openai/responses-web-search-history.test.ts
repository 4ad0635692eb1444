// `web_search_call` items sent back in Responses `input` (Codex replays its history): the search is not run again,
// and the model keeps its query (and sources, when the client has them) as assistant text (issue 23).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { PatchbayError } from "../../../../server/core/errors";
import { decodeResponsesRequest } from "../../../../server/wires/openai-responses/decode";

const userItem = (text: string) => ({ type: "message", role: "user", content: [{ type: "input_text", text }] });
const assistantItem = (text: string) => ({
  type: "message",
  role: "assistant",
  content: [{ type: "output_text", text, annotations: [] }],
});
const decode = (input: unknown[]) => decodeResponsesRequest({ model: "m", input }).request;

describe("web_search_call items in input", () => {
  test("a search, then the answer: one assistant turn with the query, the sources and the answer", () => {
    const req = decode([
      userItem("What is new?"),
      {
        type: "web_search_call",
        id: "ws_1",
        status: "completed",
        action: {
          type: "search",
          query: "patchbay 2.0",
          queries: ["patchbay 2.0"],
          sources: [{ type: "url", url: "https://docs.example.test/a" }],
        },
      },
      assistantItem("It shipped (https://docs.example.test/a)."),
      userItem("And?"),
    ]);
    assert.deepEqual(req.messages[1], {
      role: "assistant",
      content: [
        { type: "text", text: '[web_search: "patchbay 2.0"]\nSources:\n- https://docs.example.test/a' },
        { type: "text", text: "It shipped (https://docs.example.test/a)." },
      ],
      toolCalls: [],
    });
    assert.equal(req.messages.length, 3);
  });

  test("a failed search, open_page and find read as text; an item without an action adds nothing", () => {
    const req = decode([
      userItem("q"),
      { type: "web_search_call", id: "ws_1", status: "failed", action: { type: "search", query: "x" } },
      {
        type: "web_search_call",
        id: "ws_2",
        status: "completed",
        action: { type: "open_page", url: "https://a.test/" },
      },
      {
        type: "web_search_call",
        id: "ws_3",
        status: "completed",
        action: { type: "find_in_page", url: "https://a.test/", pattern: "v2" },
      },
      { type: "web_search_call", id: "ws_4", status: "completed" },
    ]);
    assert.deepEqual(
      (req.messages[1]?.content as Array<{ type: string; text?: string }>).map((p) => p.text ?? p.type),
      ['[web_search: "x"] (failed)', "[open_page: https://a.test/]", '[find: "v2" in https://a.test/]'],
    );
    assert.equal(req.messages.length, 2);
  });

  test("Codex's shapes: an `other` action or a bare action string add nothing; no id or status is fine", () => {
    const req = decode([
      userItem("q"),
      { type: "web_search_call", action: { type: "other" } },
      { type: "web_search_call", id: "ws_2", status: "completed", action: "search" },
      { type: "web_search_call", action: { type: "search", query: "kept", queries: null, sources: null } },
    ]);
    assert.deepEqual(req.messages[1]?.content, [{ type: "text", text: '[web_search: "kept"]' }]);
  });

  test("bad fields are a 400 naming the field, never a 500", () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ status: "done" }, "input[1].status"],
      [{ id: 5 }, "input[1].id"],
      [{ action: 5 }, "input[1].action"],
      [{ action: { query: "x" } }, "input[1].action.type"],
      [{ action: { type: "search", query: 5 } }, "input[1].action.query"],
      [{ action: { type: "search", queries: "x" } }, "input[1].action.queries"],
      [{ action: { type: "search", queries: ["a", 2] } }, "input[1].action.queries[1]"],
      [{ action: { type: "search", sources: [{ type: "url" }] } }, "input[1].action.sources[0].url"],
      [{ action: { type: "open_page", url: {} } }, "input[1].action.url"],
      [{ action: { type: "find_in_page", url: "https://a.test/", pattern: 1 } }, "input[1].action.pattern"],
    ];
    for (const [fields, param] of cases) {
      assert.throws(
        () => decode([userItem("q"), { type: "web_search_call", id: "ws_1", status: "completed", ...fields }]),
        (e: unknown) => {
          assert.ok(e instanceof PatchbayError, String(e));
          assert.equal(e.status, 400, e.message);
          assert.equal(e.param, param, e.message);
          assert.ok(e.message.includes(`'${param}'`), e.message);
          return true;
        },
        param,
      );
    }
  });
});
