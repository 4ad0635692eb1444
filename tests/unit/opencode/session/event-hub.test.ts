// OpenCodeEventHub against a fake `/global/event` SSE server: auth header, demultiplexing by session, taps,
// "down" to subscribers when the stream drops, and reconnection.
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { OpenCodeEventHub, type HubMessage } from "../../../../server/opencode/session/event-hub";
import type { OpenCodeStatus } from "../../../../shared/status";

test("routes events by session, notifies subscribers when the stream drops, and reconnects", async () => {
  const clients: http.ServerResponse[] = [];
  const auths: string[] = [];
  const server = http.createServer((req, res) => {
    auths.push(String(req.headers.authorization));
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write(`data: ${JSON.stringify({ payload: { type: "server.connected", properties: {} } })}\n\n`);
    clients.push(res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const source = {
    connection: () => ({ url, authorization: "Basic abc" }),
    onStatus: (_l: (s: OpenCodeStatus) => void) => () => {},
  };
  const hub = new OpenCodeEventHub(source);
  try {
    await hub.ready(2000);
    assert.equal(auths[0], "Basic abc");
    const a: HubMessage[] = [];
    const b: HubMessage[] = [];
    const tapped: string[] = [];
    const offA = hub.subscribe("ses_a", (m) => a.push(m));
    hub.subscribe("ses_b", (m) => b.push(m));
    hub.tap((e) => tapped.push(e.type));
    const send = (payload: unknown) =>
      clients.at(-1)!.write(`data: ${JSON.stringify({ directory: "/d", payload })}\n\n`);
    send({ type: "session.idle", properties: { sessionID: "ses_a" } });
    send({ type: "message.part.updated", properties: { part: { sessionID: "ses_b", id: "p" } } });
    send({ type: "message.updated", properties: { info: { sessionID: "ses_a", id: "m" } } });
    send({ type: "server.heartbeat", properties: {} });
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(
      a.map((m) => m.kind === "event" && m.event.type),
      ["session.idle", "message.updated"],
    );
    assert.deepEqual(
      b.map((m) => m.kind === "event" && m.event.type),
      ["message.part.updated"],
    );
    assert.deepEqual(tapped, ["session.idle", "message.part.updated", "message.updated", "server.heartbeat"]);

    offA();
    clients.at(-1)!.destroy(); // the stream drops
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(b.at(-1)?.kind, "down");
    assert.equal(a.length, 2, "unsubscribed handlers get nothing");
    await hub.ready(3000);
    assert.equal(clients.length, 2, "reconnected");
  } finally {
    hub.close();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
});
