// Assertion helpers shared by the compat specs and the end-to-end suites: statuses, content types, the OpenAI error
// envelope, chat chunk streams, and the upstream record. Each helper fails with a message that shows the body.
import assert from "node:assert/strict";
import type { RecordedRequest } from "../harness/mock-upstream";
import type { Exchange } from "./exchange";

type Json = Record<string, unknown>;

/** Asserts the status (one value or any of a list), showing the body on failure. */
export function expectStatus(res: Exchange, status: number | readonly number[]): void {
  const ok = typeof status === "number" ? res.status === status : status.includes(res.status);
  assert.ok(ok, `expected status ${JSON.stringify(status)}, got ${res.status}: ${res.body.slice(0, 500)}`);
}

/** Asserts a JSON response (`application/json`). */
export function expectJson(res: Exchange): void {
  assert.match(
    String(res.headers["content-type"] ?? ""),
    /^application\/json/,
    `content-type of a JSON answer: ${res.body.slice(0, 200)}`,
  );
}

/** Asserts an SSE response (`text/event-stream`) with status 200. */
export function expectSse(res: Exchange): void {
  expectStatus(res, 200);
  assert.match(String(res.headers["content-type"] ?? ""), /^text\/event-stream/);
  assert.equal(res.error, null, "the stream ended cleanly (no reset)");
}

/** The OpenAI error object of an error answer. */
export interface OpenAiError {
  message: string;
  type: string;
  param: string | null;
  code: string | null;
}

/** Asserts an OpenAI error envelope `{error:{message,type,param,code}}` with `status`; checks the given fields. */
export function expectEnvelope(
  res: Exchange,
  status: number | readonly number[],
  want: Partial<Pick<OpenAiError, "code" | "param" | "type">> = {},
): OpenAiError {
  expectStatus(res, status);
  expectJson(res);
  assert.ok(res.body.length > 0, "an error answer has a body");
  const body = res.json<{ error: unknown }>();
  assert.equal(typeof body.error, "object", "error is an object, not a string");
  const e = body.error as OpenAiError;
  assert.equal(typeof e.message, "string");
  assert.ok(e.message.length > 0, "error.message is non-empty");
  assert.equal(typeof e.type, "string");
  assert.ok("param" in e && "code" in e, "error has the keys param and code");
  for (const [k, v] of Object.entries(want)) assert.equal(e[k as keyof OpenAiError], v, `error.${k}`);
  return e;
}

/** The JSON chunks of a chat completion stream after checking the framing: SSE, `[DONE]` exactly once and last. */
export function chatStream(res: Exchange): Json[] {
  expectSse(res);
  const sse = res.sse();
  assert.equal(sse.data.at(-1), "[DONE]", "the last data line is [DONE]");
  assert.equal(sse.data.filter((d) => d === "[DONE]").length, 1, "[DONE] appears exactly once");
  assert.ok(sse.json.length > 0, "the stream has JSON chunks");
  for (const c of sse.json) assert.ok(!("error" in c), `no in-band error chunk: ${JSON.stringify(c)}`);
  return sse.json;
}

/** `choices[0]` of a chunk (or undefined when choices is empty). */
export function choice0(chunk: Json): Json | undefined {
  return (chunk.choices as Json[] | undefined)?.[0];
}

/** The concatenated `delta.content` of chat chunks. */
export function streamedText(chunks: readonly Json[]): string {
  return chunks.map((c) => ((choice0(c)?.delta as Json | undefined)?.content as string | undefined) ?? "").join("");
}

/** Tool-call deltas of chat chunks, in order. */
export function toolCallDeltas(chunks: readonly Json[]): Json[] {
  return chunks.flatMap((c) => ((choice0(c)?.delta as Json | undefined)?.tool_calls as Json[] | undefined) ?? []);
}

/** Tool calls assembled from deltas by index: id, name and concatenated arguments. */
export function assembleToolCalls(
  chunks: readonly Json[],
): Array<{ index: number; id: string; name: string; arguments: string }> {
  const byIndex = new Map<number, { index: number; id: string; name: string; arguments: string }>();
  for (const d of toolCallDeltas(chunks)) {
    const index = d.index as number;
    const fn = (d.function ?? {}) as Json;
    const cur = byIndex.get(index) ?? { index, id: "", name: "", arguments: "" };
    if (typeof d.id === "string" && d.id) cur.id = d.id;
    if (typeof fn.name === "string" && fn.name) cur.name = fn.name;
    if (typeof fn.arguments === "string") cur.arguments += fn.arguments;
    byIndex.set(index, cur);
  }
  return [...byIndex.values()].sort((a, b) => a.index - b.index);
}

/** Chunks that carry a non-null `finish_reason`. */
export function finishChunks(chunks: readonly Json[]): Json[] {
  return chunks.filter((c) => ((c.choices as Json[] | undefined) ?? []).some((ch) => ch.finish_reason != null));
}

/** Asserts exactly `n` upstream calls and returns their bodies. */
export function upstreamBodies(upstream: readonly RecordedRequest[], n = 1): Json[] {
  assert.equal(upstream.length, n, `expected ${n} upstream call(s), got ${upstream.length}`);
  return upstream.map((u) => u.body);
}

/** The single upstream call's body. */
export function upstreamBody(upstream: readonly RecordedRequest[]): Json {
  return upstreamBodies(upstream, 1)[0]!;
}
