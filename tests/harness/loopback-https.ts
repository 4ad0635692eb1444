// An HTTPS page server on 127.0.0.1 with a fixed self-signed certificate, for clients that fetch pages themselves and
// insist on https (Claude Code's WebFetch turns every http:// URL into https://). The client trusts the certificate
// through NODE_EXTRA_CA_CERTS = {@link LOOPBACK_CA_FILE}. Test-only.
//
// The certificate (tests/fixtures/tls/) is for IP 127.0.0.1 only, valid until 2126, made once with:
//   openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 36500 -subj /CN=127.0.0.1 \
//     -addext subjectAltName=IP:127.0.0.1 -addext basicConstraints=critical,CA:FALSE \
//     -addext extendedKeyUsage=serverAuth -keyout loopback.key -out loopback.crt
import fs from "node:fs";
import https from "node:https";
import path from "node:path";
import type { AddressInfo } from "node:net";

const TLS_DIR = path.resolve(import.meta.dirname, "../fixtures/tls");

/** The certificate to trust (a PEM file): pass it as NODE_EXTRA_CA_CERTS. */
export const LOOPBACK_CA_FILE = path.join(TLS_DIR, "loopback.crt");

/** One request the server saw. */
export interface PageRequest {
  method: string;
  path: string;
  userAgent: string;
}

/** The server: `pages` maps a path to its HTML; every other path is a 404. */
export class LoopbackHttpsPages {
  readonly requests: PageRequest[] = [];
  readonly pages = new Map<string, string>();
  private server: https.Server | null = null;
  private port = 0;

  /** `https://127.0.0.1:<port>` (no trailing slash). */
  get origin(): string {
    return `https://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    const server = https.createServer(
      { key: fs.readFileSync(path.join(TLS_DIR, "loopback.key")), cert: fs.readFileSync(LOOPBACK_CA_FILE) },
      (req, res) => {
        const url = new URL(req.url ?? "/", this.origin);
        this.requests.push({
          method: req.method ?? "",
          path: url.pathname,
          userAgent: req.headers["user-agent"] ?? "",
        });
        const html = this.pages.get(url.pathname);
        if (html === undefined) res.writeHead(404).end();
        else res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
      },
    );
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
}
