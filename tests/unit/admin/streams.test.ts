// Live streams over real HTTP: log stream replays then goes live, heartbeats, drops a client that stops reading,
// keeps a client that reads; status stream; close() ends every stream.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import net from "node:net";
import { waitFor } from "../../harness/wait-for";
import { logEntry, startAdmin, type StartedAdmin } from "./fakes";

interface OpenStream {
  status: number;
  contentType: string;
  data: unknown[];
  comments: string[];
  ended: boolean;
  close(): void;
}

function openStream(s: StartedAdmin, p: string, headers: Record<string, string> = {}): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      {
        host: "127.0.0.1",
        port: s.port,
        path: p,
        headers: { host: s.host, authorization: `Bearer ${s.token}`, ...headers },
        setHost: false,
      },
      (res) => {
        const out: OpenStream = {
          status: res.statusCode ?? 0,
          contentType: String(res.headers["content-type"]),
          data: [],
          comments: [],
          ended: false,
          close: () => req.destroy(),
        };
        let buf = "";
        let scanFrom = 0;
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          buf += chunk;
          let i: number;
          // Scan only new text (events can be megabytes).
          while ((i = buf.indexOf("\n\n", scanFrom)) >= 0) {
            const block = buf.slice(0, i);
            buf = buf.slice(i + 2);
            scanFrom = 0;
            for (const line of block.split("\n")) {
              if (line.startsWith("data: ")) out.data.push(JSON.parse(line.slice(6)));
              else if (line.startsWith(":")) out.comments.push(line);
            }
          }
          scanFrom = Math.max(0, buf.length - 1);
        });
        res.on("end", () => (out.ended = true));
        res.on("error", () => (out.ended = true));
        resolve(out);
      },
    );
    req.on("error", reject);
  });
}

describe("admin live streams", () => {
  let s: StartedAdmin;
  before(async () => {
    s = await startAdmin({ options: { heartbeatMs: 40, slowClientMs: 300 } });
  });
  after(async () => {
    await s.close();
  });

  test("signing out ends the streams that session opened, not others", async () => {
    const signIn = async () => {
      const nonce = new URL(s.admin.createLoginUrl()).searchParams.get("token") ?? "";
      const res = await s.request("POST", "/admin/api/dashboard-session", {
        auth: "none",
        headers: { origin: s.origin },
        body: { loginToken: nonce },
      });
      return (res.json() as { sessionToken: string }).sessionToken;
    };
    const one = await signIn();
    const two = await signIn();
    const mine = await openStream(s, "/admin/api/logs/stream?replay=0", { authorization: `Bearer ${one}` });
    const other = await openStream(s, "/admin/api/logs/stream?replay=0", { authorization: `Bearer ${two}` });
    const admin = await openStream(s, "/admin/api/status/stream");
    assert.equal(mine.status, 200);
    const out = await s.request("DELETE", "/admin/api/dashboard-session", {
      auth: "none",
      headers: { authorization: `Bearer ${one}`, origin: s.origin },
    });
    assert.equal(out.status, 200);
    await waitFor("the signed-out session's stream to end", () => mine.ended);
    assert.equal(other.ended, false, "another session's stream stays open");
    assert.equal(admin.ended, false, "the admin token's stream stays open");
    other.close();
    admin.close();
  });

  test("log stream: auth required", async () => {
    const res = await s.request("GET", "/admin/api/logs/stream", { auth: "none" });
    assert.equal(res.status, 401);
  });

  test("log stream: replays recent entries, then live ones, with heartbeats", async () => {
    const log = s.fakes.requestLog;
    for (const id of ["a", "b", "c"]) log.append(logEntry({ id }));
    const st = await openStream(s, "/admin/api/logs/stream?replay=2");
    assert.equal(st.status, 200);
    assert.match(st.contentType, /^text\/event-stream/);
    await waitFor("st.data.length === 2", () => st.data.length === 2);
    assert.deepEqual(
      st.data.map((e) => (e as { id: string }).id),
      ["b", "c"],
    );
    log.append(logEntry({ id: "live-1", app: "x", modelAsked: "mock/zeta" }));
    await waitFor("st.data.length === 3", () => st.data.length === 3);
    const live = st.data[2] as { id: string; app: string; modelAsked: string; usage: unknown };
    assert.equal(live.id, "live-1");
    assert.equal(live.app, "x");
    await waitFor(
      'st.comments.filter((c) => c === ": heartbeat").length >= 2',
      () => st.comments.filter((c) => c === ": heartbeat").length >= 2,
      2000,
    );
    st.close();
    await waitFor("log.listeners.size === 0", () => log.listeners.size === 0);
  });

  test("status stream: current status first, then one per change", async () => {
    const st = await openStream(s, "/admin/api/status/stream");
    await waitFor("st.data.length === 1", () => st.data.length === 1);
    assert.equal((st.data[0] as { desktop: boolean }).desktop, false);
    await waitFor("s.fakes.statusListeners.size === 1", () => s.fakes.statusListeners.size === 1);
    for (const l of s.fakes.statusListeners) l(st.data[0] as never);
    await waitFor("st.data.length === 2", () => st.data.length === 2);
    st.close();
    await waitFor("s.fakes.statusListeners.size === 0", () => s.fakes.statusListeners.size === 0);
  });

  test("close() ends open streams", async () => {
    const st = await openStream(s, "/admin/api/logs/stream");
    await waitFor("s.fakes.requestLog.listeners.size === 1", () => s.fakes.requestLog.listeners.size === 1);
    s.admin.close();
    await waitFor("st.ended", () => st.ended);
    assert.equal(s.fakes.requestLog.listeners.size, 0);
  });
});

describe("admin live streams: slow clients (default 1 s budget)", () => {
  let s: StartedAdmin;
  before(async () => {
    s = await startAdmin();
  });
  after(async () => {
    await s.close();
  });

  test("log stream: a client that stops reading is dropped; a reading client is kept", async () => {
    const log = s.fakes.requestLog;
    const reader = await openStream(s, "/admin/api/logs/stream?replay=0");
    // A raw client that sends the request and then never reads.
    const stalled = net.connect(s.port, "127.0.0.1");
    await new Promise<void>((r) => stalled.once("connect", () => r()));
    stalled.pause();
    stalled.write(
      `GET /admin/api/logs/stream?replay=0 HTTP/1.1\r\nHost: ${s.host}\r\nAuthorization: Bearer ${s.token}\r\n\r\n`,
    );
    await waitFor("log.listeners.size === 2", () => log.listeners.size === 2);
    let stalledClosed = false;
    stalled.on("close", () => (stalledClosed = true));
    stalled.on("error", () => {});

    // Loopback socket buffers can grow to tens of MB (Linux tcp_rmem autotuning), so keep sending 1 MB entries, each
    // once the reading client has taken the previous one, until the stalled client's buffers are full and it is
    // dropped (bounded: at most 512 entries).
    const big = "x".repeat(1024 * 1024);
    let sent = 0;
    while (log.listeners.size === 2 && sent < 512) {
      log.append(logEntry({ id: `big-${sent++}`, requestBody: big }));
      await waitFor(`the reading client to get entry ${sent}`, () => reader.data.length === sent, 10_000);
    }
    await waitFor("the stalled client to be dropped", () => log.listeners.size === 1, 15_000);
    assert.equal(reader.data.length, sent, "the reading client got every entry");
    assert.equal(reader.ended, false, "the reading client stays connected");
    stalled.resume();
    await waitFor("stalledClosed", () => stalledClosed, 4000);
    reader.close();
    await waitFor("log.listeners.size === 0", () => log.listeners.size === 0);
  });
});
