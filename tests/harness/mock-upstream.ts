// Scriptable mock OpenAI-compatible upstream on 127.0.0.1 for tests: records every request (the ground truth of what
// "the model" saw) and answers from a queue of scripted replies. Test-only; never reaches the network.
import http from "node:http";
import type { AddressInfo } from "node:net";

/** One recorded request. `body` is the parsed JSON (or the raw text when it is not JSON). */
export interface RecordedRequest {
  n: number;
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
  rawBody: string;
  receivedAt: number;
  /** Set when the client closed the connection before the reply finished (epoch ms). */
  closedEarlyAt: number | null;
  /** Set when the reply was completely written (epoch ms). */
  finishedAt: number | null;
}

/** A scripted tool call. `arguments` as an object is JSON-encoded; a string is sent verbatim (may be invalid JSON). */
export interface MockToolCall {
  id?: string;
  name: string;
  arguments: string | Record<string, unknown>;
}

/** One scripted reply. Without `error`, a (streamed when asked) completion with `text` and/or `toolCalls`. */
export interface MockReply {
  text?: string;
  reasoning?: string;
  toolCalls?: MockToolCall[];
  /** Number of content chunks the text is split into when streaming (default: 8-char pieces). */
  chunks?: number;
  /** Pause between streamed chunks, ms. */
  paceMs?: number;
  /** Pause before sending headers, ms. */
  delayMs?: number;
  /** Keep the stream open after the content until `release()` is called. */
  hold?: boolean;
  /** Destroy the socket after this many content chunks. */
  dropAfterChunks?: number;
  /** Streaming: end the response cleanly after the content, with no finish_reason chunk, no usage and no [DONE]. */
  endWithoutFinish?: boolean;
  /** Answer HTTP 200 with exactly this body (`rawContentType`, default `text/event-stream`) instead of a completion. */
  rawBody?: string;
  rawContentType?: string;
  /** HTTP error instead of a completion. `body` defaults to an OpenAI error envelope with `message`. */
  error?: { status: number; message?: string; body?: unknown; headers?: Record<string, string> };
  usage?: { prompt_tokens?: number; completion_tokens?: number; cached_tokens?: number; reasoning_tokens?: number };
  finishReason?: "stop" | "length" | "tool_calls" | "content_filter";
  /** A finish_reason sent verbatim (wins over `finishReason`), e.g. a non-standard value like "end_turn". */
  rawFinishReason?: string;
}

/** Reply used when the queue is empty (default: the text "MOCK_DEFAULT_REPLY"). */
export type MockResponder = (req: RecordedRequest) => MockReply;

/** The mock upstream. `baseURL` is `http://127.0.0.1:<port>/v1`. */
export class MockUpstream {
  readonly requests: RecordedRequest[] = [];
  private queue: MockReply[] = [];
  private responder: MockResponder = () => ({ text: "MOCK_DEFAULT_REPLY" });
  private server: http.Server | null = null;
  private holds: Array<() => void> = [];
  private waiters: Array<() => void> = [];
  private port = 0;
  /** OpenCode sessions (its `X-Session-Id` header) seen since the last {@link fence}, and those fenced off. */
  private sessionsSinceFence = new Set<string>();
  private fencedSessions = new Set<string>();
  /** Requests of fenced-off sessions answered by {@link fence}'s rule (neither recorded nor scripted). */
  fencedAnswers = 0;

  get baseURL(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  async start(): Promise<this> {
    const server = http.createServer((req, res) => void this.handle(req, res));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    this.port = (server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    this.release();
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Appends replies to the queue (consumed one per chat request, in order). */
  script(...replies: MockReply[]): this {
    this.queue.push(...replies);
    return this;
  }

  /** Sets the reply used when the queue is empty. */
  setResponder(fn: MockResponder): this {
    this.responder = fn;
    return this;
  }

  /** Clears recorded requests, the queue and the responder. */
  reset(): void {
    this.requests.length = 0;
    this.queue = [];
    this.responder = () => ({ text: "MOCK_DEFAULT_REPLY" });
    this.release();
  }

  /**
   * Fences off every OpenCode session seen so far: a later request of one of them (OpenCode retrying a call that an
   * earlier user of this mock scripted to fail, after that user was done) gets a plain answer, is not recorded and
   * takes no scripted reply. Files sharing one Patchbay call it between them (tests/harness/shared-patchbay.ts), so
   * a file's leftovers never consume the next file's script. OpenCode names the session of every call to a
   * non-OpenCode provider in `X-Session-Id` (1.18.33, session/llm).
   */
  fence(): void {
    for (const id of this.sessionsSinceFence) this.fencedSessions.add(id);
    this.sessionsSinceFence.clear();
  }

  /** Streams waiting at their hold point for {@link release}. */
  get heldCount(): number {
    return this.holds.length;
  }

  /** Lets every held stream finish. */
  release(): void {
    const h = this.holds;
    this.holds = [];
    for (const f of h) f();
  }

  /** Resolves once at least `n` chat requests were recorded; rejects after `timeoutMs`. */
  async waitForRequests(n: number, timeoutMs = 10_000): Promise<RecordedRequest[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.chatRequests().length < n) {
      if (Date.now() > deadline)
        throw new Error(`mock upstream: expected ${n} requests, got ${this.chatRequests().length}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 50);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    return this.chatRequests();
  }

  /** Recorded `/chat/completions` requests. */
  chatRequests(): RecordedRequest[] {
    return this.requests.filter((r) => r.path.endsWith("/chat/completions"));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const rawBody = Buffer.concat(chunks).toString("utf8");
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(rawBody) as Record<string, unknown>;
    } catch {
      body = { _raw: rawBody };
    }
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const rec: RecordedRequest = {
      n: this.requests.length + 1,
      method: req.method ?? "GET",
      path,
      headers: req.headers,
      body,
      rawBody,
      receivedAt: Date.now(),
      closedEarlyAt: null,
      finishedAt: null,
    };
    const sessionId = req.headers["x-session-id"];
    if (typeof sessionId === "string" && this.fencedSessions.has(sessionId)) {
      this.fencedAnswers++;
      const reply: MockReply = { text: "MOCK_FENCED_REPLY" };
      if (body.stream === true) await this.stream(rec, body, reply, res);
      else this.json(rec, body, reply, res);
      return;
    }
    if (typeof sessionId === "string") this.sessionsSinceFence.add(sessionId);
    this.requests.push(rec);
    res.on("close", () => {
      if (!res.writableFinished) rec.closedEarlyAt = Date.now();
    });
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();

    if (path.endsWith("/models")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data: [{ id: "mock-model", object: "model" }] }));
      return;
    }
    if (!path.endsWith("/chat/completions")) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: `mock: no route ${path}` } }));
      return;
    }
    const reply = this.queue.shift() ?? this.responder(rec);
    if (reply.delayMs) await sleep(reply.delayMs);
    if (reply.error) {
      const { status, message, headers } = reply.error;
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(
        JSON.stringify(
          reply.error.body ?? { error: { message: message ?? `mock error ${status}`, type: "mock_error", code: null } },
        ),
      );
      rec.finishedAt = Date.now();
      return;
    }
    if (reply.rawBody !== undefined) {
      res.writeHead(200, { "content-type": reply.rawContentType ?? "text/event-stream", "cache-control": "no-cache" });
      res.end(reply.rawBody);
      rec.finishedAt = Date.now();
      return;
    }
    if (body.stream === true) await this.stream(rec, body, reply, res);
    else this.json(rec, body, reply, res);
  }

  private json(rec: RecordedRequest, body: Record<string, unknown>, reply: MockReply, res: http.ServerResponse): void {
    const calls = toolCallsOf(rec, reply);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        id: `chatcmpl-mock-${rec.n}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: reply.text ?? null, ...(calls.length ? { tool_calls: calls } : {}) },
            finish_reason: finishOf(reply, calls.length),
          },
        ],
        usage: usageOf(reply, rec.rawBody),
      }),
    );
    rec.finishedAt = Date.now();
  }

  private async stream(
    rec: RecordedRequest,
    body: Record<string, unknown>,
    reply: MockReply,
    res: http.ServerResponse,
  ): Promise<void> {
    const calls = toolCallsOf(rec, reply);
    const id = `chatcmpl-mock-${rec.n}`;
    const created = Math.floor(Date.now() / 1000);
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    const send = (o: unknown) => {
      if (!res.destroyed) res.write(`data: ${JSON.stringify(o)}\n\n`);
    };
    const chunk = (delta: Record<string, unknown>, finish_reason: string | null = null) => ({
      id,
      object: "chat.completion.chunk",
      created,
      model: body.model,
      choices: [{ index: 0, delta, finish_reason }],
    });
    send(chunk({ role: "assistant", content: "" }));
    let sent = 0;
    const pace = async () => {
      sent++;
      if (reply.dropAfterChunks !== undefined && sent > reply.dropAfterChunks) {
        res.destroy();
        return false;
      }
      if (reply.paceMs) await sleep(reply.paceMs);
      return !res.destroyed;
    };
    if (reply.reasoning) {
      for (const piece of split(reply.reasoning, reply.chunks)) {
        send(chunk({ reasoning_content: piece }));
        if (!(await pace())) return;
      }
    }
    if (reply.text) {
      for (const piece of split(reply.text, reply.chunks)) {
        send(chunk({ content: piece }));
        if (!(await pace())) return;
      }
    }
    for (const [i, c] of calls.entries()) {
      send(
        chunk({
          tool_calls: [{ index: i, id: c.id, type: "function", function: { name: c.function.name, arguments: "" } }],
        }),
      );
      const a = c.function.arguments;
      const half = Math.ceil(a.length / 2);
      send(chunk({ tool_calls: [{ index: i, function: { arguments: a.slice(0, half) } }] }));
      send(chunk({ tool_calls: [{ index: i, function: { arguments: a.slice(half) } }] }));
      if (!(await pace())) return;
    }
    if (reply.hold) {
      await new Promise<void>((resolve) => {
        this.holds.push(resolve);
        res.on("close", resolve);
      });
      if (res.destroyed) return;
    }
    if (reply.endWithoutFinish) {
      res.end();
      rec.finishedAt = Date.now();
      return;
    }
    send(chunk({}, finishOf(reply, calls.length)));
    send({
      id,
      object: "chat.completion.chunk",
      created,
      model: body.model,
      choices: [],
      usage: usageOf(reply, rec.rawBody),
    });
    res.write("data: [DONE]\n\n");
    res.end();
    rec.finishedAt = Date.now();
  }
}

function toolCallsOf(rec: RecordedRequest, reply: MockReply) {
  return (reply.toolCalls ?? []).map((c, i) => ({
    id: c.id ?? `call_mock_${rec.n}_${i}`,
    type: "function" as const,
    function: { name: c.name, arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments) },
  }));
}

function finishOf(reply: MockReply, calls: number): string {
  return reply.rawFinishReason ?? reply.finishReason ?? (calls ? "tool_calls" : "stop");
}

function usageOf(reply: MockReply, raw: string) {
  const u = reply.usage ?? {};
  const prompt = u.prompt_tokens ?? Math.ceil(raw.length / 4);
  const completion = u.completion_tokens ?? 7;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: u.cached_tokens ?? 0 },
    completion_tokens_details: { reasoning_tokens: u.reasoning_tokens ?? 0 },
  };
}

function split(text: string, chunks?: number): string[] {
  if (!chunks || chunks < 1) return text.match(/[\s\S]{1,8}/g) ?? [];
  const size = Math.ceil(text.length / chunks);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
