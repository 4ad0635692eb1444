// One HTTP exchange with Patchbay at the byte level (node:http, keep-alive socket held open by the client), with the
// timings the compat cases assert on, and an SSE view of the body. Test-only; talks to 127.0.0.1 only.
import http from "node:http";
import { createParser } from "eventsource-parser";

/** What to send. `body`: an object is JSON-encoded; a string is sent verbatim; null/undefined sends no body. */
export interface ExchangeRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}

/** One received body chunk and when it arrived (ms after the request was sent). */
export interface BodyChunk {
  atMs: number;
  text: string;
}

/** One SSE event: `event` is the `event:` line (absent when none), `data` the joined data lines. */
export interface SseEvent {
  event?: string;
  data: string;
  /** Arrival time of the body chunk that completed this event (ms after the request). */
  atMs: number;
}

/** The parsed SSE body. */
export interface SseBody {
  events: SseEvent[];
  /** `: comment` lines (keepalives). */
  comments: string[];
  /** `data` of every event, in order (`[DONE]` included). */
  data: string[];
  /** Every event whose data is JSON, parsed, in order (`[DONE]` excluded). */
  json: Array<Record<string, unknown>>;
}

/** A finished exchange. Times are ms after the request was sent. */
export interface Exchange {
  status: number;
  headers: http.IncomingHttpHeaders;
  rawHeaders: string[];
  body: string;
  chunks: BodyChunk[];
  headersAtMs: number;
  /** When the response ended (chunked terminator / content-length reached). */
  endAtMs: number;
  /** Set when the socket errored (e.g. reset) before the response ended. */
  error: Error | null;
  /** The body as JSON. @throws when it is not JSON. */
  json<T = Record<string, unknown>>(): T;
  /** The body as SSE. */
  sse(): SseBody;
  /** Arrival time of the first chunk whose accumulated body contains `needle`, or null. */
  firstAt(needle: string): number | null;
}

/** Sends one request to `baseUrl` (`http://127.0.0.1:<port>`) and collects the whole response. Never rejects for
 *  HTTP statuses; rejects when no response arrives within `timeoutMs`. */
export function exchange(baseUrl: string, req: ExchangeRequest, timeoutMs = 60_000): Promise<Exchange> {
  const url = new URL(req.path, baseUrl);
  const payload =
    req.body === undefined || req.body === null
      ? undefined
      : typeof req.body === "string"
        ? req.body
        : JSON.stringify(req.body);
  const headers: Record<string, string> = { ...req.headers };
  if (payload !== undefined) headers["content-length"] = String(Buffer.byteLength(payload));
  // keepAlive: the client keeps its socket open, so "the server ends the response" is measured, not a client close.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const t0 = performance.now();
  const since = () => Math.round(performance.now() - t0);
  return new Promise<Exchange>((resolve, reject) => {
    const timer = setTimeout(() => {
      request.destroy(new Error(`no complete response within ${timeoutMs} ms`));
    }, timeoutMs);
    const request = http.request(url, { method: req.method, headers, agent }, (res) => {
      const headersAtMs = since();
      const chunks: BodyChunk[] = [];
      let error: Error | null = null;
      res.setEncoding("utf8");
      res.on("data", (text: string) => chunks.push({ atMs: since(), text }));
      res.on("error", (err) => (error = err));
      const finish = () => {
        clearTimeout(timer);
        const endAtMs = since();
        agent.destroy();
        resolve(makeExchange(res, chunks, headersAtMs, endAtMs, error));
      };
      res.on("end", finish);
      res.on("aborted", () => (error = new Error("response aborted (connection reset)")));
      res.on("close", () => {
        if (!res.complete) {
          error ??= new Error("connection closed before the response completed");
          finish();
        }
      });
    });
    request.on("error", (err) => {
      clearTimeout(timer);
      agent.destroy();
      reject(err);
    });
    if (payload !== undefined) request.write(payload);
    request.end();
  });
}

function makeExchange(
  res: http.IncomingMessage,
  chunks: BodyChunk[],
  headersAtMs: number,
  endAtMs: number,
  error: Error | null,
): Exchange {
  const body = chunks.map((c) => c.text).join("");
  let sse: SseBody | null = null;
  return {
    status: res.statusCode ?? 0,
    headers: res.headers,
    rawHeaders: res.rawHeaders,
    body,
    chunks,
    headersAtMs,
    endAtMs,
    error,
    json<T>() {
      try {
        return JSON.parse(body) as T;
      } catch {
        throw new Error(`response body is not JSON (status ${res.statusCode}): ${body.slice(0, 300)}`);
      }
    },
    sse() {
      sse ??= parseSse(chunks);
      return sse;
    },
    firstAt(needle) {
      let acc = "";
      for (const c of chunks) {
        acc += c.text;
        if (acc.includes(needle)) return c.atMs;
      }
      return null;
    },
  };
}

/** Parses an SSE body with eventsource-parser (the parser the AI SDK uses). */
export function parseSse(chunks: readonly BodyChunk[]): SseBody {
  const out: SseBody = { events: [], comments: [], data: [], json: [] };
  let at = 0;
  const parser = createParser({
    onEvent: (e) => {
      out.events.push({ ...(e.event !== undefined ? { event: e.event } : {}), data: e.data, atMs: at });
      out.data.push(e.data);
      if (e.data !== "[DONE]") {
        try {
          out.json.push(JSON.parse(e.data) as Record<string, unknown>);
        } catch {
          throw new Error(`SSE data is neither JSON nor [DONE]: ${e.data.slice(0, 200)}`);
        }
      }
    },
    onComment: (c) => out.comments.push(c),
  });
  for (const c of chunks) {
    at = c.atMs;
    parser.feed(c.text);
  }
  return out;
}
