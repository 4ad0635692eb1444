// Web search / fetch server tools on /v1/messages, end to end: the official Anthropic SDK offers
// `web_search_20250305` (and `web_fetch_20250910`), the scripted mock model calls it through real OpenCode, Patchbay
// runs the search against a mock SearXNG on loopback, and the SDK reads native `server_tool_use` +
// `web_search_tool_result` blocks; the model's continuation request carries the results.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import Anthropic from "@anthropic-ai/sdk";
import { startPatchbayFixture, type PatchbayFixture } from "../harness/patchbay-fixture";
import { MockSearxng } from "../harness/mock-searxng";

let fx: PatchbayFixture;
let search: MockSearxng;
let client: Anthropic;
const MODEL = "mock/mock-model";
const APP = "web-anthropic";
const HITS = [
  { url: "https://docs.example.test/release", title: "Patchbay 2.0 release notes", content: "Patchbay 2.0 shipped." },
  { url: "https://blog.example.test/post", title: "Blog: Patchbay", content: "A post about Patchbay." },
];
const WEB_SEARCH = { type: "web_search_20250305", name: "web_search", max_uses: 3 } as const;

before(async () => {
  search = await new MockSearxng().start();
  search.hits = HITS;
  fx = await startPatchbayFixture({
    serverTools: { searchUrl: search.url, webFetchAllowAddress: (ip) => ip === "127.0.0.1" },
  });
  const key = await fx.createKey(APP);
  client = new Anthropic({ apiKey: key, baseURL: fx.apiBase.replace(/\/v1$/, ""), maxRetries: 0, timeout: 120_000 });
});
after(async () => {
  await fx?.stop();
  await search?.stop();
});

const chatBodies = () => fx.mock.chatRequests().map((r) => r.body);

function scriptSearchThenAnswer(): void {
  fx.mock.reset();
  fx.mock.script(
    { toolCalls: [{ name: "web_search", arguments: { query: "patchbay release" } }], finishReason: "tool_calls" },
    { text: "Patchbay 2.0 shipped (docs.example.test)." },
  );
}

describe("anthropic web search server tool", () => {
  test("create: server_tool_use + web_search_tool_result with the backend's hits; continuation carries them", async () => {
    scriptSearchThenAnswer();
    search.queries.length = 0;
    const r = await client.messages.create({
      model: MODEL,
      max_tokens: 200,
      tools: [WEB_SEARCH],
      messages: [{ role: "user", content: "What is new in Patchbay?" }],
    });
    assert.equal(r.content.length, 3, JSON.stringify(r.content));
    const [use, result, text] = r.content;
    assert.equal(use?.type, "server_tool_use");
    assert.ok(use?.type === "server_tool_use");
    assert.equal(use.name, "web_search");
    assert.deepEqual(use.input, { query: "patchbay release" });
    assert.match(use.id, /^srvtoolu_/);
    assert.ok(result?.type === "web_search_tool_result");
    assert.equal(result.tool_use_id, use.id);
    assert.ok(Array.isArray(result.content));
    assert.deepEqual(
      result.content.map((h) => [h.type, h.url, h.title]),
      HITS.map((h) => ["web_search_result", h.url, h.title]),
    );
    assert.ok(text?.type === "text");
    assert.equal(text.text, "Patchbay 2.0 shipped (docs.example.test).");
    assert.equal(r.stop_reason, "end_turn");
    assert.deepEqual(r.usage.server_tool_use, { web_search_requests: 1, web_fetch_requests: 0 });
    assert.deepEqual(search.queries, ["patchbay release"]);
    // Two model steps: the second one saw the search results as the web_search tool's result.
    const bodies = chatBodies();
    assert.equal(bodies.length, 2);
    const offered = (bodies[0]?.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    assert.deepEqual(offered, ["web_search"]);
    const toolMessage = (bodies[1]?.messages as Array<{ role: string; content: unknown }>).find(
      (m) => m.role === "tool",
    );
    assert.ok(toolMessage, JSON.stringify(bodies[1]?.messages));
    const content = JSON.stringify(toolMessage.content);
    for (const h of HITS) assert.ok(content.includes(h.url) && content.includes(h.title), content);
  });

  test("stream: the SDK's MessageStream assembles the same blocks", async () => {
    scriptSearchThenAnswer();
    const stream = client.messages.stream({
      model: MODEL,
      max_tokens: 200,
      tools: [WEB_SEARCH],
      messages: [{ role: "user", content: "What is new in Patchbay?" }],
    });
    const final = await stream.finalMessage();
    assert.deepEqual(
      final.content.map((b) => b.type),
      ["server_tool_use", "web_search_tool_result", "text"],
    );
    const use = final.content[0];
    assert.ok(use?.type === "server_tool_use");
    assert.deepEqual(use.input, { query: "patchbay release" });
    const result = final.content[1];
    assert.ok(result?.type === "web_search_tool_result" && Array.isArray(result.content));
    assert.equal(result.content[0]?.url, HITS[0]!.url);
    assert.equal(final.usage.server_tool_use?.web_search_requests, 1);
  });

  test("search off for the app: a native unavailable error, never model text; the model still answers", async () => {
    await fx.admin.updateApp({ params: { name: APP }, body: { webSearch: false } });
    try {
      scriptSearchThenAnswer();
      search.queries.length = 0;
      const r = await client.messages.create({
        model: MODEL,
        max_tokens: 200,
        tools: [WEB_SEARCH],
        messages: [{ role: "user", content: "What is new in Patchbay?" }],
      });
      const result = r.content[1];
      assert.ok(result?.type === "web_search_tool_result");
      assert.deepEqual(result.content, { type: "web_search_tool_result_error", error_code: "unavailable" });
      assert.deepEqual(search.queries, []);
      assert.deepEqual(r.usage.server_tool_use, { web_search_requests: 0, web_fetch_requests: 0 });
      const toolMessage = (chatBodies()[1]?.messages as Array<{ role: string; content: unknown }>).find(
        (m) => m.role === "tool",
      );
      assert.match(JSON.stringify(toolMessage?.content), /unavailable/);
    } finally {
      await fx.admin.updateApp({ params: { name: APP }, body: { webSearch: true } });
    }
  });

  test("a failing backend gives the native error; the request still completes", async () => {
    search.mode = "error";
    try {
      scriptSearchThenAnswer();
      const r = await client.messages.create({
        model: MODEL,
        max_tokens: 200,
        tools: [WEB_SEARCH],
        messages: [{ role: "user", content: "What is new in Patchbay?" }],
      });
      const result = r.content[1];
      assert.ok(result?.type === "web_search_tool_result");
      assert.deepEqual(result.content, { type: "web_search_tool_result_error", error_code: "unavailable" });
      assert.equal(r.content[2]?.type, "text");
    } finally {
      search.mode = "ok";
    }
  });

  test("web fetch: a page on the (test-allowed) loopback host comes back as a web_fetch_tool_result document", async () => {
    search.pages.set("/pages/a", {
      type: "text/html; charset=utf-8",
      body: "<html><head><title>Page A</title></head><body><h1>Hello</h1><p>Fetched text.</p></body></html>",
    });
    const pageUrl = `${search.url}/pages/a`;
    fx.mock.reset();
    fx.mock.script(
      { toolCalls: [{ name: "web_fetch", arguments: { url: pageUrl } }], finishReason: "tool_calls" },
      { text: "The page says hello." },
    );
    const r = await client.messages.create({
      model: MODEL,
      max_tokens: 200,
      tools: [{ type: "web_fetch_20250910", name: "web_fetch" } as unknown as Anthropic.ToolUnion],
      messages: [{ role: "user", content: `Read ${pageUrl}` }],
    });
    const result = r.content[1] as unknown as { type: string; content: Record<string, unknown> };
    assert.equal(result.type, "web_fetch_tool_result");
    assert.equal(result.content.type, "web_fetch_result");
    assert.equal(result.content.url, pageUrl);
    const doc = result.content.content as { type: string; title: string; source: { data: string } };
    assert.equal(doc.type, "document");
    assert.equal(doc.title, "Page A");
    assert.match(doc.source.data, /Fetched text\./);
    assert.deepEqual(r.usage.server_tool_use, { web_search_requests: 0, web_fetch_requests: 1 });
    const toolMessage = (chatBodies()[1]?.messages as Array<{ role: string; content: unknown }>).find(
      (m) => m.role === "tool",
    );
    assert.match(JSON.stringify(toolMessage?.content), /Fetched text\./);
  });
});
