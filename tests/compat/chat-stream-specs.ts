// Specs of the CC-STREAM-* compat cases (streamed chat completions): the mock script of each case's fixture lines
// and its `expect` lines as assertions, variants included where the mock can express them.
import assert from "node:assert/strict";
import type { Exchange } from "./exchange";
import type { CaseSpec } from "./runner";
import {
  assembleToolCalls,
  chatStream,
  choice0,
  expectEnvelope,
  expectSse,
  type OpenAiError,
  finishChunks,
  streamedText,
  toolCallDeltas,
  upstreamBody,
} from "./expect";

type Json = Record<string, unknown>;

const FINISH_REASONS = ["stop", "length", "tool_calls", "content_filter", "function_call"];
/** Headers must reach the client this fast while the upstream is silent (the case's 2 s). Patchbay commits after 1 s. */
const EARLY_HEADERS_MS = 2000;
/** Upstream silence used instead of the case's 400 s (see the brief: assert commit-before-first-token only). */
const SILENCE_MS = 3500;

/** Patchbay's commit hold on streams: before it, an error is an HTTP status; after it, the stream has started. */
const COMMIT_HOLD_MS = 900;

/**
 * The error envelope of an error that came before the first token: the HTTP status and JSON body when it came
 * within Patchbay's 1 s commit hold, else (a busy machine: OpenCode answered later) the in-band error of a stream
 * that had to start, which must carry the same fields. Returns the error object either way.
 */
function prestreamOrCommitted(
  res: Exchange,
  status: number | readonly number[],
  fields: Partial<Pick<OpenAiError, "code" | "param" | "type">>,
): OpenAiError {
  if (res.status !== 200) return expectEnvelope(res, status, fields);
  assert.ok(res.headersAtMs >= COMMIT_HOLD_MS, `200 after ${res.headersAtMs} ms, before the commit hold ran out`);
  const event = res.sse().events.find((e) => e.data.includes('"error"'));
  assert.ok(event, `no in-band error event: ${res.body.slice(0, 300)}`);
  const error = (JSON.parse(event.data) as { error: OpenAiError }).error;
  for (const [k, v] of Object.entries(fields)) assert.equal(error[k as keyof OpenAiError], v, `in-band error.${k}`);
  return error;
}

export const chatStreamSpecs: Record<string, CaseSpec> = {
  "CC-STREAM-USAGE-CHUNK": {
    async run(ctx) {
      const { res, upstream } = await ctx.send({
        script: [{ text: "1, 2, 3, 4, 5", chunks: 5, usage: { prompt_tokens: 13, completion_tokens: 9 } }],
      });
      const chunks = chatStream(res);
      assert.match(String(res.headers["content-type"]), /^text\/event-stream/);
      const usageChunks = chunks.filter((c) => Array.isArray(c.choices) && (c.choices as unknown[]).length === 0);
      assert.equal(usageChunks.length, 1, "exactly one chunk has choices == []");
      const usageChunk = usageChunks[0]!;
      assert.equal(chunks.at(-1), usageChunk, "the usage chunk is the last JSON chunk before [DONE]");
      const finishIdx = chunks.findIndex((c) => choice0(c)?.finish_reason != null);
      assert.ok(
        finishIdx >= 0 && finishIdx < chunks.indexOf(usageChunk),
        "the finish chunk comes before the usage chunk",
      );
      const u = usageChunk.usage as Json;
      assert.ok(Number.isInteger(u.prompt_tokens) && (u.prompt_tokens as number) >= 1);
      assert.ok(Number.isInteger(u.completion_tokens) && (u.completion_tokens as number) >= 1);
      assert.equal(u.total_tokens, (u.prompt_tokens as number) + (u.completion_tokens as number));
      // The upstream's real usage is relayed, not estimated.
      assert.equal(u.prompt_tokens, 13);
      assert.equal(u.completion_tokens, 9);
      assert.equal(usageChunk.object, "chat.completion.chunk");
      assert.ok(
        chunks.every((c) => c.id === usageChunk.id),
        "the usage chunk's id equals the other chunks' id",
      );
      for (const c of chunks)
        if (c !== usageChunk) assert.ok(c.usage === undefined || c.usage === null, "non-usage chunks carry no usage");
      assert.equal(streamedText(chunks), "1, 2, 3, 4, 5");
      assert.deepEqual(
        upstreamBody(upstream).stream_options,
        { include_usage: true },
        "the upstream is asked for usage",
      );
    },
  },

  "CC-STREAM-NO-EMPTY-CHOICES-WITHOUT-USAGE": {
    async run(ctx) {
      // The upstream itself sends a usage chunk with choices: []; Patchbay must not pass it on unasked.
      const { res, upstream } = await ctx.send({ script: [{ text: "Hi there!", chunks: 3 }] });
      const chunks = chatStream(res);
      for (const c of chunks) {
        assert.ok(c.choices !== null, "no chunk has choices == null");
        assert.ok(Array.isArray(c.choices) && c.choices.length >= 1, `every chunk has a choice: ${JSON.stringify(c)}`);
        assert.ok(c.usage === undefined || c.usage === null);
      }
      assert.equal(streamedText(chunks), "Hi there!");
      upstreamBody(upstream);
    },
  },

  "CC-STREAM-CHUNK-SHAPE-ROLE": {
    async run(ctx) {
      const { res } = await ctx.send({ script: [{ text: "Rivers carve valleys slowly over time.", chunks: 5 }] });
      const chunks = chatStream(res);
      const id = chunks[0]!.id;
      assert.ok(typeof id === "string" && id.length > 0);
      for (const c of chunks) {
        assert.equal(c.id, id, "id identical across chunks");
        assert.equal(c.object, "chat.completion.chunk");
        assert.ok(Number.isInteger(c.created) && (c.created as number) > 1_600_000_000, "created is unix seconds");
        assert.ok(typeof c.model === "string" && c.model.length > 0);
        for (const ch of c.choices as Json[]) {
          assert.ok(Number.isInteger(ch.index));
          assert.ok(
            ch.delta !== null && typeof ch.delta === "object" && !Array.isArray(ch.delta),
            "delta is an object",
          );
          assert.ok(
            ch.finish_reason === null || FINISH_REASONS.includes(ch.finish_reason as string),
            `finish_reason ${String(ch.finish_reason)}`,
          );
          const role = (ch.delta as Json).role;
          assert.ok(
            role === undefined || role === "assistant",
            `delta.role is absent or 'assistant', got ${JSON.stringify(role)}`,
          );
        }
      }
      assert.equal((choice0(chunks[0]!)?.delta as Json).role, "assistant", "the first chunk carries the role");
      assert.equal(finishChunks(chunks).length, 1, "exactly one chunk per choice index has a finish_reason");
      assert.equal(streamedText(chunks), "Rivers carve valleys slowly over time.");
    },
  },

  "CC-STREAM-TERMINATION": {
    async run(ctx) {
      for (const includeUsage of [false, true]) {
        const { res } = await ctx.send({
          script: [{ text: "ok" }],
          ...(includeUsage ? { body: (b: Json) => void (b.stream_options = { include_usage: true }) } : {}),
        });
        const chunks = chatStream(res);
        const lastContent = includeUsage ? chunks.at(-2)! : chunks.at(-1)!;
        assert.ok(
          choice0(lastContent)?.finish_reason != null,
          "the last chunk before [DONE] (or the usage chunk) has finish_reason",
        );
        const afterDone = res.body.slice(res.body.indexOf("data: [DONE]\n\n") + "data: [DONE]\n\n".length);
        assert.ok(res.body.includes("data: [DONE]\n\n"));
        assert.match(afterDone, /^(\s|:[^\n]*\n)*$/, "nothing but whitespace/comments follows [DONE]");
        const doneAt = res.firstAt("data: [DONE]");
        assert.ok(doneAt !== null);
        assert.ok(
          res.endAtMs - doneAt < 1000,
          `the response ended ${res.endAtMs - doneAt} ms after [DONE] (client kept the socket open)`,
        );
        assert.ok(
          res.headers["transfer-encoding"] === "chunked" || res.headers["content-length"] !== undefined,
          "chunked transfer encoding or a content-length",
        );
        assert.equal(res.error, null, "terminated cleanly, no connection reset");
      }
    },
  },

  "CC-STREAM-LONG-TTFT-EARLY-HEADERS": {
    gap:
      "CC-STREAM-LONG-TTFT-EARLY-HEADERS: tested with a few seconds of upstream silence, not 400 s. Keepalive comments come every 15 s; " +
      "the app's first-token timeout defaults to 300 s (configurable up to 1 h), so a non-streamed request gives up after 300 s with 504, " +
      "not after the case's 600 s. OpenCode's own upstream fetch timeout is OpenCode's.",
    async run(ctx) {
      // Fixture B: the upstream withholds even its response headers.
      const b = await ctx.send({
        script: [{ delayMs: SILENCE_MS, text: "Here is the summary you asked for.", chunks: 3 }],
      });
      expectSse(b.res);
      assert.ok(
        b.res.headersAtMs < EARLY_HEADERS_MS,
        `200 + SSE headers after ${b.res.headersAtMs} ms (upstream silent for ${SILENCE_MS} ms)`,
      );
      const firstData = b.res.sse().events[0]?.atMs ?? Infinity;
      assert.ok(
        firstData >= SILENCE_MS - 500,
        `headers were committed before the first token (first data at ${firstData} ms)`,
      );
      const chunks = chatStream(b.res);
      assert.equal(streamedText(chunks), "Here is the summary you asked for.");
      assert.equal(finishChunks(chunks).length, 1);

      // Fixture A: the upstream answers 200 + SSE headers at once, then stays silent until released.
      const pending = ctx.send({ script: [{ hold: true }] });
      await new Promise((r) => setTimeout(r, SILENCE_MS));
      ctx.fx.mock.release();
      const a = await pending;
      expectSse(a.res);
      assert.ok(a.res.headersAtMs < EARLY_HEADERS_MS, `fixture A: headers after ${a.res.headersAtMs} ms`);
      const aChunks = chatStream(a.res);
      assert.equal(finishChunks(aChunks).length, 1, "fixture A: the stream still finishes");

      // Non-stream variant: the answer waits for the upstream, and a timeout is a 504 envelope. Uses an app with a short
      // first-token timeout (the minimum, 1 s) so the test does not wait 300 s.
      await ctx.fx.admin.createApp({ body: { name: "compat-short-ttft" } }).catch(() => undefined);
      await ctx.fx.admin.updateApp({
        params: { name: "compat-short-ttft" },
        body: { limits: { firstTokenTimeoutMs: 1000 } },
      });
      const shortKey = (
        await ctx.fx.admin.createKey({ params: { name: "compat-short-ttft" }, body: { label: "ttft" } })
      ).key;
      const slow = await ctx.send({
        script: [{ delayMs: SILENCE_MS, text: "too late" }],
        body: (body) => void (body.stream = false),
        headers: { Authorization: `Bearer ${shortKey}` },
      });
      expectEnvelope(slow.res, 504, { code: "timeout" });
      // Replies by content, not by call order: an upstream call of the aborted request above that OpenCode makes late
      // (seen once on a loaded machine) must not take this request's reply.
      const marker = "waited-for-slow-answer";
      const waited = await ctx.send({
        responder: (req) =>
          JSON.stringify(req.body).includes(marker) ? { delayMs: 1500, text: "worth the wait" } : { text: "stray" },
        body: (body) => {
          body.stream = false;
          body.messages = [{ role: "user", content: `Summarise (${marker}).` }];
        },
      });
      assert.equal(waited.res.status, 200, "the default app waits for a slow non-streamed answer");
      const upstreamSeen = waited.upstream.map((r) => JSON.stringify(r.body).slice(-120));
      assert.equal(
        waited.res.json<{ choices: Array<{ message: { content: string } }> }>().choices[0]?.message.content,
        "worth the wait",
        `upstream calls: ${JSON.stringify(upstreamSeen)}`,
      );
    },
  },

  "CC-STREAM-PRESTREAM-UPSTREAM-ERROR-STATUS": {
    async run(ctx) {
      // temperature 7 is out of OpenAI's range: Patchbay refuses it itself, before any upstream call.
      const own = await ctx.send({ script: [{ error: { status: 400, message: "Invalid temperature" } }] });
      const e = expectEnvelope(own.res, 400, { type: "invalid_request_error", param: "temperature" });
      assert.match(e.message, /temperature/);
      assert.equal(own.upstream.length, 0, "refused before reaching the upstream");

      // Variant: a valid temperature the upstream rejects quickly with 400 before any token.
      const upstreamBody = {
        error: {
          message: "Invalid value for temperature: 1.7 is too high for this model",
          type: "invalid_request_error",
          param: "temperature",
          code: null,
        },
      };
      const up = await ctx.send({
        script: [{ error: { status: 400, body: upstreamBody } }],
        body: (b) => void (b.temperature = 1.7),
      });
      const ue = prestreamOrCommitted(up.res, 400, { type: "invalid_request_error" });
      assert.match(ue.message, /1\.7 is too high for this model/, "the upstream's message is propagated");
      assert.equal(up.upstream.length, 1);

      // Variant: upstream 503 before the first byte → a retryable 5xx JSON error, not 200 + in-band error.
      const busy = await ctx.send({
        script: [{ error: { status: 503, message: "overloaded" } }, { error: { status: 503, message: "overloaded" } }],
        body: (b) => void (b.temperature = 1),
      });
      if (busy.res.status !== 200 || busy.res.headersAtMs < COMMIT_HOLD_MS) {
        expectEnvelope(busy.res, [502, 503]);
        assert.ok(!busy.res.body.includes("event: error"));
      } else prestreamOrCommitted(busy.res, [502, 503], {});
    },
  },

  "CC-STREAM-TOOL-DELTA-SHAPE": {
    async run(ctx) {
      const { res, upstream } = await ctx.send({
        script: [{ toolCalls: [{ id: "call_w_1", name: "get_weather", arguments: { city: "Paris" } }] }],
      });
      const chunks = chatStream(res);
      const firstToolIdx = chunks.findIndex(
        (c) => ((choice0(c)?.delta as Json | undefined)?.tool_calls as unknown) !== undefined,
      );
      assert.ok(firstToolIdx >= 0, "the stream has tool-call deltas");
      assert.ok(
        chunks.slice(0, firstToolIdx + 1).some((c) => (choice0(c)?.delta as Json).role === "assistant"),
        "the first tool-call chunk or an earlier one carries role 'assistant'",
      );
      const deltas = toolCallDeltas(chunks);
      const seen = new Map<number, Json>();
      for (const d of deltas) {
        assert.ok(Number.isInteger(d.index) && (d.index as number) >= 0, "integer index >= 0");
        const fn = d.function as Json;
        const first = seen.get(d.index as number);
        if (!first) {
          assert.ok(typeof d.id === "string" && d.id.length > 0, "first delta has a non-empty id");
          assert.equal(d.type, "function");
          assert.equal(fn.name, "get_weather", "complete name in the first delta");
          assert.equal(typeof fn.arguments, "string");
          seen.set(d.index as number, d);
        } else {
          assert.ok(
            d.id === undefined || d.id === null || d.id === first.id,
            "later deltas never carry a different id",
          );
          assert.ok(fn.name === undefined || fn.name === null, "later deltas carry no name");
        }
      }
      assert.deepEqual([...seen.keys()].sort(), [0], "tool-call indexes start at 0");
      const calls = assembleToolCalls(chunks);
      assert.deepEqual(JSON.parse(calls[0]!.arguments), { city: "Paris" });
      assert.equal(calls[0]!.id, "call_w_1", "the upstream's call id is kept");
      assert.equal(choice0(finishChunks(chunks)[0]!)?.finish_reason, "tool_calls");
      for (const c of chunks) {
        const delta = choice0(c)?.delta as Json | undefined;
        if (delta?.tool_calls)
          assert.ok(
            delta.content === undefined || delta.content === null || delta.content === "",
            "no content in tool-call chunks",
          );
      }
      // Named tool_choice is approximated (only that tool offered, a call required) and says so.
      const body = upstreamBody(upstream);
      assert.equal(body.tool_choice, "required");
      assert.deepEqual(
        (body.tools as Json[]).map((t) => (t.function as Json).name),
        ["get_weather"],
      );
      const header = String(res.headers["x-patchbay-warnings"] ?? "");
      if (res.headersAtMs >= COMMIT_HOLD_MS && header === "") {
        // The commit hold sent the headers before OpenCode started the run (a slow first prompt in a new instance):
        // the planner's warnings came later, so they are in the request log, which always has them.
        const { entries } = await ctx.fx.admin.queryLogs({ query: { limit: 1 } });
        assert.match(JSON.stringify(entries[0]?.warnings ?? null), /tool_choice/);
      } else assert.match(header, /tool_choice/);
    },
  },
};
