// `web_search_call` items sent back in Responses `input` (Codex replays its history): the search is not run again,
// and the model keeps its query (and sources, when the client has them) as assistant text (issue 23).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
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
        action: { type: "find", url: "https://a.test/", pattern: "v2" },
      },
      { type: "web_search_call", id: "ws_4", status: "completed" },
    ]);
    assert.deepEqual(
      (req.messages[1]?.content as Array<{ type: string; text?: string }>).map((p) => p.text ?? p.type),
      ['[web_search: "x"] (failed)', "[open_page: https://a.test/]", '[find: "v2" in https://a.test/]'],
    );
    assert.equal(req.messages.length, 2);
  });
});
