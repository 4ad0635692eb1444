// Specs of the RESP-* compat cases (POST /v1/responses, JSON and named-event streams): mock scripts from the fixture
// lines and the `expect` lines as assertions, plus a few helpers the Responses suites share.
import assert from "node:assert/strict";
import type { Exchange } from "./exchange";
import type { CaseSpec } from "./runner";
import { expectEnvelope, expectSse, expectStatus, upstreamBody } from "./expect";

type Json = Record<string, unknown>;

/** The named events of a Responses stream, after checking the framing: SSE, `event:` equal to `data.type`,
 *  `sequence_number` an integer on every event, counting 0, 1, 2, … without gaps; `[DONE]` only after the end. */
export function responseEvents(res: Exchange): Json[] {
  expectSse(res);
  const sse = res.sse();
  const events: Json[] = [];
  sse.events.forEach((e, i) => {
    if (e.data === "[DONE]") {
      assert.equal(i, sse.events.length - 1, "[DONE], if present, is last");
      return;
    }
    const data = JSON.parse(e.data) as Json;
    assert.equal(e.event, data.type, `event line equals data.type at ${i}`);
    assert.ok(Number.isInteger(data.sequence_number), `sequence_number is an integer on ${String(data.type)}`);
    events.push(data);
  });
  assert.deepEqual(
    events.map((e) => e.sequence_number),
    events.map((_e, i) => i),
    "sequence_number counts 0, 1, 2, … in emission order",
  );
  return events;
}

/** The `response` object of the one terminal event (completed/incomplete/failed). */
export function terminalResponse(events: readonly Json[]): Json {
  const terminal = events.filter((e) =>
    ["response.completed", "response.incomplete", "response.failed"].includes(String(e.type)),
  );
  assert.equal(terminal.length, 1, "exactly one terminal event");
  assert.equal(events.at(-1), terminal[0], "the terminal event is the last one");
  return terminal[0]!.response as Json;
}

/** The text of a response object's message items. */
export function responseText(response: Json): string {
  return (response.output as Json[])
    .filter((i) => i.type === "message")
    .flatMap((i) => (i.content as Json[]).map((p) => String(p.text ?? "")))
    .join("");
}

export const responsesSpecs: Record<string, CaseSpec> = {
  "RESP-STREAM-SEQUENCE-NUMBER": {
    async run(ctx) {
      const { res } = await ctx.send({ script: [{ text: "Hello there, friend.", chunks: 4 }] });
      const events = responseEvents(res);
      assert.equal(events[0]!.type, "response.created");
      assert.equal(events[0]!.sequence_number, 0, "0 is serialised, not omitted");
      assert.match(res.body, /"sequence_number":0[,}]/);
      assert.equal(String(terminalResponse(events).status), "completed");
    },
  },

  "RESP-STREAM-TEXT-EVENT-LIFECYCLE": {
    async run(ctx) {
      const { res } = await ctx.send({ script: [{ text: "Mars and Venus.", chunks: 3 }] });
      const events = responseEvents(res);
      const types = events.map((e) => String(e.type));
      const deltas = types.filter((t) => t === "response.output_text.delta").length;
      assert.ok(deltas >= 1);
      assert.deepEqual(types, [
        "response.created",
        "response.in_progress",
        "response.output_item.added",
        "response.content_part.added",
        ...Array<string>(deltas).fill("response.output_text.delta"),
        "response.output_text.done",
        "response.content_part.done",
        "response.output_item.done",
        "response.completed",
      ]);
      const added = events[2]!;
      assert.equal(added.output_index, 0);
      const item = added.item as Json;
      assert.equal(item.type, "message");
      assert.ok(typeof item.id === "string" && item.id.length > 0);
      assert.equal(item.role, "assistant");
      assert.equal(item.status, "in_progress");
      assert.deepEqual(item.content, []);
      const partAdded = events[3]!;
      assert.equal(partAdded.item_id, item.id);
      assert.equal(partAdded.output_index, 0);
      assert.equal(partAdded.content_index, 0);
      const part = partAdded.part as Json;
      assert.equal(part.type, "output_text");
      assert.equal(part.text, "");
      assert.deepEqual(part.annotations, []);
      let text = "";
      for (const d of events.filter((e) => e.type === "response.output_text.delta")) {
        assert.equal(d.item_id, item.id);
        assert.equal(d.output_index, 0);
        assert.equal(d.content_index, 0);
        assert.equal(typeof d.delta, "string");
        assert.ok(Array.isArray(d.logprobs));
        text += d.delta as string;
      }
      assert.equal(text, "Mars and Venus.");
      const textDone = events.find((e) => e.type === "response.output_text.done")!;
      assert.equal(textDone.text, text);
      assert.ok(Array.isArray(textDone.logprobs));
      assert.equal((events.find((e) => e.type === "response.content_part.done")!.part as Json).text, text);
      const itemDone = events.find((e) => e.type === "response.output_item.done")!.item as Json;
      assert.equal(itemDone.status, "completed");
      assert.equal((itemDone.content as Json[])[0]!.text, text);
    },
  },

  "RESP-STREAM-COMPLETED-OBJECT": {
    async run(ctx) {
      const { res, upstream } = await ctx.send({
        script: [
          { text: "ok", usage: { prompt_tokens: 20, completion_tokens: 2, cached_tokens: 5, reasoning_tokens: 0 } },
        ],
      });
      const events = responseEvents(res);
      for (const e of events.slice(0, 2)) {
        const r = e.response as Json;
        assert.ok(typeof r.id === "string" && r.id.length > 0);
        assert.equal(r.object, "response");
        assert.equal(r.status, "in_progress");
        assert.deepEqual(r.output, []);
        assert.equal(typeof r.model, "string");
        assert.equal(typeof r.created_at, "number");
      }
      const done = events.at(-1)!;
      assert.equal(done.type, "response.completed");
      const r = done.response as Json;
      assert.equal(r.id, (events[0]!.response as Json).id);
      assert.equal(r.object, "response");
      assert.equal(r.status, "completed");
      assert.equal(typeof r.model, "string");
      const itemsDone = events.filter((e) => e.type === "response.output_item.done").map((e) => e.item);
      assert.ok((r.output as Json[]).length > 0);
      assert.deepEqual(r.output, itemsDone, "output equals the output_item.done items");
      assert.equal(responseText(r), "ok");
      const u = r.usage as Json;
      for (const k of ["input_tokens", "output_tokens", "total_tokens"]) assert.ok(Number.isInteger(u[k]), k);
      assert.ok(Number.isInteger((u.input_tokens_details as Json).cached_tokens));
      assert.ok(Number.isInteger((u.output_tokens_details as Json).reasoning_tokens));
      assert.equal(u.input_tokens, 20, "input includes cached tokens");
      assert.equal((u.input_tokens_details as Json).cached_tokens, 5);
      assert.equal(r.error, null);
      const completedAt = res.firstAt("response.completed");
      assert.ok(
        completedAt !== null && res.endAtMs - completedAt < 1000,
        `ended ${res.endAtMs - (completedAt ?? 0)} ms after response.completed`,
      );
      assert.deepEqual(
        (upstreamBody(upstream).messages as Json[])[0],
        { role: "system", content: "Be terse." },
        "instructions → system",
      );
    },
  },

  "RESP-STREAM-FAILURE-EVENT": {
    async run(ctx) {
      // A few tokens, then the upstream drops the connection.
      const { res } = await ctx.send({
        script: [
          { text: "Tides rise and fall twice a day because of the moon.", chunks: 8, dropAfterChunks: 3, paceMs: 60 },
          { text: "never" },
        ],
      });
      const events = responseEvents(res);
      assert.ok(
        events.some((e) => e.type === "response.output_text.delta"),
        "output had started",
      );
      const last = events.at(-1)!;
      const terminal = events.filter((e) => e.type === "response.failed" || e.type === "error");
      assert.equal(terminal.length, 1, "exactly one terminal error event");
      assert.equal(last, terminal[0], "it ends the stream");
      if (last.type === "response.failed") {
        const r = last.response as Json;
        assert.equal(r.status, "failed");
        const err = r.error as Json;
        assert.ok(typeof err.code === "string" && err.code.length > 0);
        assert.ok(typeof err.message === "string" && err.message.length > 0);
      } else {
        assert.ok(typeof last.code === "string" && typeof last.message === "string");
      }
      assert.ok(!events.some((e) => e.type === "response.completed"), "no response.completed");
      const failedAt = res.firstAt(String(last.type));
      assert.ok(
        failedAt !== null && res.endAtMs - failedAt < 1000,
        "the server closes the response after the terminal event",
      );
    },
  },

  "RESP-INPUT-STRING-AND-INSTRUCTIONS": {
    async run(ctx) {
      const { res, upstream } = await ctx.send({
        script: [{ text: "Hi.", usage: { prompt_tokens: 11, completion_tokens: 2 } }],
      });
      expectStatus(res, 200);
      const r = res.json();
      checkShape(r);
      const asString = upstreamBody(upstream);
      assert.deepEqual(asString.messages, [
        { role: "system", content: "Answer in one word." },
        { role: "user", content: "Hello" },
      ]);
      const asItems = await ctx.send({
        script: [{ text: "Hi." }],
        body: (b) =>
          void (b.input = [{ type: "message", role: "user", content: [{ type: "input_text", text: "Hello" }] }]),
      });
      expectStatus(asItems.res, 200);
      checkShape(asItems.res.json());
      assert.deepEqual(
        upstreamBody(asItems.upstream),
        asString,
        "the same upstream body for a string and a one-item list",
      );
      const empty = await ctx.send({ body: (b) => void (b.input = []) });
      expectEnvelope(empty.res, 400, { type: "invalid_request_error", param: "input" });
    },
  },

  "RESP-INPUT-FUNCTION-CALL-HISTORY": {
    async run(ctx) {
      const { res, upstream } = await ctx.send({ script: [{ text: "The files are a.txt and b.txt in /home/user." }] });
      expectStatus(res, 200);
      const r = res.json();
      assert.equal(r.status, "completed");
      assert.ok(responseText(r).length > 0);
      const body = upstreamBody(upstream);
      assert.deepEqual((body.messages as Json[]).slice(1), [
        {
          role: "assistant",
          content: "",
          tool_calls: [
            { id: "call_a", type: "function", function: { name: "exec_command", arguments: '{"cmd":"ls"}' } },
            { id: "call_b", type: "function", function: { name: "exec_command", arguments: '{"cmd":"pwd"}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_a", content: "a.txt b.txt" },
        { role: "tool", tool_call_id: "call_b", content: "/home/user" },
      ]);
      const unknown = await ctx.send({ body: (b) => void ((b.input as Json[])[4]!.call_id = "call_zzz") });
      const e = expectEnvelope(unknown.res, 400, { type: "invalid_request_error" });
      assert.match(String(e.param), /^input\[4\]/);
      assert.equal(unknown.upstream.length, 0);
      const mixed = await ctx.send({
        script: [{ text: "Done." }],
        body: (b) => {
          const input = b.input as Json[];
          input.splice(1, 0, {
            type: "message",
            role: "assistant",
            content: [{ type: "output_text", text: "Let me look." }],
          });
        },
      });
      expectStatus(mixed.res, 200);
      const assistant = (upstreamBody(mixed.upstream).messages as Json[])[1]!;
      assert.equal(assistant.content, "Let me look.", "text kept");
      assert.deepEqual(
        (assistant.tool_calls as Json[]).map((c) => c.id),
        ["call_a", "call_b"],
        "calls kept in the same turn",
      );
    },
  },
};

function checkShape(r: Json): void {
  assert.equal(r.object, "response");
  assert.equal(r.status, "completed");
  const out = (r.output as Json[])[0]!;
  assert.equal(out.type, "message");
  assert.equal(out.role, "assistant");
  const part = (out.content as Json[])[0]!;
  assert.equal(part.type, "output_text");
  assert.ok(typeof part.text === "string" && part.text.length > 0);
  const u = r.usage as Json;
  assert.ok(Number.isInteger(u.input_tokens) && Number.isInteger(u.output_tokens));
}
