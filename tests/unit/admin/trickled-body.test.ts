// Issue 21 item 4.6: an unauthenticated admin POST whose body trickles in gets its 401 and the connection is closed
// at once, instead of Patchbay reading (and discarding) the slow body for minutes.
import assert from "node:assert/strict";
import net from "node:net";
import { after, before, test } from "node:test";
import { startAdmin, type StartedAdmin } from "./fakes";

let s: StartedAdmin;
before(async () => {
  s = await startAdmin();
});
after(() => s.close());

test("401 then close, while the client is still trickling its body", async () => {
  const socket = net.connect(s.port, "127.0.0.1");
  let text = "";
  let trickle: NodeJS.Timeout | undefined;
  const closed = new Promise<number>((resolve) => {
    const t0 = Date.now();
    socket.on("close", () => resolve(Date.now() - t0));
  });
  socket.on("data", (c: Buffer) => (text += c.toString("utf8")));
  socket.on("error", () => undefined);
  socket.on("connect", () => {
    socket.write(
      `POST /admin/api/apps HTTP/1.1\r\nHost: ${s.host}\r\nOrigin: ${s.origin}\r\n` +
        "Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{",
    );
    // One byte every 50 ms: the whole body would take over an hour.
    trickle = setInterval(() => socket.write(" "), 50);
  });
  const bound = setTimeout(() => socket.destroy(), 10_000);
  const ms = await closed;
  clearTimeout(bound);
  clearInterval(trickle);
  assert.match(text, /^HTTP\/1\.1 401 /);
  assert.match(text, /admin_auth_required/);
  assert.ok(ms < 5_000, `closed after ${ms} ms (not left open for the body)`);
});
