// A restartable HTTP listener around an express app: start/stop with a clear error when the port is taken,
// and a bounded graceful close (in-flight streams get a grace period, then connections are closed).
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { RequestListener } from "node:http";
import { PatchbayError } from "../core/errors";

/** Node's bound on receiving a request's headers (ms). */
const HEADERS_TIMEOUT_MS = 20_000;
/** Node's bound on receiving a whole request, headers and body (ms). */
const REQUEST_TIMEOUT_MS = 120_000;

/** State of a listener. `error` explains why it is not running (e.g. "port 4747 is in use"). */
export interface ListenerState {
  running: boolean;
  host: string;
  port: number;
  error: string | null;
}

/** Start/stop wrapper for one HTTP server. */
export class Listener {
  private server: http.Server | null = null;
  private state: ListenerState;

  constructor(
    private readonly handler: RequestListener,
    host: string,
    port: number,
    /** The JSON body of an error Node's parser met before express saw the request (see answerClientError). */
    private readonly errorBody: (err: PatchbayError) => unknown,
  ) {
    this.state = { running: false, host, port, error: null };
  }

  get current(): ListenerState {
    return { ...this.state };
  }

  /** Listens on `host:port` (`port` 0 = a free port). Never throws for a busy port: the state says why. */
  async start(host = this.state.host, port = this.state.port): Promise<ListenerState> {
    if (this.server) return this.current;
    // requireHostHeader off: Node would answer a Host-less HTTP/1.1 request with a bare 400; the app's own guards
    // (host guard, auth) answer it with a JSON error instead.
    // connectionsCheckingInterval: how often Node enforces the two timeouts below (default 30 s is too coarse).
    const server = http.createServer({ requireHostHeader: false, connectionsCheckingInterval: 2_000 }, this.handler);
    // Both bound only *receiving* the request (headers; headers + body); a long streamed answer is not affected.
    // The app's own body deadline (30 s idle / 60 s total) answers first, in the OpenAI envelope; these are backstops.
    server.headersTimeout = HEADERS_TIMEOUT_MS;
    server.requestTimeout = REQUEST_TIMEOUT_MS;
    server.keepAliveTimeout = 5_000;
    server.on("clientError", (err: NodeJS.ErrnoException, socket: Socket) =>
      answerClientError(err, socket, this.errorBody),
    );
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
      server.once("error", resolve);
      server.listen(port, host, () => resolve(null));
    });
    if (err) {
      this.state = { running: false, host, port, error: describeListenError(err, host, port) };
      return this.current;
    }
    this.server = server;
    const addr = server.address() as AddressInfo;
    this.state = { running: true, host, port: addr.port, error: null };
    return this.current;
  }

  /** Stops accepting, lets in-flight requests finish for `graceMs` (default 2 s), then closes every connection. */
  async stop(graceMs = 2000): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    await closed;
    clearTimeout(timer);
    this.state = { ...this.state, running: false, error: null };
  }
}

function describeListenError(err: NodeJS.ErrnoException, host: string, port: number): string {
  if (err.code === "EADDRINUSE") return `port ${port} is in use by another program`;
  if (err.code === "EACCES") return `no permission to listen on ${host}:${port}`;
  if (err.code === "EADDRNOTAVAIL") return `the address ${host} is not available on this machine`;
  return `could not listen on ${host}:${port}: ${err.message}`;
}

/**
 * Status, reason phrase and message for a request Node refused before the app saw it (`code`: the clientError's).
 * `ERR_HTTP_REQUEST_TIMEOUT` is the whole request (headers and body) taking longer than `requestTimeout`: a body
 * trickling in, as on the admin listener, which has no body deadline of its own; not a headers timeout.
 */
export function clientErrorAnswer(code: string | undefined): [number, string, string] {
  if (code === "HPE_HEADER_OVERFLOW")
    return [431, "Request Header Fields Too Large", "The request headers are too large."];
  if (code === "ERR_HTTP_HEADERS_TIMEOUT")
    return [408, "Request Timeout", `The request headers did not arrive within ${HEADERS_TIMEOUT_MS / 1000} s.`];
  if (code === "ERR_HTTP_REQUEST_TIMEOUT")
    return [
      408,
      "Request Timeout",
      `The request (headers and body) did not arrive within ${REQUEST_TIMEOUT_MS / 1000} s.`,
    ];
  return [400, "Bad Request", "Malformed HTTP request (the request line, a header or the body framing is invalid)."];
}

/**
 * Requests Node's HTTP parser rejects (bad method, bad header bytes, oversized headers, broken chunked encoding) never
 * reach express; Node's default answer is a bare `400` without a body. Answer with a JSON error instead, in the
 * listener's envelope (no route is known yet).
 */
function answerClientError(
  err: NodeJS.ErrnoException,
  socket: Socket,
  errorBody: (err: PatchbayError) => unknown,
): void {
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, reason, message] = clientErrorAnswer(err.code);
  const body = JSON.stringify(errorBody(new PatchbayError("invalid_request_error", message, { status })));
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
