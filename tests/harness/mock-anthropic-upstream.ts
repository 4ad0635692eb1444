// Scriptable mock Anthropic Messages upstream (`POST /v1/messages`, SSE and JSON) on 127.0.0.1 for tests: records
// every request (what "the model" saw, as @ai-sdk/anthropic sent it through OpenCode) and answers from a queue of
// scripted replies with thinking (and its signature), text and tool_use blocks. Test-only; never reaches the network.
import http from "node:http";
import type { AddressInfo } from "node:net";

/** One recorded request. */
export interface AnthropicRecordedRequest {
  n: number;
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** One scripted reply: blocks in this order: thinking (with `signature`), text, tool calls. */
export interface AnthropicMockReply {
  thinking?: string;
  signature?: string;
  text?: string;
  toolCalls?: Array<{ id: string; name: string; input: Record<string, unknown> }>;
  /** HTTP error instead of a message (Anthropic's envelope). */
  error?: { status: number; type: string; message: string };
}

/** The mock. `baseURL` is `http://127.0.0.1:<port>/v1` (what @ai-sdk/anthropic takes as `baseURL`). */
export class MockAnthropicUpstream {
  readonly requests: AnthropicRecordedRequest[] = [];
  private queue: AnthropicMockReply[] = [];
  private responder: ((req: AnthropicRecordedRequest) => AnthropicMockReply) | null = null;
  private server: http.Server | null = null;
  private port = 0;

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
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Appends replies (one per `/v1/messages` request, in order); an empty queue answers the text "MOCK_ANTHROPIC". */
  script(...replies: AnthropicMockReply[]): this {
    this.queue.push(...replies);
    return this;
  }

  /** Sets the reply used when the queue is empty (by what the request says). */
  setResponder(fn: (req: AnthropicRecordedRequest) => AnthropicMockReply): this {
    this.responder = fn;
    return this;
  }

  /** Clears recorded requests, the queue and the responder. */
  reset(): void {
    this.requests.length = 0;
    this.queue = [];
    this.responder = null;
  }

  /** Recorded `/v1/messages` requests. */
  messageRequests(): AnthropicRecordedRequest[] {
    return this.requests.filter((r) => r.path.endsWith("/messages"));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
    } catch {
      body = {};
    }
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const rec = { n: this.requests.length + 1, method: req.method ?? "GET", path, headers: req.headers, body };
    this.requests.push(rec);
    if (!path.endsWith("/messages")) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: `mock: no route ${path}` } }));
      return;
    }
    const reply = this.queue.shift() ?? this.responder?.(rec) ?? { text: "MOCK_ANTHROPIC" };
    if (reply.error) {
      res.writeHead(reply.error.status, { "content-type": "application/json" });
      res.end(JSON.stringify({ type: "error", error: { type: reply.error.type, message: reply.error.message } }));
      return;
    }
    const content: Record<string, unknown>[] = [];
    if (reply.thinking !== undefined)
      content.push({ type: "thinking", thinking: reply.thinking, signature: reply.signature ?? "" });
    if (reply.text !== undefined) content.push({ type: "text", text: reply.text });
    for (const c of reply.toolCalls ?? []) content.push({ type: "tool_use", id: c.id, name: c.name, input: c.input });
    const stopReason = reply.toolCalls?.length ? "tool_use" : "end_turn";
    const usage = { input_tokens: 12, output_tokens: 6, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    const message = { id: `msg_mock_${this.requests.length}`, type: "message", role: "assistant", model: body.model };
    if (body.stream !== true) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ ...message, content, stop_reason: stopReason, stop_sequence: null, usage }));
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const send = (type: string, data: Record<string, unknown>) =>
      res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    send("message_start", {
      message: {
        ...message,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    });
    content.forEach((block, index) => {
      if (block.type === "thinking") {
        send("content_block_start", { index, content_block: { type: "thinking", thinking: "", signature: "" } });
        send("content_block_delta", { index, delta: { type: "thinking_delta", thinking: block.thinking } });
        send("content_block_delta", { index, delta: { type: "signature_delta", signature: block.signature } });
      } else if (block.type === "text") {
        send("content_block_start", { index, content_block: { type: "text", text: "" } });
        send("content_block_delta", { index, delta: { type: "text_delta", text: block.text } });
      } else {
        send("content_block_start", { index, content_block: { ...block, input: {} } });
        send("content_block_delta", {
          index,
          delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
        });
      }
      send("content_block_stop", { index });
    });
    send("message_delta", { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 6 } });
    send("message_stop", {});
    res.end();
  }
}

/** The user-config provider block for this mock: `anthro/mock-claude` served by OpenCode's bundled
 *  @ai-sdk/anthropic (a reasoning model with tools). */
export function anthropicProviderConfig(baseURL: string): Record<string, unknown> {
  return {
    anthro: {
      npm: "@ai-sdk/anthropic",
      name: "Mock Anthropic",
      options: { baseURL, apiKey: "sk-ant-mock-000000000000" },
      models: {
        "mock-claude": {
          name: "Mock Claude",
          tool_call: true,
          temperature: true,
          reasoning: true,
          attachment: false,
          limit: { context: 200000, output: 8192 },
          modalities: { input: ["text"], output: ["text"] },
        },
      },
    },
  };
}
