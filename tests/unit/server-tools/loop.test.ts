// The server tool loop with a scripted fake backend (each stream() call is one model step) and fake search backends:
// event order, continuation history, max_uses, domain filters, a hanging or failing backend (bounded, native error),
// a client tool call in the same step, and pass-through of requests without server tools.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type {
  BackendRequest,
  ModelBackend,
  ModelEvent,
  NeutralRequest,
  ServerToolSpec,
  WebSearchHit,
} from "../../../server/core/contract";
import { withServerTools } from "../../../server/server-tools/loop";
import type { ServerToolServices } from "../../../server/server-tools/execute";
import type { SearchBackend } from "../../../server/server-tools/searxng";

const USAGE = { inputTokens: 10, outputTokens: 2, cachedInputTokens: 0, reasoningTokens: 0 };
const HITS: WebSearchHit[] = [
  { url: "https://a.example.com/x", title: "A", snippet: "about a" },
  { url: "https://b.other.test/y", title: "B", snippet: "about b" },
];

type Step = ModelEvent[];
const search = (query: string, id = "c1"): Step => [
  { type: "tool-call", id, name: "web_search", arguments: JSON.stringify({ query }) },
  { type: "finish", reason: "tool_calls", usage: USAGE },
];
const answer = (text: string): Step => [
  { type: "text-delta", delta: text },
  { type: "finish", reason: "stop", usage: USAGE },
];

/** A backend that answers each step from `steps` and records every request. */
function fakeBackend(steps: Step[]): ModelBackend & { requests: BackendRequest[] } {
  const requests: BackendRequest[] = [];
  return {
    requests,
    listModels: () => Promise.resolve([]),
    async *stream(req) {
      requests.push(structuredClone(req));
      yield { type: "start", sessionId: `ses_${requests.length}`, warnings: [] };
      for (const e of steps.shift() ?? answer("(no more steps)")) yield e;
    },
  };
}

function backendOf(fn: SearchBackend["search"]): SearchBackend & { queries: string[] } {
  const queries: string[] = [];
  return {
    label: "fake",
    queries,
    search: (q, signal) => {
      queries.push(q.query);
      return fn(q, signal);
    },
  };
}

function request(serverTools: ServerToolSpec[], extra: Partial<NeutralRequest> = {}): BackendRequest {
  return {
    app: "a",
    model: {} as BackendRequest["model"],
    request: {
      model: "m",
      system: [],
      messages: [{ role: "user", content: [{ type: "text", text: "q?" }] }],
      tools: [],
      toolChoice: "auto",
      generation: {},
      responseFormat: { type: "text" },
      stream: false,
      includeUsage: true,
      warnings: [],
      serverTools,
      ...extra,
    },
  };
}

async function run(
  steps: Step[],
  req: BackendRequest,
  services: Partial<ServerToolServices>,
): Promise<{ events: ModelEvent[]; backend: ReturnType<typeof fakeBackend> }> {
  const backend = fakeBackend(steps);
  const wrapped = withServerTools(backend, {
    services: () => ({ search: null, fetchPage: null, timeoutMs: 2000, ...services }),
  });
  const events: ModelEvent[] = [];
  for await (const e of wrapped.stream(req, new AbortController().signal)) events.push(e);
  return { events, backend };
}

const WEB_SEARCH: ServerToolSpec = { kind: "web_search", name: "web_search" };

describe("server tool loop", () => {
  test("a search runs between two model steps; the second step sees the call and its results", async () => {
    const sb = backendOf(() => Promise.resolve(HITS));
    const { events, backend } = await run([search("news"), answer("done")], request([WEB_SEARCH]), { search: sb });
    assert.deepEqual(
      events.map((e) => e.type),
      ["start", "server-tool-call", "server-tool-result", "text-delta", "finish"],
    );
    const call = events[1] as Extract<ModelEvent, { type: "server-tool-call" }>;
    assert.deepEqual(call.input, { query: "news" });
    assert.match(call.id, /^srvtoolu_[0-9a-f]{24}$/);
    const result = events[2] as Extract<ModelEvent, { type: "server-tool-result" }>;
    assert.equal(result.id, call.id);
    assert.deepEqual(result.outcome, { kind: "web_search", query: "news", hits: HITS });
    // What the request log keeps of the call (the relay appends it to the entry's serverTools).
    assert.ok(result.record && result.record.ms >= 0);
    assert.deepEqual(
      { ...result.record, ms: 0 },
      { kind: "web_search", target: "news", backend: "fake", ms: 0, results: 2 },
    );
    const finish = events[4] as Extract<ModelEvent, { type: "finish" }>;
    assert.equal(finish.reason, "stop");
    assert.equal(finish.usage.inputTokens, 20);
    assert.deepEqual(finish.usage.serverToolUse, { webSearchRequests: 1, webFetchRequests: 0 });
    assert.deepEqual(sb.queries, ["news"]);
    // The model was offered web_search as a function; the second step carries the call and the hits as its result.
    assert.deepEqual(
      backend.requests[0]!.request.tools.map((t) => t.name),
      ["web_search"],
    );
    const history = backend.requests[1]!.request.messages;
    assert.equal(history.length, 3);
    assert.deepEqual(history[1], {
      role: "assistant",
      content: [],
      toolCalls: [{ id: call.id, name: "web_search", arguments: '{"query":"news"}' }],
    });
    assert.equal(history[2]!.role, "tool");
    assert.ok(history[2]!.role === "tool" && history[2]!.content.includes("https://a.example.com/x"));
  });

  test("max_uses: a call over the limit gets max_uses_exceeded without searching", async () => {
    const sb = backendOf(() => Promise.resolve(HITS));
    const { events } = await run(
      [search("one"), search("two", "c2"), answer("ok")],
      request([{ ...WEB_SEARCH, maxUses: 1 }]),
      {
        search: sb,
      },
    );
    const results = events.filter((e) => e.type === "server-tool-result");
    assert.equal(results.length, 2);
    assert.deepEqual(results[1]!.outcome, {
      kind: "web_search",
      error: "max_uses_exceeded",
      message: "At most 1 uses per request.",
    });
    assert.deepEqual(sb.queries, ["one"]);
  });

  test("allowed/blocked domains filter the hits", async () => {
    const sb = backendOf(() => Promise.resolve(HITS));
    const allowed = await run(
      [search("q"), answer("ok")],
      request([{ ...WEB_SEARCH, allowedDomains: ["example.com"] }]),
      {
        search: sb,
      },
    );
    const r1 = allowed.events.find((e) => e.type === "server-tool-result");
    assert.ok(r1 && "hits" in r1.outcome);
    assert.deepEqual(
      r1.outcome.hits.map((h) => h.url),
      ["https://a.example.com/x"],
    );
    const blocked = await run(
      [search("q"), answer("ok")],
      request([{ ...WEB_SEARCH, blockedDomains: ["other.test"] }]),
      {
        search: sb,
      },
    );
    const r2 = blocked.events.find((e) => e.type === "server-tool-result");
    assert.ok(r2 && "hits" in r2.outcome);
    assert.deepEqual(
      r2.outcome.hits.map((h) => h.url),
      ["https://a.example.com/x"],
    );
  });

  test("a hanging backend gives `unavailable` within the timeout, and the request still finishes", async () => {
    const hang = backendOf(
      (_q, signal) => new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason))),
    );
    // AbortSignal.timeout's timer does not hold the event loop open (a server's sockets do): this one does.
    const hold = setTimeout(() => undefined, 10_000);
    const { events } = await run([search("q"), answer("sorry")], request([WEB_SEARCH]), {
      search: hang,
      timeoutMs: 200,
    });
    const result = events.find((e) => e.type === "server-tool-result");
    assert.ok(result && "error" in result.outcome);
    assert.equal(result.outcome.error, "unavailable");
    assert.match(result.outcome.message, /did not answer within 200 ms/);
    assert.equal(result.record?.results, 0);
    assert.match(result.record?.error ?? "", /^unavailable: Web search failed: fake did not answer within 200 ms/);
    clearTimeout(hold);
    assert.equal(events.at(-1)?.type, "finish");
    const finish = events.at(-1) as Extract<ModelEvent, { type: "finish" }>;
    assert.deepEqual(finish.usage.serverToolUse, { webSearchRequests: 0, webFetchRequests: 0 });
  });

  test("no backend: `unavailable` naming why; an invalid query: `invalid_tool_input`", async () => {
    const none = await run([search("q"), answer("x")], request([WEB_SEARCH]), { searchUnavailable: "off for app a" });
    const r = none.events.find((e) => e.type === "server-tool-result");
    assert.deepEqual(r?.type === "server-tool-result" && r.outcome, {
      kind: "web_search",
      error: "unavailable",
      message: "off for app a.",
    });
    const bad: Step = [
      { type: "tool-call", id: "c", name: "web_search", arguments: "{}" },
      { type: "finish", reason: "tool_calls", usage: USAGE },
    ];
    const invalid = await run([bad, answer("x")], request([WEB_SEARCH]), {
      search: backendOf(() => Promise.resolve([])),
    });
    const r2 = invalid.events.find((e) => e.type === "server-tool-result");
    assert.ok(r2?.type === "server-tool-result" && "error" in r2.outcome);
    assert.equal(r2.outcome.error, "invalid_tool_input");
  });

  test("a client tool call in the same step ends the request (client tools are never run)", async () => {
    const step: Step = [
      { type: "tool-call", id: "s", name: "web_search", arguments: '{"query":"q"}' },
      { type: "tool-call", id: "c", name: "Bash", arguments: '{"command":"ls"}' },
      { type: "finish", reason: "tool_calls", usage: USAGE },
    ];
    const req = request([WEB_SEARCH], { tools: [{ name: "Bash", parameters: { type: "object" } }] });
    const { events, backend } = await run([step, answer("never")], req, {
      search: backendOf(() => Promise.resolve(HITS)),
    });
    assert.deepEqual(
      events.map((e) => e.type),
      ["start", "server-tool-call", "server-tool-result", "tool-call", "finish"],
    );
    assert.equal((events.at(-1) as Extract<ModelEvent, { type: "finish" }>).reason, "tool_calls");
    assert.equal(backend.requests.length, 1);
  });

  test("a client tool with the server tool's name wins (warning); requests without server tools pass through", async () => {
    const req = request([WEB_SEARCH], { tools: [{ name: "web_search", parameters: { type: "object" } }] });
    const { events } = await run([search("q")], req, { search: backendOf(() => Promise.resolve(HITS)) });
    const start = events[0] as Extract<ModelEvent, { type: "start" }>;
    assert.match(start.warnings[0]!.detail, /client tool of that name/);
    assert.equal(events[1]?.type, "tool-call");
    const plain = await run([answer("hi")], request([]), {});
    assert.deepEqual(
      plain.events.map((e) => e.type),
      ["start", "text-delta", "finish"],
    );
    assert.equal((plain.events.at(-1) as Extract<ModelEvent, { type: "finish" }>).usage.serverToolUse, undefined);
  });

  test("the loop is bounded: a model that keeps searching stops after maxSteps", async () => {
    const steps = Array.from({ length: 20 }, (_, i) => search(`q${i}`, `c${i}`));
    const backend = fakeBackend(steps);
    const wrapped = withServerTools(backend, {
      services: () => ({ search: backendOf(() => Promise.resolve(HITS)), fetchPage: null, timeoutMs: 1000 }),
      maxSteps: 3,
      defaultMaxUses: 100,
    });
    const events: ModelEvent[] = [];
    for await (const e of wrapped.stream(request([WEB_SEARCH]), new AbortController().signal)) events.push(e);
    assert.equal(backend.requests.length, 3);
    const finish = events.at(-1) as Extract<ModelEvent, { type: "finish" }>;
    assert.equal(finish.type, "finish");
    assert.equal(finish.reason, "stop");
    assert.match(finish.warnings?.[0]?.detail ?? "", /stopped after 3 model steps/);
  });
});
