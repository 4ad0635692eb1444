// Web search on the Anthropic wire beyond the blocks themselves: `web_search_result_location` citations on the text
// that names a result (stream and body agree, as the official SDK assembles the stream), and server tool blocks a
// client sends back in assistant history kept for the model as text (issue 23).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { ModelEvent, WebSearchHit } from "../../../../server/core/contract";
import { webSearchCitations } from "../../../../server/server-tools/anthropic-blocks";
import { decodeMessagesRequest } from "../../../../server/wires/anthropic-messages/decode";
import { MAX_FETCHED_TEXT_CHARS } from "../../../../server/wires/anthropic-messages/server-tool-history";
import { runMessages, sdkFinalMessage } from "./helpers";

const USAGE = { inputTokens: 10, outputTokens: 5, cachedInputTokens: 0, reasoningTokens: 0 };
const HITS: WebSearchHit[] = [
  { url: "https://docs.example.test/a", title: "Doc A", snippet: "A".repeat(200) },
  { url: "https://blog.example.test/b", title: "Blog B", snippet: "" },
  { url: "https://unused.example.test/c", title: "Unused", snippet: "never named" },
];

function searchThenText(text: string): ModelEvent[] {
  return [
    { type: "start", sessionId: "ses_1", warnings: [] },
    { type: "server-tool-call", id: "srvtoolu_1", name: "web_search", kind: "web_search", input: { query: "q" } },
    { type: "server-tool-result", id: "srvtoolu_1", outcome: { kind: "web_search", query: "q", hits: HITS } },
    ...text.match(/.{1,7}/gs)!.map((delta): ModelEvent => ({ type: "text-delta", delta })),
    {
      type: "finish",
      reason: "stop",
      usage: { ...USAGE, serverToolUse: { webSearchRequests: 1, webFetchRequests: 0 } },
    },
  ];
}

describe("web_search_result_location citations", () => {
  test("one per named result, in the order the text names them; cited_text ≤ 150 chars; none invented", () => {
    const text = `See ${HITS[1]!.url} and ${HITS[0]!.url}, again ${HITS[1]!.url}.`;
    assert.deepEqual(webSearchCitations(text, HITS), [
      {
        type: "web_search_result_location",
        url: HITS[1]!.url,
        title: "Blog B",
        encrypted_index: "",
        cited_text: "Blog B",
      },
      {
        type: "web_search_result_location",
        url: HITS[0]!.url,
        title: "Doc A",
        encrypted_index: "",
        cited_text: "A".repeat(150),
      },
    ]);
    assert.deepEqual(webSearchCitations("Patchbay 2.0 shipped (docs.example.test).", HITS), []);
  });

  test("the text block that names a result carries its citations, in the body and as the SDK assembles the stream", async () => {
    const text = `Patchbay 2.0 shipped (${HITS[0]!.url}).`;
    const run = runMessages(searchThenText(text));
    const block = run.body?.content[2];
    assert.ok(block?.type === "text");
    assert.equal(block.text, text);
    assert.deepEqual(
      block.citations?.map((c) => [c.type, c.url, c.title]),
      [["web_search_result_location", HITS[0]!.url, "Doc A"]],
    );
    const deltas = run.frames.filter((f) => f.data.includes('"citations_delta"'));
    assert.equal(deltas.length, 1);
    const final = await sdkFinalMessage(run.frames);
    const sdkBlock = final.content[2];
    assert.ok(sdkBlock?.type === "text");
    assert.deepEqual(sdkBlock.citations, block.citations);
  });

  test("text that names no result has no citations field (as before)", () => {
    const run = runMessages(searchThenText("I found nothing useful."));
    assert.deepEqual(run.body?.content[2], { type: "text", text: "I found nothing useful." });
    assert.ok(!run.frames.some((f) => f.data.includes("citations_delta")));
  });
});

describe("server tool blocks in assistant history", () => {
  const decodeHistory = (assistant: unknown[]) =>
    decodeMessagesRequest({
      model: "m",
      max_tokens: 10,
      messages: [
        { role: "user", content: "What is new?" },
        { role: "assistant", content: assistant },
        { role: "user", content: "And?" },
      ],
    });

  test("server_tool_use + web_search_tool_result → text of the query and results, no warning", () => {
    const req = decodeHistory([
      { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "patchbay 2.0" } },
      {
        type: "web_search_tool_result",
        tool_use_id: "srvtoolu_1",
        content: [
          {
            type: "web_search_result",
            url: HITS[0]!.url,
            title: "Doc A",
            encrypted_content: "opaque",
            page_age: "2 days",
          },
          { type: "web_search_result", url: HITS[1]!.url, title: "Blog B", encrypted_content: "" },
        ],
      },
      {
        type: "text",
        text: "It shipped.",
        citations: [
          {
            type: "web_search_result_location",
            url: HITS[0]!.url,
            title: "Doc A",
            encrypted_index: "x",
            cited_text: "A",
          },
        ],
      },
    ]);
    assert.deepEqual(req.messages[1], {
      role: "assistant",
      content: [
        { type: "text", text: '[web_search: "patchbay 2.0"]' },
        {
          type: "text",
          text: `Web search results:\n- Doc A (${HITS[0]!.url}), 2 days\n- Blog B (${HITS[1]!.url})`,
        },
        { type: "text", text: "It shipped." },
      ],
      toolCalls: [],
    });
    assert.deepEqual(req.warnings, []);
  });

  test("an error result and a fetch (page text capped) read as text too", () => {
    const long = "x".repeat(MAX_FETCHED_TEXT_CHARS + 10);
    const req = decodeHistory([
      { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "q" } },
      {
        type: "web_search_tool_result",
        tool_use_id: "srvtoolu_1",
        content: { type: "web_search_tool_result_error", error_code: "unavailable" },
      },
      { type: "server_tool_use", id: "srvtoolu_2", name: "web_fetch", input: { url: HITS[0]!.url } },
      {
        type: "web_fetch_tool_result",
        tool_use_id: "srvtoolu_2",
        content: {
          type: "web_fetch_result",
          url: HITS[0]!.url,
          retrieved_at: null,
          content: { type: "document", source: { type: "text", media_type: "text/plain", data: long }, title: "Doc A" },
        },
      },
    ]);
    const texts = (req.messages[1]!.content as Array<{ text: string }>).map((p) => p.text);
    assert.deepEqual(texts.slice(0, 3), [
      '[web_search: "q"]',
      "Web search error: unavailable",
      `[web_fetch: ${HITS[0]!.url}]`,
    ]);
    assert.ok(texts[3]!.startsWith(`Fetched ${HITS[0]!.url} (Doc A):\n`));
    assert.ok(texts[3]!.endsWith("[… page text cut here]"));
    assert.equal(texts[3]!.length, `Fetched ${HITS[0]!.url} (Doc A):\n`.length + MAX_FETCHED_TEXT_CHARS + 23);
  });
});
