// A restartable HTTP listener around an express app: start/stop with a clear error when the port is taken,
// and a bounded graceful close (in-flight streams get a grace period, then connections are closed).
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { RequestListener } from "node:http";

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
  ) {
    this.state = { running: false, host, port, error: null };
  }

  get current(): ListenerState {
    return { ...this.state };
  }

  /** Listens on `host:port` (`port` 0 = a free port). Never throws for a busy port: the state says why. */
  async start(host = this.state.host, port = this.state.port): Promise<ListenerState> {
    if (this.server) return this.current;
    const server = http.createServer(this.handler);
    // Long reasoning answers: never let Node's own timeouts cut a request (the app's deadlines apply instead).
    server.requestTimeout = 0;
    server.headersTimeout = 60_000;
    server.keepAliveTimeout = 5_000;
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
