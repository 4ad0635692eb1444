// The SearXNG-compatible backend over real HTTP against the mock SearXNG on 127.0.0.1, run the way a server tool call
// runs it (runServerToolCall with its timeout): hits parsed, and a backend that hangs, fails or answers something else
// gives Anthropic's `unavailable` error outcome with a reason, within the call's bound (a hanging backend can only be
// ended by the timeout: the mock never answers).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { runServerToolCall, type ServerToolServices } from "../../../server/server-tools/execute";
import { searxngBackend } from "../../../server/server-tools/searxng";
import type { ServerToolSpec } from "../../../server/core/contract";
import { MockSearxng } from "../../harness/mock-searxng";
import { waitFor } from "../../harness/wait-for";

const SPEC: ServerToolSpec = { kind: "web_search", name: "web_search" };
let mock: MockSearxng;

before(async () => {
  mock = await new MockSearxng().start();
});
after(async () => {
  await mock.stop();
});

function services(timeoutMs = 5000, url = mock.url): ServerToolServices {
  return { search: searxngBackend(url), fetchPage: null, timeoutMs };
}

describe("SearXNG backend", () => {
  test("parses the JSON answer into hits (http(s) URLs only, title falls back to the URL)", async () => {
    mock.mode = "ok";
    mock.hits = [
      { url: "https://a.example.test/1", title: " First ", content: "one" },
      { url: "javascript:alert(1)", title: "bad", content: "" },
      { url: "https://b.example.test/2", title: "", content: "two" },
    ];
    const outcome = await runServerToolCall(SPEC, { query: "x y" }, services(), new AbortController().signal);
    assert.deepEqual(outcome, {
      kind: "web_search",
      query: "x y",
      hits: [
        { url: "https://a.example.test/1", title: "First", snippet: "one" },
        { url: "https://b.example.test/2", title: "https://b.example.test/2", snippet: "two" },
      ],
    });
    assert.equal(mock.queries.at(-1), "x y");
  });

  test("a hanging backend: `unavailable` naming the timeout, once the bound has passed", async () => {
    mock.mode = "hang";
    try {
      const outcome = await runServerToolCall(SPEC, { query: "hang" }, services(300), new AbortController().signal);
      assert.ok("error" in outcome, JSON.stringify(outcome));
      assert.equal(outcome.error, "unavailable");
      assert.equal(outcome.message, `Web search failed: SearXNG at ${mock.url} did not answer within 300 ms.`);
      assert.equal(mock.queries.at(-1), "hang", "the request reached the backend, which never answered");
    } finally {
      mock.mode = "ok";
    }
  });

  test("a failing backend: `unavailable` with its HTTP status", async () => {
    mock.mode = "error";
    try {
      const outcome = await runServerToolCall(SPEC, { query: "boom" }, services(), new AbortController().signal);
      assert.ok("error" in outcome);
      assert.equal(outcome.error, "unavailable");
      assert.equal(outcome.message, `Web search failed: SearXNG at ${mock.url} answered HTTP 500.`);
    } finally {
      mock.mode = "ok";
    }
  });

  test("a backend that is not SearXNG (404 page, refused connection): `unavailable`, never hits", async () => {
    const wrongPath = await runServerToolCall(
      SPEC,
      { query: "q" },
      services(5000, `${mock.url}/pages/none`),
      new AbortController().signal,
    );
    assert.ok("error" in wrongPath);
    assert.match(wrongPath.message, /answered HTTP 404/);
    // A port nothing listens on (the mock's, after a fresh mock is stopped).
    const gone = await new MockSearxng().start();
    const goneUrl = gone.url;
    await gone.stop();
    const refused = await runServerToolCall(
      SPEC,
      { query: "q" },
      services(5000, goneUrl),
      new AbortController().signal,
    );
    assert.ok("error" in refused);
    assert.equal(refused.error, "unavailable");
  });

  test("the client leaving aborts a hanging search at once (before the timeout)", async () => {
    mock.mode = "hang";
    try {
      const leave = new AbortController();
      const pending = runServerToolCall(SPEC, { query: "left" }, services(60_000), leave.signal);
      await waitFor("the mock to receive the query", () => mock.queries.includes("left"));
      leave.abort();
      const outcome = await pending;
      assert.ok("error" in outcome);
      assert.equal(outcome.error, "unavailable");
      assert.doesNotMatch(outcome.message, /did not answer within/);
    } finally {
      mock.mode = "ok";
    }
  });
});
