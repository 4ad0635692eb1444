// Search results are the web's text relayed by a backend Patchbay does not control: a hostile SearXNG (mock on
// 127.0.0.1) answering control characters, bidi overrides, huge fields, non-http(s) and malformed URLs and fields of
// the wrong type. What reaches the model and the client is cleaned (sanitize.ts): no control characters but \n and
// \t, titles one line, every field capped, only well-formed http(s) URLs; one bad result never fails the search.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { ServerToolSpec } from "../../../server/core/contract";
import { outcomeText, runServerToolCall } from "../../../server/server-tools/execute";
import {
  cleanLine,
  MAX_PAGE_AGE_CHARS,
  MAX_SNIPPET_CHARS,
  MAX_TITLE_CHARS,
  sanitizeHits,
  stripControl,
} from "../../../server/server-tools/sanitize";
import { searxngBackend } from "../../../server/server-tools/searxng";
import { MockSearxng } from "../../harness/mock-searxng";

const SPEC: ServerToolSpec = { kind: "web_search", name: "web_search" };
// eslint-disable-next-line no-control-regex -- the test looks for them
const FORBIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
let mock: MockSearxng;

before(async () => {
  mock = await new MockSearxng().start();
});
after(async () => {
  await mock.stop();
});

describe("search result sanitizing", () => {
  test("a hostile backend: control characters stripped, fields capped, non-http(s) and malformed results dropped", async () => {
    mock.rawResults = [
      {
        url: "https://a.example.test/1",
        title: "Evil\u0000 title\r\nwith\u001b[31m ANSI\u202e and bidi\u0007",
        content: "line one\nline\ttwo\u0000\u0008 end\u009b",
        publishedDate: "2026-01-01\u0000" + "x".repeat(500),
      },
      { url: "https://b.example.test/2", title: "T".repeat(10_000), content: "S".repeat(100_000) },
      { url: "javascript:alert(1)", title: "js", content: "" },
      { url: "data:text/html,<script>", title: "data", content: "" },
      { url: "file:///etc/passwd", title: "file", content: "" },
      { url: "https://user:pw@c.example.test/", title: "credentials", content: "" },
      { url: "https://d.example.test/\u0000x", title: "control in URL", content: "" },
      { url: `https://e.example.test/${"p".repeat(3000)}`, title: "too long", content: "" },
      { url: "http://[not-a-host/", title: "malformed", content: "" },
      { url: 42, title: "number url" },
      { title: "no url" },
      "not an object",
      null,
      { url: "https://f.example.test/ok", title: { nested: true }, content: ["x"], publishedDate: 7 },
    ];
    try {
      const outcome = await runServerToolCall(
        SPEC,
        { query: "q" },
        { search: searxngBackend(mock.url), fetchPage: null, timeoutMs: 5000 },
        new AbortController().signal,
      );
      assert.ok(!("error" in outcome) && outcome.kind === "web_search", JSON.stringify(outcome));
      assert.deepEqual(
        outcome.hits.map((h) => h.url),
        ["https://a.example.test/1", "https://b.example.test/2", "https://f.example.test/ok"],
      );
      const [evil, big, typed] = outcome.hits;
      assert.equal(evil?.title, "Evil title with[31m ANSI and bidi");
      assert.equal(evil?.snippet, "line one\nline\ttwo end");
      assert.ok((evil?.pageAge ?? "").length <= MAX_PAGE_AGE_CHARS);
      assert.equal(big?.title.length, MAX_TITLE_CHARS);
      assert.ok(big?.title.endsWith("…"));
      assert.equal(big?.snippet.length, MAX_SNIPPET_CHARS);
      // Fields of the wrong type are ignored, not fatal: the title falls back to the URL.
      assert.deepEqual(typed, { url: "https://f.example.test/ok", title: "https://f.example.test/ok", snippet: "" });
      for (const h of outcome.hits) for (const v of Object.values(h)) assert.doesNotMatch(v, FORBIDDEN);
      assert.doesNotMatch(outcomeText(outcome), FORBIDDEN);
    } finally {
      mock.rawResults = null;
    }
  });

  test("the helpers: \\n and \\t kept in text, lines folded, surrogate pairs never cut in half", () => {
    assert.equal(stripControl("a\r\nb\rc\td\u0000e\u202ef"), "a\nb\nc\tdef");
    assert.equal(cleanLine("  a \n\n b\t c  ", 100), "a b c");
    const emoji = "😀".repeat(10); // 20 UTF-16 units
    const cut = cleanLine(emoji, 6);
    assert.ok(cut.endsWith("…") && cut.length <= 6, cut);
    assert.doesNotMatch(cut, /[\ud800-\udbff](?![\udc00-\udfff])/, "no lone high surrogate");
    assert.deepEqual(sanitizeHits([{ url: " https://x.test/ ", title: "", snippet: "" }]), [
      { url: "https://x.test/", title: "https://x.test/", snippet: "" },
    ]);
  });
});
