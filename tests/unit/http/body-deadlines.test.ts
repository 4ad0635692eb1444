// Issue 16 item 4 with raw sockets on 127.0.0.1: an announced body over the app's limit is refused before it is read,
// a stalled or trickling body gets 408 and its connection closed, a refused key closes the connection, and a long
// streamed answer is not cut by any of these deadlines.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import { chat, KEY, startUnitServer, textAnswer, type UnitServer } from "./fakes";

const IDLE_MS = 300;
const TOTAL_MS = 1500;

interface RawOutcome {
  /** Everything the server sent. */
  text: string;
  status: number;
  /** ms from connect until the server closed the connection (null: still open at `waitMs`). */
  closedAfterMs: number | null;
}

/**
 * Connects, writes `head` (and then `trickle` one byte every `trickleEveryMs`), and waits up to `waitMs` for the
 * server to close the connection. Always destroys the socket before resolving.
 */
function rawRequest(
  port: number,
  head: string,
  opts: { waitMs: number; trickleEveryMs?: number } = { waitMs: 3000 },
): Promise<RawOutcome> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    const started = Date.now();
    let text = "";
    let trickle: NodeJS.Timeout | null = null;
    const done = (closed: boolean) => {
      if (trickle) clearInterval(trickle);
      clearTimeout(timer);
      socket.destroy();
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ text, status, closedAfterMs: closed ? Date.now() - started : null });
    };
    const timer = setTimeout(() => done(false), opts.waitMs);
    socket.on("connect", () => {
      socket.write(head);
      if (opts.trickleEveryMs) {
        trickle = setInterval(() => {
          if (socket.writable) socket.write("x");
        }, opts.trickleEveryMs);
      }
    });
    socket.on("data", (c: Buffer) => (text += c.toString("utf8")));
    socket.on("end", () => done(true));
    socket.on("close", () => done(true));
    socket.on("error", () => done(true));
  });
}

function post(length: number, key: string | null = KEY): string {
  return (
    `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
    `${key ? `Authorization: Bearer ${key}\r\n` : ""}Content-Length: ${length}\r\n\r\n`
  );
}

function envelopeOf(text: string): { code: string; message: string } {
  const body = text.slice(text.indexOf("\r\n\r\n") + 4);
  return (JSON.parse(body) as { error: { code: string; message: string } }).error;
}

describe("request body deadlines and limits", () => {
  let server: UnitServer;
  before(async () => {
    server = await startUnitServer({ bodyDeadlines: { idleMs: IDLE_MS, totalMs: TOTAL_MS } });
    server.apps.setLimits({ maxBodyBytes: 1024 * 1024 });
  });
  after(() => server.close());

  test("Content-Length far over the app's limit: 413 at once, before the body, and the connection closes", async () => {
    const r = await rawRequest(server.port, post(1024 * 1024 * 1024), { waitMs: 3000 });
    assert.equal(r.status, 413, r.text);
    assert.equal(envelopeOf(r.text).code, "payload_too_large");
    assert.match(r.text, /\r\nConnection: close\r\n/i);
    assert.ok(r.closedAfterMs !== null && r.closedAfterMs < 1000, `closed after ${r.closedAfterMs} ms`);
  });

  test("a body that stops arriving: 408 in the OpenAI envelope after the idle deadline, connection closed", async () => {
    const r = await rawRequest(server.port, `${post(100)}{"model":`, { waitMs: 4000 });
    assert.equal(r.status, 408, r.text);
    assert.match(envelopeOf(r.text).message, /stopped arriving/);
    assert.ok(r.closedAfterMs !== null && r.closedAfterMs >= IDLE_MS, `closed after ${r.closedAfterMs} ms`);
  });

  test("a body trickling one byte at a time: 408 at the total deadline, connection closed", async () => {
    const r = await rawRequest(server.port, post(100_000), { waitMs: 5000, trickleEveryMs: 50 });
    assert.equal(r.status, 408, r.text);
    assert.match(envelopeOf(r.text).message, /took longer than/);
    assert.ok(r.closedAfterMs !== null && r.closedAfterMs >= TOTAL_MS - 100, `closed after ${r.closedAfterMs} ms`);
  });

  test("without a key: 401 with Connection: close, the unread body is not waited for", async () => {
    const r = await rawRequest(server.port, post(50_000, null), { waitMs: 3000 });
    assert.equal(r.status, 401, r.text);
    assert.match(r.text, /\r\nConnection: close\r\n/i);
    assert.ok(r.closedAfterMs !== null && r.closedAfterMs < 1000, `closed after ${r.closedAfterMs} ms`);
  });

  test("20 trickling connections are all closed by the deadlines", async () => {
    const all = await Promise.all(
      Array.from({ length: 20 }, () =>
        rawRequest(server.port, post(100_000), { waitMs: TOTAL_MS + 3000, trickleEveryMs: 100 }),
      ),
    );
    assert.deepEqual(
      all.map((r) => r.closedAfterMs !== null),
      all.map(() => true),
    );
  });

  test("a streamed answer longer than every body deadline is not cut", async () => {
    server.backend.script = () => [{ wait: TOTAL_MS + 500 }, ...textAnswer("late but whole")];
    const res = await server.call("/v1/chat/completions", { method: "POST", body: chat({ stream: true }) });
    assert.equal(res.status, 200);
    const text = await res.text();
    assert.match(text, /late but whole/);
    assert.match(text, /\[DONE\]/);
  });
});
