// Web search through Patchbay with the REAL coding agents (issue 23): Claude Code's WebSearch tool (`claude -p`) and
// Codex's hosted `web_search` tool (`codex exec`), one Patchbay with a mock SearXNG on loopback. The scripted mock
// model asks for a search; Patchbay runs it against the mock backend; what the agent hands its model next is checked
// at the mock upstream: the mock's URLs and titles, or, with search off for the app, a native error (never the model's
// own words dressed up as results). Claude Code's WebFetch is the client's own tool: Claude Code fetches a page on a
// loopback HTTPS server itself and has the model read it through Patchbay (a request of its own).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startPatchbayFixture, type PatchbayFixture } from "../harness/patchbay-fixture";
import type { MockReply, RecordedRequest } from "../harness/mock-upstream";
import { MockSearxng } from "../harness/mock-searxng";
import { LOOPBACK_CA_FILE, LoopbackHttpsPages } from "../harness/loopback-https";
import type { LogServerToolCall } from "../../shared/log-entry";
import {
  describeRun,
  runClaudePrint,
  runCodexExec,
  testCodexArgs,
  writeCodexSnippetConfig,
  type CliRun,
} from "../harness/agent-cli";

type Json = Record<string, unknown>;

const MODEL = "mock/mock-model";
const RUN_TIMEOUT_MS = 180_000;
const HITS = [
  {
    url: "https://docs.example.test/patchbay-2",
    title: "Patchbay 2.0 release notes",
    content: "Patchbay 2.0 shipped.",
  },
  { url: "https://news.example.test/tray", title: "Tray apps in 2026", content: "A survey of tray apps." },
];
const QUERY = "patchbay 2.0 release";
/** The model's own words in the search sub-request: must never reach the main agent as a search result. */
const MODEL_WORDS = "MODEL-OWN-WORDS-8812";
const CLAUDE_FINAL = "CLAUDE-FINAL-AFTER-SEARCH-31";
/** What the scripted model says when its search tool reported an error. */
const SEARCH_FAILED = "SEARCH-FAILED-NOTE-5";

let fx: PatchbayFixture;
let search: MockSearxng;
let tmp: string;
let claudeKey: string;
let codexKey: string;

before(async () => {
  search = await new MockSearxng().start();
  search.hits = HITS;
  fx = await startPatchbayFixture({ serverTools: { searchUrl: search.url } });
  claudeKey = await fx.createKey("claude-code");
  codexKey = await fx.createKey("codex");
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pb-websearch-"));
});
after(async () => {
  await fx?.stop();
  await search?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** The searches of `app`'s newest logged request that ran any (the request log's `serverTools`, `ms` left out). */
async function loggedSearches(app: string): Promise<Array<Omit<LogServerToolCall, "ms">>> {
  const logs = await fx.admin.queryLogs({ query: { app } });
  const entry = logs.entries.find((e) => e.serverTools?.length);
  return (entry?.serverTools ?? []).map(({ ms, ...rest }) => {
    assert.ok(ms >= 0);
    return rest;
  });
}
const messagesOf = (r: RecordedRequest | undefined) => ((r?.body.messages as Json[] | undefined) ?? []) as Json[];
const toolNamesOf = (r: RecordedRequest | undefined) =>
  ((r?.body.tools as Json[] | undefined) ?? []).map((t) => String((t.function as Json).name));
const textOf = (content: unknown): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content.map((p: { text?: string }) => p.text ?? "").join("")
      : "";

describe("Claude Code's WebSearch through Patchbay", () => {
  /** The mock model, by what it is asked. Claude Code's WebSearch tool sends its own request whose only tool is the
   *  server tool (Patchbay offers it as the `web_search` function): search, then summarise in the model's words. The
   *  main agent: call WebSearch for the prompt, answer after its result; Claude Code's side asks get plain text. */
  function respond(rec: RecordedRequest): MockReply {
    const messages = messagesOf(rec);
    const last = messages.at(-1);
    const tools = toolNamesOf(rec);
    if (tools.length === 1 && tools[0] === "web_search")
      return last?.role !== "tool"
        ? { toolCalls: [{ id: "call_ws_1", name: "web_search", arguments: { query: QUERY } }] }
        : textOf(last.content).startsWith("Error (")
          ? { text: SEARCH_FAILED }
          : { text: `${MODEL_WORDS}: Patchbay 2.0 shipped.` };
    if (last?.role === "tool") return { text: CLAUDE_FINAL };
    if (JSON.stringify(messages.filter((m) => m.role === "user")).includes("SEARCH_THE_WEB"))
      return { toolCalls: [{ id: "call_cc_ws", name: "WebSearch", arguments: { query: QUERY } }] };
    return { text: "plain" };
  }

  function runClaude(name: string): Promise<CliRun> {
    const cwd = path.join(tmp, name);
    fs.mkdirSync(cwd, { recursive: true });
    return runClaudePrint({
      apiRoot: fx.apiBase.replace(/\/v1$/, ""),
      model: MODEL,
      key: claudeKey,
      home: path.join(tmp, `home-${name}`),
      cwd,
      prompt: "SEARCH_THE_WEB: what is new in Patchbay 2.0?",
      args: ["--allowedTools", "WebSearch"],
      timeoutMs: RUN_TIMEOUT_MS,
    });
  }

  /** The main agent's follow-up request: the one whose tool message answers the WebSearch call. */
  function webSearchToolResult(): string {
    const followUp = fx.mock
      .chatRequests()
      .find((r) => messagesOf(r).some((m) => m.role === "tool" && m.tool_call_id === "call_cc_ws"));
    assert.ok(followUp, `the WebSearch result reached the upstream; requests: ${fx.mock.chatRequests().length}`);
    const tool = messagesOf(followUp).find((m) => m.role === "tool" && m.tool_call_id === "call_cc_ws");
    return textOf(tool?.content);
  }

  test("the main agent's WebSearch result holds the mock SearXNG's URLs and titles", async () => {
    fx.mock.reset();
    fx.mock.setResponder(respond);
    search.queries.length = 0;
    const r = await runClaude("on");
    assert.equal(r.code, 0, describeRun(r));
    assert.equal(r.stdout.trim(), CLAUDE_FINAL, describeRun(r));
    assert.deepEqual(search.queries, [QUERY], "Patchbay ran the search against the backend once");
    const result = webSearchToolResult();
    assert.doesNotMatch(result, /Web search error/, result);
    // The request log's record of WebSearch's own request names the search it ran.
    assert.deepEqual(await loggedSearches("claude-code"), [
      { kind: "web_search", target: QUERY, backend: `SearXNG at ${search.url}`, results: HITS.length },
    ]);
    for (const h of HITS) {
      assert.ok(result.includes(h.url), `${h.url} in the tool result: ${result}`);
      assert.ok(result.includes(h.title), `${h.title} in the tool result: ${result}`);
    }
  });

  test("search off for the app: the WebSearch result is an error, not the model's words", async () => {
    await fx.admin.updateApp({ params: { name: "claude-code" }, body: { webSearch: false } });
    try {
      fx.mock.reset();
      fx.mock.setResponder(respond);
      search.queries.length = 0;
      const r = await runClaude("off");
      assert.equal(r.code, 0, describeRun(r));
      assert.deepEqual(search.queries, [], "no query left the machine");
      const result = webSearchToolResult();
      for (const h of HITS) assert.ok(!result.includes(h.url), result);
      // Claude Code renders the web_search_tool_result_error block as "Web search error: <error_code>".
      assert.match(result, /Web search error: unavailable/, result);
      // The search model saw the error (it wrote its "could not search" line), not results it could pass on.
      assert.ok(result.includes(SEARCH_FAILED) && !result.includes(MODEL_WORDS), result);
      const logged = await loggedSearches("claude-code");
      assert.equal(logged.length, 1, JSON.stringify(logged));
      assert.equal(logged[0]?.results, 0);
      assert.match(logged[0]?.error ?? "", /^unavailable: Web search and fetch are off for app 'claude-code'/);
    } finally {
      await fx.admin.updateApp({ params: { name: "claude-code" }, body: { webSearch: true } });
    }
  });
});

describe("Codex's hosted web_search through Patchbay", () => {
  const CODEX_FINAL = "CODEX-SEARCHED-44";
  let home: string;

  before(() => {
    home = path.join(tmp, "codex-home");
    // Live web search (Codex's default is "cached", which it sends as `external_web_access: false`).
    writeCodexSnippetConfig(home, { baseUrl: fx.apiBase, model: MODEL, app: "codex" }, 'web_search = "live"\n');
  });

  function runCodex(prompt: string): Promise<CliRun> {
    const cwd = fs.mkdtempSync(path.join(home, "work-"));
    const args = testCodexArgs(prompt, { bypassSandbox: true });
    return runCodexExec({ home, key: codexKey, cwd, args, timeoutMs: RUN_TIMEOUT_MS });
  }

  /** Search; then (results) a shell call, and after its output the answer; (error) the "could not search" line. */
  function scriptSearch(): void {
    fx.mock.reset();
    fx.mock.setResponder((rec) => {
      const last = messagesOf(rec).at(-1);
      if (last?.role !== "tool")
        return { toolCalls: [{ id: "call_cx_ws", name: "web_search", arguments: { query: QUERY } }] };
      if (last.tool_call_id === "call_cx_sh") return { text: `${CODEX_FINAL}: see ${HITS[0]!.url}` };
      return textOf(last.content).startsWith("Error (")
        ? { text: SEARCH_FAILED }
        : { toolCalls: [{ id: "call_cx_sh", name: "exec_command", arguments: { cmd: "echo SHELL-AFTER-SEARCH" } }] };
    });
  }

  /** The model's continuation within Codex's request: its tool message answering the web_search call. */
  function searchResultSeenByModel(): string {
    const reqs = fx.mock.chatRequests();
    assert.ok(toolNamesOf(reqs[0]).includes("web_search"), `offered: ${toolNamesOf(reqs[0]).join(", ")}`);
    // Patchbay names the call itself (srvtoolu_…): the mock's call id never reaches Codex, which sees a web_search_call.
    const messages = messagesOf(reqs[1]);
    const call = messages.find((m) => m.role === "assistant" && Array.isArray(m.tool_calls))?.tool_calls as
      Array<{ id: string; function: { name: string } }> | undefined;
    assert.equal(call?.[0]?.function.name, "web_search");
    const tool = messages.find((m) => m.role === "tool" && m.tool_call_id === call?.[0]?.id);
    assert.ok(tool, JSON.stringify(messagesOf(reqs[1])).slice(-2000));
    return textOf(tool.content);
  }

  test("the model continues with the mock SearXNG's results; Codex shows the search and the answer", async () => {
    scriptSearch();
    search.queries.length = 0;
    const r = await runCodex("SEARCH_THE_WEB: what is new in Patchbay 2.0?");
    assert.equal(r.code, 0, describeRun(r));
    assert.match(r.stdout, new RegExp(CODEX_FINAL), describeRun(r));
    assert.deepEqual(search.queries, [QUERY]);
    assert.deepEqual(await loggedSearches("codex"), [
      { kind: "web_search", target: QUERY, backend: `SearXNG at ${search.url}`, results: HITS.length },
    ]);
    const result = searchResultSeenByModel();
    for (const h of HITS) assert.ok(result.includes(h.url) && result.includes(h.title), result);
    // Codex's transcript names the search it was told about (the web_search_call item's query).
    assert.ok(r.stderr.includes(QUERY), describeRun(r));
    // Codex's next request (after running the shell call) replays the web_search_call item: the model reads it as
    // assistant text of the query, before the shell call and its output.
    const reqs = fx.mock.chatRequests();
    assert.equal(reqs.length, 3, "search step + answer step of Codex's first request, then its second request");
    const replay = messagesOf(reqs[2]);
    const turn = replay.find((m) => m.role === "assistant" && textOf(m.content).includes("[web_search:"));
    assert.ok(turn, JSON.stringify(replay.slice(-4)));
    assert.equal(textOf(turn.content), `[web_search: ${JSON.stringify(QUERY)}]`);
    assert.equal((turn.tool_calls as Array<{ id: string }> | undefined)?.[0]?.id, "call_cx_sh");
    assert.match(textOf(replay.at(-1)?.content), /SHELL-AFTER-SEARCH/);
  });

  test("search off for the app: the model reads a native error and no query leaves the machine", async () => {
    await fx.admin.updateApp({ params: { name: "codex" }, body: { webSearch: false } });
    try {
      scriptSearch();
      search.queries.length = 0;
      const r = await runCodex("SEARCH_THE_WEB: what is new in Patchbay 2.0?");
      assert.equal(r.code, 0, describeRun(r));
      assert.match(r.stdout, new RegExp(SEARCH_FAILED), describeRun(r));
      assert.deepEqual(search.queries, []);
      assert.equal(fx.mock.chatRequests().length, 2, "one Codex request, two model steps (search, then the answer)");
      const result = searchResultSeenByModel();
      assert.match(result, /^Error \(unavailable\)/, result);
      for (const h of HITS) assert.ok(!result.includes(h.url), result);
    } finally {
      await fx.admin.updateApp({ params: { name: "codex" }, body: { webSearch: true } });
    }
  });
});

describe("Claude Code's WebFetch through Patchbay", () => {
  const PAGE_TOKEN = "PAGE-TOKEN-5120";
  const PAGE_HTML =
    "<!doctype html><html><head><title>Patchbay notes</title><style>p{color:red}</style></head><body>" +
    `<h1>Patchbay notes</h1><p>The release code is <b>${PAGE_TOKEN}</b>.</p></body></html>`;
  /** What the scripted model answers when it is handed the page: proof that the page's text reached it. */
  const READ = "THE-MODEL-READ";
  const FINAL = "CLAUDE-FINAL-AFTER-FETCH-9";
  let pages: LoopbackHttpsPages;
  let home: string;

  before(async () => {
    pages = await new LoopbackHttpsPages().start();
    pages.pages.set("/notes", PAGE_HTML);
    home = path.join(tmp, "home-webfetch");
    // WebFetch first asks api.anthropic.com whether it may fetch the host (not through ANTHROPIC_BASE_URL); only
    // loopback is reachable here, so the check is off, as a user behind a restrictive network would set it.
    fs.mkdirSync(path.join(home, ".claude"), { recursive: true });
    fs.writeFileSync(path.join(home, ".claude", "settings.json"), '{ "skipWebFetchPreflight": true }\n');
  });
  after(async () => {
    await pages?.stop();
  });

  /** The main agent: WebFetch the page for the prompt, answer after its result. WebFetch's own request (no tools; the
   *  page's text in its user message): say what the page holds. Claude Code's side asks get plain text. */
  function respond(rec: RecordedRequest): MockReply {
    const messages = messagesOf(rec);
    const last = messages.at(-1);
    if (last?.role === "tool") return { text: FINAL };
    const said = JSON.stringify(messages.filter((m) => m.role === "user"));
    const token = /PAGE-TOKEN-\d+/.exec(said)?.[0];
    if (toolNamesOf(rec).length === 0 && token) return { text: `${READ} ${token}` };
    if (said.includes("FETCH_THE_PAGE"))
      return {
        toolCalls: [
          {
            id: "call_cc_wf",
            name: "WebFetch",
            arguments: { url: `${pages.origin}/notes`, prompt: "What is the release code?" },
          },
        ],
      };
    return { text: "plain" };
  }

  test("Claude Code fetches the page itself; the model reads it through Patchbay and the agent gets its answer", async () => {
    fx.mock.reset();
    fx.mock.setResponder(respond);
    search.queries.length = 0;
    const cwd = path.join(tmp, "webfetch");
    fs.mkdirSync(cwd, { recursive: true });
    const r = await runClaudePrint({
      apiRoot: fx.apiBase.replace(/\/v1$/, ""),
      model: MODEL,
      key: claudeKey,
      home,
      cwd,
      prompt: "FETCH_THE_PAGE: what is the release code on the notes page?",
      args: ["--allowedTools", "WebFetch"],
      env: { NODE_EXTRA_CA_CERTS: LOOPBACK_CA_FILE },
      timeoutMs: RUN_TIMEOUT_MS,
    });
    assert.equal(r.code, 0, describeRun(r));
    assert.equal(r.stdout.trim(), FINAL, describeRun(r));
    // The page server saw Claude Code once (its WebFetch user agent); Patchbay neither searched nor fetched.
    assert.deepEqual(
      pages.requests.map((q) => `${q.method} ${q.path}`),
      ["GET /notes"],
    );
    assert.match(pages.requests[0]!.userAgent, /^Claude-User \(claude-code\//);
    assert.deepEqual(search.queries, []);
    // WebFetch's own request reached the model through Patchbay with the page as Markdown (no tags, no style).
    const read = fx.mock
      .chatRequests()
      .find((q) => toolNamesOf(q).length === 0 && JSON.stringify(messagesOf(q)).includes(PAGE_TOKEN));
    assert.ok(read, `WebFetch's request reached the upstream; requests: ${fx.mock.chatRequests().length}`);
    const pageText = messagesOf(read)
      .filter((m) => m.role === "user")
      .map((m) => textOf(m.content))
      .join("\n");
    assert.ok(pageText.includes("Patchbay notes") && pageText.includes("What is the release code?"), pageText);
    assert.doesNotMatch(pageText, /<p>|<b>|color:red/, pageText);
    // The main agent's WebFetch result is what the model said about the page.
    const followUp = fx.mock
      .chatRequests()
      .find((q) => messagesOf(q).some((m) => m.role === "tool" && m.tool_call_id === "call_cc_wf"));
    const tool = messagesOf(followUp).find((m) => m.role === "tool" && m.tool_call_id === "call_cc_wf");
    assert.equal(textOf(tool?.content).trim(), `${READ} ${PAGE_TOKEN}`, JSON.stringify(tool));
  });
});
