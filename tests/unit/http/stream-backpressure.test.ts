// Issue 21 item 4.6: a client that stops reading a stream must not make Patchbay buffer the whole answer. Past a
// bounded buffer and a stall timeout the client is dropped, the model run is aborted, and the log says why.
import assert from "node:assert/strict";
import net from "node:net";
import { after, before, describe, test } from "node:test";
import { KEY, MODEL, startUnitServer, type Step, type UnitServer } from "./fakes";

let server: UnitServer;
const CHUNK = "x".repeat(64 * 1024);

before(async () => {
  server = await startUnitServer({
    commitAfterMs: 10,
    streamBuffer: { stallBytes: 256 * 1024, stallMs: 300, maxBytes: 64 * 1024 * 1024 },
  });
});
after(() => server.close());

/** Opens a socket, sends a streamed chat request and never reads; returns the socket (destroy it when done). */
function stalledClient(port: number): net.Socket {
  const body = JSON.stringify({ model: MODEL, messages: [{ role: "user", content: "hi" }], stream: true });
  const socket = net.connect({ port, host: "127.0.0.1" });
  socket.on("connect", () => {
    socket.pause(); // never read
    socket.write(
      `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${KEY}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  });
  socket.on("error", () => undefined);
  return socket;
}

describe("a streaming client that stops reading", () => {
  test("is dropped after the stall timeout; the run is aborted and logged as 499 with the reason", async () => {
    // Up to 512 MiB of output: far more than any buffer, so only the limits can stop it.
    const steps: Step[] = [{ type: "start", sessionId: "ses_flood", warnings: [] }];
    for (let i = 0; i < 8192; i++) steps.push({ type: "text-delta", delta: CHUNK }, { wait: 1 });
    server.backend.script = () => steps;
    const before = server.backend.streams.length;
    const socket = stalledClient(server.port);
    try {
      // Bounded: the run must end long before the backend could produce its 512 MiB.
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline && !(server.backend.streams[before]?.closed && server.log.entries.length > 0))
        await new Promise((r) => setTimeout(r, 50));
    } finally {
      socket.destroy();
    }
    const run = server.backend.streams[before]!;
    assert.ok(run.signal.aborted, "the model run was aborted");
    const entry = server.log.entries.at(-1)!;
    assert.equal(entry.status, 499);
    assert.match(entry.errorMessage ?? "", /stopped reading/);
  });
});
