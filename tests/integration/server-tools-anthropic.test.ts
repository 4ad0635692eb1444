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
let key: string;
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
  key = await fx.createKey(APP);
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

  test("web fetch of a URL the conversation never named: url_not_in_prior_context, and the page is never requested", async () => {
    search.pages.set("/pages/secret", { type: "text/plain", body: "never to be read" });
    const madeUp = `${search.url}/pages/secret?leak=1`;
    fx.mock.reset();
    fx.mock.script(
      { toolCalls: [{ name: "web_fetch", arguments: { url: madeUp } }], finishReason: "tool_calls" },
      { text: "I could not fetch it." },
    );
    const before = search.pageRequests.length;
    const r = await client.messages.create({
      model: MODEL,
      max_tokens: 200,
      tools: [{ type: "web_fetch_20250910", name: "web_fetch" } as unknown as Anthropic.ToolUnion],
      messages: [{ role: "user", content: "Summarise the secret page." }],
    });
    assert.deepEqual(r.content[1], {
      type: "web_fetch_tool_result",
      tool_use_id: (r.content[0] as { id: string }).id,
      caller: { type: "direct" },
      content: { type: "web_fetch_tool_result_error", error_code: "url_not_in_prior_context" },
    });
    assert.equal(r.content[2]?.type, "text");
    assert.deepEqual(search.pageRequests.slice(before), [], "the made-up URL is never requested");
    assert.deepEqual(r.usage.server_tool_use, { web_search_requests: 0, web_fetch_requests: 0 });
  });

  test("hostile search results: a search hit's page is fetchable in the same request; junk never reaches the client", async () => {
    search.pages.set("/pages/hit", { type: "text/plain", body: "The hit's page." });
    const hitUrl = `${search.url}/pages/hit`;
    search.rawResults = [
      { url: hitUrl, title: "Hit\u0000 page\u202e\r\nline two", content: "snippet\u0007" },
      { url: "javascript:alert(document.cookie)", title: "xss", content: "" },
      { url: 5, title: "number" },
    ];
    try {
      fx.mock.reset();
      fx.mock.script(
        { toolCalls: [{ name: "web_search", arguments: { query: "hit" } }], finishReason: "tool_calls" },
        { toolCalls: [{ name: "web_fetch", arguments: { url: hitUrl } }], finishReason: "tool_calls" },
        { text: "Read it." },
      );
      const r = await client.messages.create({
        model: MODEL,
        max_tokens: 200,
        tools: [WEB_SEARCH, { type: "web_fetch_20250910", name: "web_fetch" } as unknown as Anthropic.ToolUnion],
        messages: [{ role: "user", content: "Find the hit and read it." }],
      });
      assert.deepEqual(
        r.content.map((b) => b.type),
        ["server_tool_use", "web_search_tool_result", "server_tool_use", "web_fetch_tool_result", "text"],
      );
      const hits = r.content[1];
      assert.ok(hits?.type === "web_search_tool_result" && Array.isArray(hits.content));
      assert.deepEqual(
        hits.content.map((h) => [h.url, h.title]),
        [[hitUrl, "Hit page line two"]],
      );
      const fetched = r.content[3] as unknown as { content: { type: string; url: string } };
      assert.equal(fetched.content.type, "web_fetch_result");
      assert.equal(fetched.content.url, hitUrl);
      assert.deepEqual(r.usage.server_tool_use, { web_search_requests: 1, web_fetch_requests: 1 });
    } finally {
      search.rawResults = null;
    }
  });

  test("malformed server tool history: 400 in Anthropic's envelope naming the field; the model is never asked", async () => {
    fx.mock.reset();
    const post = (assistant: unknown[]) =>
      fetch(`${fx.apiBase}/messages`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": key, "anthropic-version": "2023-06-01" },
        body: JSON.stringify({
          model: MODEL,
          max_tokens: 50,
          tools: [WEB_SEARCH],
          messages: [
            { role: "user", content: "q" },
            { role: "assistant", content: assistant },
            { role: "user", content: "and?" },
          ],
        }),
      });
    const use = { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "q" } };
    const cases: Array<[unknown[], string]> = [
      [
        [
          use,
          {
            type: "web_search_tool_result",
            tool_use_id: "srvtoolu_1",
            content: [{ type: "web_search_result", title: "t" }],
          },
        ],
        "messages[1].content[1].content[0].url",
      ],
      [[{ ...use, input: "q" }], "messages[1].content[0].input"],
      [
        [
          {
            type: "web_fetch_tool_result",
            tool_use_id: "srvtoolu_9",
            content: { type: "web_fetch_tool_result_error", error_code: "unavailable" },
          },
        ],
        "messages[1].content[0].tool_use_id",
      ],
    ];
    for (const [assistant, field] of cases) {
      const res = await post(assistant);
      const body = (await res.json()) as { type: string; error: { type: string; message: string } };
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(body.type, "error");
      assert.equal(body.error.type, "invalid_request_error");
      assert.ok(body.error.message.includes(`'${field}'`), body.error.message);
    }
    assert.equal(fx.mock.chatRequests().length, 0);
  });
});
