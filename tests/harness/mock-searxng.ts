// A mock SearXNG-compatible search endpoint (`GET /search?q=…&format=json`) and mock web pages on 127.0.0.1, for the
// web search / fetch server tool tests. Records every query; can be told to fail or hang. Test-only.
import http from "node:http";
import type { AddressInfo } from "node:net";

/** One mock hit, as SearXNG's JSON format has it. */
export interface MockHit {
  url: string;
  title: string;
  content: string;
}

/** The mock. `url` is the base to configure as the search URL; pages are served under `/pages/<name>`. */
export class MockSearxng {
  readonly queries: string[] = [];
  /** Paths of every other request (pages), in order. */
  readonly pageRequests: string[] = [];
  /** `ok`: answer `hits`; `error`: HTTP 500; `hang`: never answer (until stop). */
  mode: "ok" | "error" | "hang" = "ok";
  hits: MockHit[] = [];
  /** When set, answered as `results` instead of `hits`: any JSON, for hostile or malformed backends. */
  rawResults: unknown[] | null = null;
  /** Page path (`/pages/x`) → [content-type, body] or a redirect target (`{ location }`). */
  readonly pages = new Map<string, { type: string; body: string } | { location: string }>();
  private server: http.Server | null = null;
  private port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    const server = http.createServer((req, res) => this.handle(req, res));
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

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? "/", this.url);
    if (url.pathname === "/search") {
      this.queries.push(url.searchParams.get("q") ?? "");
      if (this.mode === "hang") return;
      if (this.mode === "error") {
        res.writeHead(500, { "content-type": "text/plain" }).end("boom");
        return;
      }
      if (url.searchParams.get("format") !== "json") {
        res.writeHead(403).end();
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ query: url.searchParams.get("q"), results: this.rawResults ?? this.hits, answers: [] }));
      return;
    }
    this.pageRequests.push(url.pathname);
    const page = this.pages.get(url.pathname);
    if (!page) {
      res.writeHead(404).end();
      return;
    }
    if ("location" in page) {
      res.writeHead(302, { location: page.location }).end();
      return;
    }
    res.writeHead(200, { "content-type": page.type });
    res.end(page.body);
  }
}
