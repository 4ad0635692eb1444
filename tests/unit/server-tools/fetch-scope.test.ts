// Web fetch may only fetch URLs the conversation contains (Anthropic's "Web fetch tool" rule; error code
// `url_not_in_prior_context`, WebFetchToolResultErrorCode in @anthropic-ai/sdk): URL keys, URLs found in text, the
// check in runServerToolCall, and the loop adding this request's search hits and fetched pages' links, as
// `url_sources.server_tool_results` allows.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { ModelBackend, ModelEvent, ServerToolOutcome, ServerToolSpec } from "../../../server/core/contract";
import { serverToolResultBlock } from "../../../server/server-tools/anthropic-blocks";
import { runServerToolCall, type PageFetcher, type ServerToolServices } from "../../../server/server-tools/execute";
import { MAX_URLS_PER_TEXT, urlKey, urlKeysInText } from "../../../server/server-tools/fetchable-urls";
import { withServerTools } from "../../../server/server-tools/loop";

const USAGE = { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0, reasoningTokens: 0 };

/** A fetcher that serves every URL with a page linking to `links`, and records what it fetched. */
function fakeFetcher(links: string[] = []): PageFetcher & { fetched: string[] } {
  const fetched: string[] = [];
  const fetch: PageFetcher = async (url) => {
    fetched.push(url);
    return {
      kind: "web_fetch",
      url,
      title: "T",
      mediaType: "text/html",
      text: `Page. ${links.map((l) => `link [${l}]`).join(" ")}`,
      retrievedAt: "2026-01-01T00:00:00.000Z",
    } satisfies ServerToolOutcome;
  };
  return Object.assign(fetch, { fetched });
}

function services(fetchPage: PageFetcher, hits: string[] = []): ServerToolServices {
  return {
    search: {
      label: "fake",
      search: async () => hits.map((url) => ({ url, title: url, snippet: "" })),
    },
    fetchPage,
    timeoutMs: 5000,
  };
}

const FETCH = (urls: string[], serverToolResults: { type: "all" } | { type: "none" } = { type: "all" }) =>
  ({
    kind: "web_fetch",
    name: "web_fetch",
    fetchScope: { urls: urls.map((u) => urlKey(u)!), serverToolResults },
  }) satisfies ServerToolSpec;

describe("fetchable URLs", () => {
  test("urlKey: scheme, fragment, trailing slash and host case do not matter; query does; non-http is null", () => {
    assert.equal(urlKey("https://Example.com/a/"), "example.com/a");
    assert.equal(urlKey("http://example.com/a#top"), "example.com/a");
    assert.equal(urlKey("example.com/a"), "example.com/a");
    assert.equal(urlKey("https://example.com:443/"), "example.com");
    assert.notEqual(urlKey("https://example.com/a?secret=1"), urlKey("https://example.com/a"));
    assert.equal(urlKey("file:///etc/passwd"), null);
    assert.equal(urlKey("javascript:alert(1)"), null);
    assert.equal(urlKey("not a url"), null);
  });

  test("urlKeysInText: full and scheme-less URLs in prose, trailing punctuation dropped, balanced parens kept", () => {
    assert.deepEqual(
      urlKeysInText(
        "See https://docs.example.com/guide. Also (https://en.wikipedia.org/wiki/Foo_(bar)), and blog.example.org/post!",
      ),
      ["docs.example.com/guide", "en.wikipedia.org/wiki/Foo_(bar)", "blog.example.org/post"],
    );
    assert.deepEqual(urlKeysInText("version 2.0 of the thing, e.g. this"), []);
    assert.deepEqual(
      urlKeysInText("markdown [docs](https://docs.example.com/x) and html-to-text link [https://y.example.com/]"),
      ["docs.example.com/x", "y.example.com"],
    );
  });

  test("urlKeysInText on hostile pages (a fetched page is attacker text): linear work, capped count", () => {
    // Each of these took seconds to minutes with a regex over the whole text or a trim that recounted parens: the
    // page text of one fetch is up to 100 000 characters, and each is scanned.
    assert.deepEqual(urlKeysInText(`${"a.".repeat(200_000)}1`), []);
    assert.deepEqual(urlKeysInText(`https://a.example.com/${")".repeat(4000)} `.repeat(50)).length, 50);
    assert.equal(urlKeysInText("https://a.example.com/x ".repeat(10_000)).length, MAX_URLS_PER_TEXT);
  });

  test("a URL the conversation never named: url_not_in_prior_context, and nothing is fetched", async () => {
    const fetcher = fakeFetcher();
    const signal = new AbortController().signal;
    const spec = FETCH(["https://docs.example.com/guide"]);
    const made = await runServerToolCall(
      spec,
      { url: "https://evil.example.net/?q=secret" },
      services(fetcher),
      signal,
    );
    assert.deepEqual(made, {
      kind: "web_fetch",
      error: "url_not_in_prior_context",
      message:
        "Only URLs that appeared in the conversation (from the user, a tool result, a search or an earlier fetch) can be fetched.",
    });
    // A query appended to a known URL is a different URL (how data would leave).
    const smuggled = await runServerToolCall(
      spec,
      { url: "https://docs.example.com/guide?d=secret" },
      services(fetcher),
      signal,
    );
    assert.ok("error" in smuggled && smuggled.error === "url_not_in_prior_context");
    // The client reads Anthropic's own error code, in a web_fetch_tool_result error block.
    assert.deepEqual(serverToolResultBlock("srvtoolu_1", made).content, {
      type: "web_fetch_tool_result_error",
      error_code: "url_not_in_prior_context",
    });
    // A spec without a scope knows no URL at all.
    const bare = await runServerToolCall(
      { kind: "web_fetch", name: "web_fetch" },
      { url: "https://docs.example.com/guide" },
      services(fetcher),
      signal,
    );
    assert.ok("error" in bare && bare.error === "url_not_in_prior_context");
    assert.deepEqual(fetcher.fetched, []);
    const known = await runServerToolCall(spec, { url: "http://docs.example.com/guide/" }, services(fetcher), signal);
    assert.ok(!("error" in known), JSON.stringify(known));
    assert.deepEqual(fetcher.fetched, ["http://docs.example.com/guide/"]);
  });

  /** Runs the loop: the model searches, then fetches each of `fetches`, then answers; returns the fetch outcomes. */
  async function loop(spec: ServerToolSpec, fetches: string[], hits: string[], links: string[] = []) {
    const steps: ModelEvent[][] = [
      [
        { type: "tool-call", id: "s", name: "web_search", arguments: JSON.stringify({ query: "q" }) },
        { type: "finish", reason: "tool_calls", usage: USAGE },
      ],
      ...fetches.map((url, i): ModelEvent[] => [
        { type: "tool-call", id: `f${i}`, name: "web_fetch", arguments: JSON.stringify({ url }) },
        { type: "finish", reason: "tool_calls", usage: USAGE },
      ]),
      [
        { type: "text-delta", delta: "done" },
        { type: "finish", reason: "stop", usage: USAGE },
      ],
    ];
    const backend: ModelBackend = {
      listModels: () => Promise.resolve([]),
      async *stream() {
        yield { type: "start", sessionId: "ses", warnings: [] };
        for (const e of steps.shift() ?? []) yield e;
      },
    };
    const fetcher = fakeFetcher(links);
    const wrapped = withServerTools(backend, { services: () => services(fetcher, hits) });
    const events: ModelEvent[] = [];
    const request = {
      model: "m",
      system: [],
      messages: [{ role: "user" as const, content: [{ type: "text" as const, text: "q?" }] }],
      tools: [],
      toolChoice: "auto" as const,
      generation: {},
      responseFormat: { type: "text" as const },
      stream: false,
      includeUsage: true,
      warnings: [],
      serverTools: [{ kind: "web_search" as const, name: "web_search" }, spec],
    };
    for await (const e of wrapped.stream({ app: "a", model: {} as never, request }, new AbortController().signal))
      events.push(e);
    const outcomes = events.flatMap((e) =>
      e.type === "server-tool-result" && e.outcome.kind === "web_fetch" ? [e.outcome] : [],
    );
    return { outcomes, fetched: fetcher.fetched };
  }

  test("in one request, a search's hits and a fetched page's links become fetchable; made-up URLs do not", async () => {
    const { outcomes, fetched } = await loop(
      FETCH([]),
      ["https://hit.example.com/a", "https://linked.example.com/b", "https://made-up.example.com/c"],
      ["https://hit.example.com/a"],
      ["https://linked.example.com/b"],
    );
    assert.deepEqual(
      outcomes.map((o) => ("error" in o ? o.error : "ok")),
      ["ok", "ok", "url_not_in_prior_context"],
    );
    assert.deepEqual(fetched, ["https://hit.example.com/a", "https://linked.example.com/b"]);
  });

  test("url_sources.server_tool_results none: search hits add nothing", async () => {
    const { outcomes, fetched } = await loop(
      FETCH(["https://user.example.com/"], { type: "none" }),
      ["https://hit.example.com/a", "https://user.example.com"],
      ["https://hit.example.com/a"],
    );
    assert.deepEqual(
      outcomes.map((o) => ("error" in o ? o.error : "ok")),
      ["url_not_in_prior_context", "ok"],
    );
    assert.deepEqual(fetched, ["https://user.example.com"]);
  });
});
