// Every message a web search or fetch can produce (the model reads it after `Error (<code>):`, the request log and
// the dashboard show it) is one sentence ending in exactly one period: a newcomer found "… 15000 ms.." where a
// backend's message that ended in "." was joined with another. The failures are provoked for real (mock SearXNG and
// pages on 127.0.0.1, a port nobody listens on, bad input) and every message produced is scanned.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { ServerToolOutcome, ServerToolSpec } from "../../../server/core/contract";
import { runServerToolCall, type ServerToolServices } from "../../../server/server-tools/execute";
import { urlKey } from "../../../server/server-tools/fetchable-urls";
import { searxngBackend } from "../../../server/server-tools/searxng";
import { sentence } from "../../../server/server-tools/sentence";
import { serverToolServices } from "../../../server/server-tools/services";
import { createWebFetcher } from "../../../server/server-tools/web-fetch";
import { MockSearxng } from "../../harness/mock-searxng";

const SEARCH: ServerToolSpec = { kind: "web_search", name: "web_search" };
let mock: MockSearxng;
let gone: string;

before(async () => {
  mock = await new MockSearxng().start();
  mock.pages.set("/notjson/search", { type: "text/html", body: "<html>not json</html>" });
  mock.pages.set("/nolist/search", { type: "application/json", body: '{"answers":[]}' });
  mock.pages.set("/pages/image", { type: "image/png", body: "png" });
  mock.pages.set("/pages/to-other", { location: "http://other.test/" });
  const stopped = await new MockSearxng().start();
  gone = stopped.url;
  await stopped.stop();
});
after(async () => {
  await mock.stop();
});

const signal = () => new AbortController().signal;
const searchAt = (url: string, timeoutMs = 5000): ServerToolServices => ({
  search: searxngBackend(url),
  fetchPage: null,
  timeoutMs,
});

/** Outcomes of every failure path of search and fetch. */
async function failures(): Promise<ServerToolOutcome[]> {
  const out: ServerToolOutcome[] = [];
  const s = (input: Record<string, unknown>, services: ServerToolServices) =>
    runServerToolCall(SEARCH, input, services, signal());
  out.push(await s({}, searchAt(mock.url)));
  out.push(await s({ query: "q".repeat(1001) }, searchAt(mock.url)));
  for (const why of ["Search is off for app 'x'.", "Search is off for app 'x'", "Off..."])
    out.push(await s({ query: "q" }, { search: null, searchUnavailable: why, fetchPage: null, timeoutMs: 1 }));
  mock.mode = "error";
  out.push(await s({ query: "q" }, searchAt(mock.url)));
  mock.mode = "hang";
  out.push(await s({ query: "q" }, searchAt(mock.url, 200)));
  mock.mode = "ok";
  out.push(await s({ query: "q" }, searchAt(`${mock.url}/notjson`)));
  out.push(await s({ query: "q" }, searchAt(`${mock.url}/nolist`)));
  out.push(await s({ query: "q" }, searchAt(`${mock.url}/missing`)));
  out.push(await s({ query: "q" }, searchAt(gone)));
  for (const url of ["ftp://x.test/", "not a url"]) {
    const services = serverToolServices({
      searchUrl: () => url,
      webSearchOn: () => true,
      fetchPage: createWebFetcher(),
    })("app");
    out.push(await s({ query: "q" }, services));
  }
  out.push(
    await s(
      { query: "q" },
      serverToolServices({ searchUrl: () => null, webSearchOn: () => true, fetchPage: createWebFetcher() })("app"),
    ),
  );
  out.push(
    await s(
      { query: "q" },
      serverToolServices({ searchUrl: () => mock.url, webSearchOn: () => false, fetchPage: createWebFetcher() })("app"),
    ),
  );

  const pages = [
    `${mock.url}/pages/none`,
    `${mock.url}/pages/image`,
    `${mock.url}/pages/to-other`,
    `${gone}/pages/x`,
    "http://127.0.0.1:1/",
    "https://user:pw@example.test/",
    "ftp://example.test/file",
  ];
  const fetchSpec: ServerToolSpec = {
    kind: "web_fetch",
    name: "web_fetch",
    blockedDomains: ["blocked.test"],
    fetchScope: { urls: pages.map((p) => urlKey(p) ?? p), serverToolResults: { type: "all" } },
  };
  const loopback = createWebFetcher({ allowAddress: (ip) => ip === "127.0.0.1", resolve: async () => ["127.0.0.1"] });
  const f = (input: Record<string, unknown>, fetchPage = loopback, timeoutMs = 5000) =>
    runServerToolCall(fetchSpec, input, { search: null, fetchPage, timeoutMs }, signal());
  out.push(await f({}));
  out.push(await f({ url: `https://x.test/${"a".repeat(2100)}` }));
  out.push(await f({ url: "::not a url" }));
  out.push(await f({ url: "https://blocked.test/" }));
  out.push(await f({ url: "https://never-named.test/" }));
  for (const page of pages) out.push(await f({ url: page }));
  out.push(await f({ url: pages[0] }, createWebFetcher())); // loopback refused by the default guard
  out.push(
    await runServerToolCall(fetchSpec, { url: pages[0] }, { search: null, fetchPage: null, timeoutMs: 1 }, signal()),
  );
  return out;
}

describe("server tool messages", () => {
  test("sentence(): one period whatever the parts end in", () => {
    assert.equal(
      sentence("Web search failed", "X did not answer within 15000 ms."),
      "Web search failed: X did not answer within 15000 ms.",
    );
    assert.equal(sentence("a..", " b . "), "a: b.");
    assert.equal(sentence("fetch failed"), "fetch failed.");
    assert.equal(sentence("Is json enabled?"), "Is json enabled?");
  });

  test("every failure of search and fetch: an error outcome whose message ends in exactly one period", async () => {
    const outcomes = await failures();
    assert.ok(outcomes.length >= 25, String(outcomes.length));
    const messages: string[] = [];
    for (const o of outcomes) {
      assert.ok("error" in o, `expected a failure: ${JSON.stringify(o)}`);
      messages.push(o.message);
    }
    for (const m of messages) {
      assert.match(m, /[^.\s]\.$/, `one final period: ${JSON.stringify(m)}`);
      assert.doesNotMatch(m, /\.\.|\. \./, `no doubled period: ${JSON.stringify(m)}`);
      assert.doesNotMatch(m, /\bimages?\b(?!\/)/i, `a page, not an image: ${JSON.stringify(m)}`);
    }
    // The cases behind the findings, word for word.
    assert.ok(
      messages.includes(`Web search failed: SearXNG at ${mock.url} did not answer within 200 ms.`),
      messages.join("\n"),
    );
    assert.ok(
      messages.some((m) => /could not be reached \(ECONNREFUSED\)\.$/.test(m)),
      messages.join("\n"),
    );
    // A page's media type stays as the server sent it.
    assert.ok(
      messages.some((m) => m.includes("is not text: content-type 'image/png'")),
      messages.join("\n"),
    );
  });
});
