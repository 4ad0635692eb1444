// The request runner (server/http/model-run/) over a scripted backend: limits (concurrency, max tools,
// body size), deadlines (first token, total; before and after the stream was committed), client disconnect, and that
// every backend stream is closed (its cleanup runs) however the request ends.
import { after, before, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { PatchbayError } from "../../../server/core/errors";
import { expectEnvelope, inBandError, readSse, waitFor } from "../../harness/http-helpers";
import type { BackendRequest } from "../../../server/core/contract";
import { formatWarning, warn } from "../../../server/core/warnings";
import type { OpenCodeEvent } from "../../../server/opencode/session/event-hub";
import {
  IGNORED_TOOL_CHOICE_WARNING,
  createMapperState,
  mapOpenCodeEvent,
} from "../../../server/opencode/session/event-mapper";
import { planBridgeRequest } from "../../../server/opencode/session/plan/bridge-plan";
import { MODEL, chat, startUnitServer, textAnswer, type Step, type UnitServer } from "./fakes";

let s: UnitServer;
before(async () => {
  s = await startUnitServer({ commitAfterMs: 200 });
});
after(async () => {
  await s.close();
});
beforeEach(() => {
  s.apps.setLimits({
    concurrency: 4,
    maxTools: 128,
    firstTokenTimeoutMs: 300_000,
    totalTimeoutMs: 1_200_000,
    maxBodyBytes: 1024 * 1024,
  });
  s.backend.script = () => textAnswer("hi");
  s.backend.listError = null;
  s.backend.listDelayMs = 0;
  s.backend.streams = [];
  s.log.entries = [];
});

const post = (body: string, init: RequestInit = {}) =>
  s.call("/v1/chat/completions", { method: "POST", body, ...init });

describe("the backend stream is always closed", () => {
  test("after finish (non-stream and stream): the generator's cleanup runs", async () => {
    const r = await post(chat());
    assert.equal(r.status, 200);
    assert.equal(
      ((await r.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content,
      "hi",
    );
    const r2 = await post(chat({ stream: true }));
    await r2.text();
    await waitFor(
      "both streams closed",
      () => s.backend.streams.length === 2 && s.backend.streams.every((x) => x.closed),
      1000,
    );
    assert.equal(s.backend.streams[0]!.abortedAt, null, "a finished request must not be aborted");
  });

  test("after an error event: closed, so the backend can stop OpenCode's retries", async () => {
    s.backend.script = () => [
      { type: "start", sessionId: "ses_1", warnings: [] },
      { type: "error", error: { code: "upstream_rate_limited", status: 429, message: "slow down", retryAfter: 7 } },
      "hang",
    ];
    const res = await post(chat());
    assert.equal(res.headers.get("retry-after"), "7");
    await expectEnvelope(res, 429, "upstream_rate_limited");
    await waitFor("stream closed", () => s.backend.streams[0]?.closed === true, 1000);
  });
});

describe("a backend that throws", () => {
  test("answers 500 internal_error without the cause, and Patchbay's log has the thrown error's stack", async () => {
    s.backend.script = () => [{ throws: new Error("a bug deep in the backend") }];
    const res = await post(chat());
    const body = await expectEnvelope(res, 500, "internal_error");
    assert.doesNotMatch(JSON.stringify(body), /a bug deep/, "the client never sees the cause");
    await waitFor("the log line", () => s.diagnostics.some((l) => /^internal error: Error: a bug deep/.test(l)), 2000);
  });
});

describe("the model is resolved once", () => {
  test("one model-list lookup per request; the backend gets the resolved model and variant", async () => {
    const before = s.backend.listCalls;
    const r = await post(chat({ model: "mock/mock-model#high" }));
    assert.equal(r.status, 200);
    assert.equal(s.backend.listCalls - before, 1, "exactly one lookup of the model list");
    const sent = s.backend.streams.at(-1)!.request;
    assert.equal(sent.model.id, "mock/mock-model");
    assert.equal(sent.variant, "high");
  });

  test("an unknown model is refused by the runner: 404, and the backend is never asked to run it", async () => {
    const streams = s.backend.streams.length;
    await expectEnvelope(await post(chat({ model: "mock/nope" })), 404, "model_not_found");
    assert.equal(s.backend.streams.length, streams);
  });
});

describe("limits", () => {
  test("concurrency over the limit → 429 with Retry-After; the slot is freed afterwards", async () => {
    s.apps.setLimits({ concurrency: 1 });
    s.backend.script = () => [
      { type: "start", sessionId: "ses_1", warnings: [] },
      { wait: 400 },
      ...textAnswer("late").slice(1),
    ];
    const first = post(chat());
    await waitFor("first request in flight", () => s.gate.count("unit") === 1, 1000);
    const second = await post(chat());
    assert.equal(second.headers.get("retry-after"), "1");
    const err = await expectEnvelope(second, 429, "rate_limit_exceeded");
    assert.match(err.message, /limit 1/);
    assert.equal((await first).status, 200);
    assert.equal(s.gate.count("unit"), 0);
    assert.equal((await post(chat())).status, 200);
  });

  test("more tools than maxTools → 400 naming tools", async () => {
    s.apps.setLimits({ maxTools: 2 });
    const tool = (n: string) => ({
      type: "function",
      function: { name: n, parameters: { type: "object", properties: {} } },
    });
    const err = await expectEnvelope(
      await post(chat({ tools: [tool("a"), tool("b"), tool("c")] })),
      400,
      "invalid_request_error",
    );
    assert.equal(err.param, "tools");
    assert.match(err.message, /3 tools.*at most 2/);
    assert.equal(s.backend.streams.length, 0);
  });

  test("body over maxBodyBytes → 413 payload_too_large, Responses too", async () => {
    s.apps.setLimits({ maxBodyBytes: 1024 });
    const big = chat({ messages: [{ role: "user", content: "x".repeat(4000) }] });
    await expectEnvelope(await post(big), 413, "payload_too_large");
    const bigResponses = JSON.stringify({ model: "mock/mock-model", input: "y".repeat(4000) });
    await expectEnvelope(
      await s.call("/v1/responses", { method: "POST", body: bigResponses }),
      413,
      "payload_too_large",
    );
  });
});

describe("deadlines", () => {
  test("no first token in time (non-stream) → 504 timeout envelope, backend aborted", async () => {
    s.apps.setLimits({ firstTokenTimeoutMs: 150 });
    s.backend.script = () => [{ type: "start", sessionId: "ses_1", warnings: [] }, "hang"];
    const t0 = Date.now();
    const err = await expectEnvelope(await post(chat()), 504, "timeout");
    assert.match(err.message, /first-token timeout/);
    // The backend hangs for good: the 504 can only be the 150 ms timeout; "not early" is a lower bound on a timer.
    assert.ok(Date.now() - t0 >= 140, "the 504 came before the timeout");
    await waitFor(
      "backend aborted and closed",
      () => s.backend.streams[0]?.abortedAt !== null && s.backend.streams[0]?.closed === true,
      1000,
    );
    assert.equal(s.log.entries.at(-1)?.status, 504);
  });

  test("no first token before the commit hold (stream) → HTTP 504, not a 200 stream", async () => {
    s.apps.setLimits({ firstTokenTimeoutMs: 100 }); // shorter than commitAfterMs (200)
    s.backend.script = () => [{ type: "start", sessionId: "ses_1", warnings: [] }, "hang"];
    await expectEnvelope(await post(chat({ stream: true })), 504, "timeout");
  });

  test("first-token timeout after the stream was committed → in-band error, no [DONE]", async () => {
    s.apps.setLimits({ firstTokenTimeoutMs: 500 });
    s.backend.script = () => [{ type: "start", sessionId: "ses_1", warnings: [] }, "hang"];
    const res = await post(chat({ stream: true }));
    assert.equal(res.status, 200);
    const frames = await readSse(res);
    const err = inBandError(frames);
    assert.equal(err?.code, "timeout");
    assert.ok(!frames.some((f) => f.data === "[DONE]"));
  });

  test("total timeout while tokens flow → in-band timeout on the stream, 504 on JSON", async () => {
    s.apps.setLimits({ totalTimeoutMs: 300 });
    const trickle = (): ReturnType<typeof textAnswer> => [
      { type: "start", sessionId: "ses_1", warnings: [] },
      ...Array.from({ length: 20 }, () => [{ type: "text-delta" as const, delta: "." }, { wait: 50 }]).flat(),
      ...textAnswer("").slice(2),
    ];
    s.backend.script = trickle;
    const err = await expectEnvelope(await post(chat()), 504, "timeout");
    assert.match(err.message, /total timeout/);
    const res = await post(chat({ stream: true }));
    const frames = await readSse(res);
    assert.equal(inBandError(frames)?.code, "timeout");
  });
});

describe("client disconnect and backend failures", () => {
  test("client leaves mid-stream → the backend signal aborts at once, entry logged as 499", async () => {
    s.backend.script = () => [
      { type: "start", sessionId: "ses_1", warnings: [] },
      { type: "text-delta", delta: "a" },
      "hang",
    ];
    const ac = new AbortController();
    const res = await post(chat({ stream: true }), { signal: ac.signal });
    let leftAt = 0;
    await readSse(res, (f) => {
      if (f.json && "choices" in f.json) {
        leftAt = Date.now();
        ac.abort();
        return true;
      }
    }).catch(() => []);
    // The backend hangs for good: only the client's leaving can abort it (a bounded wait, then the order).
    await waitFor("backend aborted", () => s.backend.streams[0]?.abortedAt != null, 5000);
    assert.ok(s.backend.streams[0]!.abortedAt! >= leftAt, "aborted before the client left");
    await waitFor("the log entry", () => s.log.entries.length > 0, 1000);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(
      s.log.entries.length,
      1,
      `one entry per request: ${JSON.stringify(s.log.entries.map((x) => [x.status, x.errorCode]))}`,
    );
    assert.equal(s.log.entries[0]!.status, 499);
  });

  test("client leaves while the model list is loading → no model run starts, entry logged as 499", async () => {
    s.backend.listDelayMs = 300;
    const ac = new AbortController();
    const pending = post(chat(), { signal: ac.signal }).catch(() => null);
    setTimeout(() => ac.abort(), 100);
    await pending;
    await waitFor("the log entry", () => s.log.entries.length > 0, 2000);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(
      s.log.entries.length,
      1,
      `one entry per request: ${JSON.stringify(s.log.entries.map((x) => [x.status, x.errorCode]))}`,
    );
    assert.equal(s.log.entries[0]!.status, 499);
    assert.equal(s.backend.streams.length, 0, "a model run started for a client that had left");
    assert.equal(s.gate.count("unit"), 0);
  });

  test("OpenCode still starting → 503 backend_starting with Retry-After", async () => {
    s.backend.listError = new PatchbayError("backend_starting", "OpenCode is still starting; retry in a few seconds.", {
      retryAfter: 3,
    });
    const res = await post(chat());
    assert.equal(res.headers.get("retry-after"), "3");
    const err = await expectEnvelope(res, 503, "backend_starting");
    assert.match(err.message, /starting/);
  });

  test("a backend that ends without finish → 502 on JSON, in-band on a committed stream", async () => {
    s.backend.script = () => [
      { type: "start", sessionId: "ses_1", warnings: [] },
      { type: "text-delta", delta: "half" },
    ];
    await expectEnvelope(await post(chat()), 502, "upstream_error");
    const frames = await readSse(await post(chat({ stream: true })));
    assert.equal(inBandError(frames)?.code, "upstream_error");
  });
});

describe("warnings learnt at the end of the answer", () => {
  test("a finish with warnings (model ignored tool_choice): 200, the text, finish stop, the warning in the header and log", async () => {
    s.backend.script = () => [
      { type: "start", sessionId: "ses_unit", warnings: [] },
      { type: "text-delta", delta: "no tool for you" },
      {
        type: "finish",
        reason: "stop",
        usage: { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0, reasoningTokens: 0 },
        warnings: [warn.ignored("tool_choice", "the model ignored tool_choice")],
      },
    ];
    const tools = [{ type: "function", function: { name: "f", parameters: { type: "object" } } }];
    const r = await post(chat({ tools, tool_choice: "required" }));
    assert.equal(r.status, 200);
    assert.match(r.headers.get("x-patchbay-warnings") ?? "", /the model ignored tool_choice/);
    const body = (await r.json()) as { choices: { message: { content: string }; finish_reason: string }[] };
    assert.equal(body.choices[0]!.message.content, "no tool for you");
    assert.equal(body.choices[0]!.finish_reason, "stop");
    await waitFor("the log entry", () => s.log.entries.length > 0);
    assert.ok(s.log.entries.at(-1)!.warnings.includes("the model ignored tool_choice"));
  });
});

describe("warnings: each layer's own, once each, in layer order", () => {
  // The decoder warns about logit_bias and prediction, the planner about tools[].strict, the event mapper about a
  // tool_choice the model ignored. The backend's events come from the real planner and mapper, so this fails if any
  // layer starts passing another layer's warnings on.
  const DECODER = ["logit_bias ignored", "prediction ignored"];
  const PLANNER = ["tools[].strict is not forwarded by OpenCode; tools are sent without it"];
  const MAPPER = [formatWarning(IGNORED_TOOL_CHOICE_WARNING)];
  const body = (extra: Record<string, unknown> = {}) =>
    chat({
      logit_bias: { "50256": -100 },
      prediction: { type: "content", content: "x" },
      tools: [{ type: "function", function: { name: "f", parameters: { type: "object" }, strict: true } }],
      tool_choice: "required",
      ...extra,
    });

  /** `start` with the real plan's warnings, then what the real mapper makes of a model that answered with text
   *  although a tool call was required (its text, then `finish` with the mapper's warning). */
  function planAndMapperSteps(request: BackendRequest): Step[] {
    const plan = planBridgeRequest(request, { now: 0, idPrefix: "unit" });
    const state = createMapperState({ sessionID: "ses_w", toolNames: plan.toolNames, structured: plan.structured });
    const ev = (type: string, properties: Record<string, unknown>) =>
      mapOpenCodeEvent({ type, properties } as OpenCodeEvent, state);
    const mapped = [
      ...ev("message.updated", { sessionID: "ses_w", info: { id: "msg_a", role: "assistant" } }),
      ...ev("message.part.updated", {
        sessionID: "ses_w",
        part: { id: "p1", messageID: "msg_a", sessionID: "ses_w", type: "text", text: "no tool for you" },
      }),
      ...ev("session.error", { sessionID: "ses_w", error: { name: "StructuredOutputError", data: {} } }),
    ];
    return [{ type: "start", sessionId: "ses_w", warnings: plan.warnings }, ...mapped];
  }

  test("non-stream: the header and the log entry name decoder, planner and mapper warnings once each, in order", async () => {
    s.backend.script = (_req, request) => planAndMapperSteps(request);
    const r = await post(body());
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("x-patchbay-warnings"), [...DECODER, ...PLANNER, ...MAPPER].join("; "));
    await r.json();
    await waitFor("the log entry", () => s.log.entries.length > 0);
    assert.deepEqual(s.log.entries.at(-1)!.warnings, [...DECODER, ...PLANNER, ...MAPPER]);
  });

  test("stream: the header (sent at the first token) has decoder and planner warnings; the log has all three layers", async () => {
    s.backend.script = (_req, request) => planAndMapperSteps(request);
    const r = await post(body({ stream: true }));
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("x-patchbay-warnings"), [...DECODER, ...PLANNER].join("; "));
    await r.text();
    await waitFor("the log entry", () => s.log.entries.length > 0);
    assert.deepEqual(s.log.entries.at(-1)!.warnings, [...DECODER, ...PLANNER, ...MAPPER]);
  });

  test("a layer that meets the same thing twice says it once (decoder and planner, two assistant turns each)", async () => {
    s.backend.script = (_req, request) => [
      { type: "start", sessionId: "ses_w", warnings: planBridgeRequest(request, { now: 0, idPrefix: "u" }).warnings },
      ...textAnswer("hi").slice(1),
    ];
    // Each assistant turn has a signed thinking block (the planner drops it: the model is not Anthropic's) and a block
    // type the decoder drops.
    const turn = {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "hm", signature: "sig" },
        { type: "mystery_block" },
        { type: "text", text: "ok" },
      ],
    };
    const r = await s.call("/v1/messages", {
      method: "POST",
      headers: { "anthropic-version": "2023-06-01" },
      body: JSON.stringify({
        model: MODEL,
        max_tokens: 50,
        messages: [
          { role: "user", content: "a" },
          turn,
          { role: "user", content: "b" },
          turn,
          { role: "user", content: "c" },
        ],
      }),
    });
    assert.equal(r.status, 200, await r.clone().text());
    const expected = [
      "assistant content block type 'mystery_block' dropped",
      "signed thinking blocks in history dropped: only an Anthropic provider can verify them",
    ];
    assert.equal(r.headers.get("x-patchbay-warnings"), expected.join("; "));
    await r.json();
    await waitFor("the log entry", () => s.log.entries.length > 0);
    assert.deepEqual(s.log.entries.at(-1)!.warnings, expected);
  });
});
