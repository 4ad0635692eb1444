// Request roles, route and chain validation, and the fallback chain's rule: next target only before the first byte.
import { test } from "node:test";
import assert from "node:assert/strict";
import { App, AppPatch } from "../../../shared/apps";
import type { ModelEvent } from "../../../server/core/contract";
import { PatchbayError } from "../../../server/core/errors";
import { Cooldowns } from "../../../server/routing/cooldowns";
import { runChain, type ChainReport, type ChainTarget } from "../../../server/routing/fallback";
import { requestHint, routeFor } from "../../../server/routing/roles";
import { checkRouting } from "../../../server/routing/validate";
import { modelInfo } from "../../harness/builders";
import { bareCli } from "../../../server/core/cli-command";

function target(id: string): ChainTarget {
  const [providerID = "", modelID = ""] = id.split("/");
  return { id, model: modelInfo({ id, providerID, modelID }) };
}

test("roles come from Claude Code's and Codex's hint headers; unknown classes are ignored", () => {
  assert.deepEqual(
    requestHint({ "x-claude-code-request-class": "subagent", "x-claude-code-agent-type": "general-purpose" }),
    { role: "subagent", agentType: "general-purpose" },
  );
  assert.deepEqual(requestHint({ "x-claude-code-request-class": "compaction" }), { role: "compaction" });
  assert.equal(requestHint({ "x-claude-code-request-class": "nonsense" }), null);
  assert.deepEqual(requestHint({ "x-openai-subagent": "review" }), { role: "review" });
  assert.deepEqual(requestHint({ "x-openai-subagent": "compact" }), { role: "compaction" });
  assert.equal(requestHint({}), null);
  const app = App.parse({ id: "1", name: "a", createdAt: 0, aliases: { cheap: "m/b" }, routes: { subagent: "cheap" } });
  assert.equal(routeFor(app, "subagent"), "cheap");
  assert.equal(routeFor(app, "main"), null);
  assert.equal(routeFor(app, undefined), null);
});

test("unknown roles, loops and disallowed models are refused with the field named", () => {
  assert.equal(App.safeParse({ id: "1", name: "a", createdAt: 0, routes: { helper: "m/a" } }).success, false);
  const base = { id: "1", name: "a", createdAt: 0, models: ["m/*"], aliases: { fast: "m/a" } };
  const cases: [Record<string, unknown>, RegExp, string][] = [
    [{ routes: { subagent: "nope" } }, /neither an alias/, "routes.subagent"],
    [{ routes: { subagent: "x/y" } }, /may not use/, "routes.subagent"],
    [{ fallbacks: { fast: ["m/b", "m/a"] } }, /twice.*loop/, "fallbacks.fast[1]"],
    [{ fallbacks: { fast: ["m/b", "m/b"] } }, /twice/, "fallbacks.fast[1]"],
    [{ fallbacks: { fast: ["x/y"] } }, /may not use/, "fallbacks.fast[0]"],
    [{ fallbacks: { slow: ["m/b"] } }, /not an alias/, "fallbacks.slow"],
  ];
  for (const [extra, message, param] of cases) {
    const app = App.parse({ ...base, ...extra });
    assert.throws(
      () => checkRouting(app, undefined, bareCli),
      (err: unknown) => err instanceof PatchbayError && message.test(err.message) && err.param === param,
      JSON.stringify(extra),
    );
  }
  checkRouting(
    App.parse({ ...base, routes: { subagent: "fast", main: "m/c#high" }, fallbacks: { fast: ["m/b"] } }),
    undefined,
    bareCli,
  );

  // Removing an alias a route names: the message says so (not "neither an alias nor provider/model").
  const before = App.parse({ ...base, routes: { subagent: "fast" } });
  assert.throws(
    () => checkRouting(App.parse({ ...base, aliases: {}, routes: { subagent: "fast" } }), before, bareCli),
    (err: unknown) =>
      err instanceof PatchbayError &&
      err.param === "routes.subagent" &&
      /The alias "fast" cannot be removed: app "a" routes subagent requests to it\. Change or remove that route first \(patchbay app route a subagent --remove\)/.test(
        err.message,
      ),
  );
});

const text = (t: string): ModelEvent[] => [
  { type: "start", sessionId: `s-${t}`, warnings: [] },
  { type: "text-delta", delta: t },
  {
    type: "finish",
    reason: "stop",
    usage: { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0, reasoningTokens: 0 },
  },
];
const refusal = (status: number, retryAfter?: number): ModelEvent[] => [
  { type: "start", sessionId: "s-x", warnings: [] },
  {
    type: "error",
    error: {
      code: status === 429 ? "upstream_rate_limited" : "upstream_error",
      status,
      message: "no",
      ...(retryAfter ? { retryAfter } : {}),
    },
  },
];

async function collect(it: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
  const out: ModelEvent[] = [];
  for await (const e of it) out.push(e);
  return out;
}

test("a 429 before the first byte goes to the next target, which is then skipped until its retry time", async () => {
  let now = 1_000_000;
  const cooldowns = new Cooldowns(() => now);
  const script: Record<string, () => ModelEvent[]> = { "m/a": () => refusal(429, 30), "m/b": () => text("B") };
  const calls: string[] = [];
  const closed: string[] = [];
  const run = (t: ChainTarget) =>
    (async function* () {
      calls.push(t.id);
      try {
        yield* script[t.id]!();
      } finally {
        closed.push(t.id);
      }
    })();
  const chain = [target("m/a"), target("m/b")];
  const signal = new AbortController().signal;
  const report: ChainReport = { served: null, skipped: [] };
  const events = await collect(runChain(chain, run, { cooldowns, now: () => now, report, signal }));
  assert.deepEqual(calls, ["m/a", "m/b"]);
  assert.deepEqual(closed, ["m/a", "m/b"], "the refused target's run is closed");
  assert.equal(report.served, "m/b");
  assert.match(report.skipped[0]!.reason, /429 upstream_rate_limited/);
  assert.deepEqual(
    events.map((e) => e.type),
    ["start", "text-delta", "finish"],
  );
  assert.equal((events[0] as { sessionId: string }).sessionId, "s-B");

  // Within the retry time A is not tried at all.
  calls.length = 0;
  const r2: ChainReport = { served: null, skipped: [] };
  await collect(runChain(chain, run, { cooldowns, now: () => now, report: r2, signal }));
  assert.deepEqual(calls, ["m/b"]);
  assert.match(r2.skipped[0]!.reason, /rate-limited until/);
  // After it, A is tried again.
  now += 31_000;
  script["m/a"] = () => text("A");
  calls.length = 0;
  await collect(runChain(chain, run, { cooldowns, now: () => now, report: { served: null, skipped: [] }, signal }));
  assert.deepEqual(calls, ["m/a"]);
});

test("after the first byte an error is passed on, never retried; a bad request is not a fallback reason", async () => {
  const cooldowns = new Cooldowns(() => 0);
  const calls: string[] = [];
  const signal = new AbortController().signal;
  const midway: ModelEvent[] = [
    { type: "start", sessionId: "s", warnings: [] },
    { type: "text-delta", delta: "partial" },
    { type: "error", error: { code: "upstream_error", status: 502, message: "cut" } },
  ];
  const run = (events: ModelEvent[]) => (t: ChainTarget) =>
    (async function* () {
      calls.push(t.id);
      yield* events;
    })();
  const out = await collect(
    runChain([target("m/a"), target("m/b")], run(midway), {
      cooldowns,
      now: () => 0,
      report: { served: null, skipped: [] },
      signal,
    }),
  );
  assert.deepEqual(calls, ["m/a"]);
  assert.deepEqual(
    out.map((e) => e.type),
    ["start", "text-delta", "error"],
  );

  calls.length = 0;
  const bad: ModelEvent[] = [{ type: "error", error: { code: "upstream_bad_request", status: 400, message: "bad" } }];
  const out2 = await collect(
    runChain([target("m/a"), target("m/b")], run(bad), {
      cooldowns,
      now: () => 0,
      report: { served: null, skipped: [] },
      signal,
    }),
  );
  assert.deepEqual(calls, ["m/a"]);
  assert.equal(out2[0]!.type, "error");
});

test("when every target cools down the answer is one 429 with the earliest retry time; a thrown start falls back", async () => {
  const now = 5_000;
  const cooldowns = new Cooldowns(() => now);
  cooldowns.note("m/a", now + 10_000);
  cooldowns.note("m/b", now + 4_000);
  const calls: string[] = [];
  const run = (t: ChainTarget) =>
    (async function* () {
      calls.push(t.id);
      if (t.id === "m/c") throw new PatchbayError("upstream_error", "boom");
      yield* text(t.id);
    })();
  const signal = new AbortController().signal;
  const out = await collect(
    runChain([target("m/a"), target("m/b")], run, {
      cooldowns,
      now: () => now,
      report: { served: null, skipped: [] },
      signal,
    }),
  );
  assert.deepEqual(calls, []);
  assert.equal(out.length, 1);
  const e = out[0]!;
  assert.ok(e.type === "error" && e.error.status === 429 && e.error.retryAfter === 4);
  const report: ChainReport = { served: null, skipped: [] };
  await collect(runChain([target("m/c"), target("m/d")], run, { cooldowns, now: () => now, report, signal }));
  assert.deepEqual(calls, ["m/c", "m/d"]);
  assert.equal(report.served, "m/d");
});

test("missing entries are skipped where the chain reaches them; with none to try, one answer names them all", async () => {
  const now = 5_000;
  const cooldowns = new Cooldowns(() => now);
  const calls: string[] = [];
  const run = (t: ChainTarget) =>
    (async function* () {
      calls.push(t.id);
      yield* text(t.id);
    })();
  const signal = new AbortController().signal;
  const missing = (id: string) => ({ id, missing: "not offered by any connected provider" });
  const report: ChainReport = { served: null, skipped: [] };
  const seen: string[][] = [];
  await collect(
    runChain([missing("m/gone"), target("m/a"), missing("m/later")], run, {
      cooldowns,
      now: () => now,
      report,
      signal,
      onSkipped: (s) => seen.push(s.map((x) => x.model)),
    }),
  );
  assert.deepEqual(calls, ["m/a"]);
  assert.equal(report.served, "m/a");
  assert.deepEqual(report.skipped, [{ model: "m/gone", reason: "not offered by any connected provider" }]);
  assert.deepEqual(seen, [["m/gone"]], "known before the next target is tried; m/later never reached");

  cooldowns.note("m/a", now + 9_000);
  const cooled: ChainReport = { served: null, skipped: [] };
  const out = await collect(
    runChain([missing("m/gone"), target("m/a")], run, { cooldowns, now: () => now, report: cooled, signal }),
  );
  assert.equal(out.length, 1);
  const e = out[0]!;
  assert.ok(e.type === "error" && e.error.status === 429 && e.error.retryAfter === 9, JSON.stringify(e));
  assert.match(e.error.message, /rate-limited by its provider or not offered \(m\/gone, m\/a\)/);
  assert.deepEqual(
    cooled.skipped.map((s) => s.reason),
    ["not offered by any connected provider", `rate-limited until ${new Date(now + 9_000).toISOString()}`],
  );
  const none = await collect(
    runChain([missing("m/x")], run, { cooldowns, now: () => now, report: { served: null, skipped: [] }, signal }),
  );
  assert.ok(none[0]?.type === "error" && none[0].error.status === 404);
});

test("a __proto__ key in routes or fallbacks is refused by name, not silently dropped", () => {
  for (const [body, path, message] of [
    ['{"routes":{"__proto__":"demo/echo"}}', "routes", /Unknown role "__proto__"/],
    ['{"fallbacks":{"__proto__":["demo/echo"]}}', "fallbacks", /Invalid alias name "__proto__"/],
  ] as const) {
    const r = AppPatch.safeParse(JSON.parse(body));
    assert.equal(r.success, false, body);
    assert.deepEqual(r.error?.issues[0]?.path, [path, "__proto__"]);
    assert.match(r.error?.issues[0]?.message ?? "", message);
  }
});
