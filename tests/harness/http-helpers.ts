// HTTP test helpers shared by every tier: the OpenAI error envelope schema, an SSE reader that timestamps every
// frame, raw HTTP over a socket, and small waits. Test-only; no fixture of its own.
import assert from "node:assert/strict";
import net from "node:net";
import { createParser } from "eventsource-parser";
import { z } from "zod";

/** The OpenAI error envelope `{error:{message,type,param,code}}` exactly as Patchbay must send it. */
export const OpenAiErrorEnvelope = z
  .object({
    error: z
      .object({
        message: z.string().min(1),
        type: z.string().min(1),
        param: z.string().nullable(),
        code: z.string().nullable(),
      })
      .strict(),
  })
  .strict();
export type OpenAiErrorEnvelope = z.infer<typeof OpenAiErrorEnvelope>;

/** Asserts `res` is an OpenAI error envelope with `status` (and `code` when given); returns the parsed `error`. */
export async function expectEnvelope(
  res: Response,
  status: number,
  code?: string,
): Promise<OpenAiErrorEnvelope["error"]> {
  const text = await res.text();
  assert.equal(res.status, status, `status of ${res.url}: ${text.slice(0, 300)}`);
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/, `content-type of ${res.url}`);
  const parsed = OpenAiErrorEnvelope.safeParse(JSON.parse(text));
  assert.ok(parsed.success, `not an OpenAI envelope: ${text.slice(0, 300)}`);
  if (code) assert.equal(parsed.data.error.code, code, parsed.data.error.message);
  return parsed.data.error;
}

/** One received SSE frame with its arrival time (epoch ms). `json` is the parsed data, or null (`[DONE]`). */
export interface TimedFrame {
  event: string | undefined;
  data: string;
  json: Record<string, unknown> | null;
  at: number;
}

/**
 * Reads an SSE response frame by frame. `onFrame` may return true to stop reading (the body is then cancelled).
 * Resolves with every frame read; stops after `timeoutMs` at the latest (rejects then).
 */
export async function readSse(
  res: Response,
  onFrame: (f: TimedFrame) => boolean | void = () => {},
  timeoutMs = 30_000,
): Promise<TimedFrame[]> {
  assert.ok(res.body, "response has no body");
  const frames: TimedFrame[] = [];
  let stop = false;
  const parser = createParser({
    onEvent: (ev) => {
      if (stop) return;
      let json: Record<string, unknown> | null = null;
      try {
        json = JSON.parse(ev.data) as Record<string, unknown>;
      } catch {}
      const f: TimedFrame = { event: ev.event, data: ev.data, json, at: Date.now() };
      frames.push(f);
      if (onFrame(f) === true) stop = true;
    },
  });
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  const timer = setTimeout(() => void reader.cancel(new Error("readSse timeout")).catch(() => {}), timeoutMs);
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
      if (stop) {
        await reader.cancel().catch(() => {});
        break;
      }
    }
  } finally {
    clearTimeout(timer);
  }
  return frames;
}

/** The in-band error of a stream (chat: a `{error:{…}}` frame; Responses: `response.failed`), or null. */
export function inBandError(
  frames: readonly TimedFrame[],
): { message: string; code: string | null; at: number } | null {
  for (const f of frames) {
    const j = f.json;
    if (!j) continue;
    if (typeof j.error === "object" && j.error !== null) {
      const e = OpenAiErrorEnvelope.parse(j).error;
      return { message: e.message, code: e.code, at: f.at };
    }
    if (j.type === "response.failed") {
      const e = (j.response as { error?: { message: string; code: string } }).error;
      return { message: e?.message ?? "", code: e?.code ?? null, at: f.at };
    }
  }
  return null;
}

export { waitFor } from "./wait-for";

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** A chat completions body for `model` with one user message. */
export function chatBody(model: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ model, messages: [{ role: "user", content: "hello" }], ...extra });
}

/** A raw HTTP/1.1 exchange's result. `status` 0 when the server closed without answering. */
export interface RawHttpResult {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends `request` bytes as-is to 127.0.0.1:`port` (so malformed request lines, headers and framing reach the server)
 * and reads until the server closes the connection or one full response (Content-Length or chunked) arrived.
 * `halfClose` ends our side after writing (a body shorter than its Content-Length then ends early).
 */
export function rawHttp(
  port: number,
  request: Buffer | string,
  opts: { timeoutMs?: number; halfClose?: boolean } = {},
): Promise<RawHttpResult> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (err?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (err) return reject(err);
      resolve(parseRawResponse(Buffer.concat(chunks)));
    };
    const timer = setTimeout(
      () => finish(new Error(`no complete answer within ${opts.timeoutMs ?? 10_000} ms`)),
      opts.timeoutMs ?? 10_000,
    );
    socket.on("connect", () => {
      socket.write(request);
      if (opts.halfClose) socket.end();
    });
    socket.on("data", (c: Buffer) => {
      chunks.push(c);
      if (responseComplete(Buffer.concat(chunks))) finish();
    });
    socket.on("end", () => finish());
    socket.on("close", () => finish());
    socket.on("error", (err: NodeJS.ErrnoException) => {
      // The server may reset after answering (e.g. an unread body); keep what arrived.
      if (chunks.length || err.code === "ECONNRESET" || err.code === "EPIPE") finish();
      else finish(err);
    });
  });
}

function splitHead(buf: Buffer): { head: string; body: Buffer } | null {
  const i = buf.indexOf("\r\n\r\n");
  if (i < 0) return null;
  return { head: buf.subarray(0, i).toString("latin1"), body: buf.subarray(i + 4) };
}

function responseComplete(buf: Buffer): boolean {
  const parts = splitHead(buf);
  if (!parts) return false;
  const r = parseRawResponse(buf);
  if (r.headers["content-length"] !== undefined) return parts.body.length >= Number(r.headers["content-length"]);
  if (/chunked/i.test(r.headers["transfer-encoding"] ?? ""))
    return parts.body.includes("\r\n0\r\n\r\n") || parts.body.subarray(0, 5).toString() === "0\r\n\r\n";
  return false;
}

function parseRawResponse(buf: Buffer): RawHttpResult {
  const parts = splitHead(buf);
  if (!parts) return { status: 0, headers: {}, body: buf.toString("utf8") };
  const [statusLine = "", ...lines] = parts.head.split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const c = line.indexOf(":");
    if (c > 0) headers[line.slice(0, c).trim().toLowerCase()] = line.slice(c + 1).trim();
  }
  let body = parts.body;
  if (/chunked/i.test(headers["transfer-encoding"] ?? "")) body = dechunk(body);
  return { status, headers, body: body.toString("utf8") };
}

function dechunk(buf: Buffer): Buffer {
  const out: Buffer[] = [];
  let i = 0;
  while (i < buf.length) {
    const eol = buf.indexOf("\r\n", i);
    if (eol < 0) break;
    const size = Number.parseInt(buf.subarray(i, eol).toString("latin1"), 16);
    if (!Number.isFinite(size) || size === 0) break;
    out.push(buf.subarray(eol + 2, eol + 2 + size));
    i = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}
