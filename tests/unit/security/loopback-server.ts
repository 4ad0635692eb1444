// Test HTTP servers bound to 127.0.0.1 on a free port, recording every request; close() drops open connections.
// Test helper only: no assertions here.
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  /** Request paths received, in order. */
  hits: string[];
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1:0 answering with `handler`. */
export async function startLoopbackServer(handler: http.RequestListener): Promise<LoopbackServer> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? "");
    handler(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** 1x1 red PNG (67 bytes). */
export const PNG_1X1 = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
  "base64",
);
