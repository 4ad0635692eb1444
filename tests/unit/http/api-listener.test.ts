// The API listener's lifecycle (server/http/api-listener.ts) on its own: start on a free port, stop, rebind when the
// bind settings change, a pinned port, and the text a busy port gives.
import { afterEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { ApiListener, type ApiBindSettings } from "../../../server/http/api-listener";
import { toOpenAiErrorBody } from "../../../server/wires/openai/error-envelope";
import { waitFor } from "../../harness/wait-for";

/** A settings store reduced to what the listener reads: get, and change notifications. */
class FakeSettings {
  private listeners: ((s: ApiBindSettings) => void)[] = [];
  constructor(private value: ApiBindSettings) {}
  get(): ApiBindSettings {
    return this.value;
  }
  onChange(listener: (s: ApiBindSettings) => void): () => void {
    this.listeners.push(listener);
    return () => undefined;
  }
  set(patch: Partial<ApiBindSettings>): void {
    this.value = { ...this.value, ...patch };
    for (const l of this.listeners) l(this.value);
  }
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.allSettled(cleanups.splice(0).map((c) => c()));
});

function make(settings: FakeSettings, pinned?: { host?: string; port?: number }) {
  const logs: string[] = [];
  let changes = 0;
  const api = new ApiListener({
    handler: (_req, res) => res.end("ok"),
    errorBody: toOpenAiErrorBody,
    settings,
    ...(pinned ? { pinned } : {}),
    logFailures: () => true,
    log: (line) => logs.push(line),
    onChange: () => changes++,
  });
  cleanups.push(() => api.close(0));
  return { api, logs, changes: () => changes };
}

/** Occupies a free loopback port and returns it (closed after the test). */
async function busyPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as AddressInfo).port;
}

async function get(baseUrl: string): Promise<string> {
  const res = await fetch(baseUrl.replace(/\/v1$/, "/"));
  return res.text();
}

describe("ApiListener", () => {
  test("start on port 0 binds a free port and reports it; stop releases it", async () => {
    const settings = new FakeSettings({ host: "127.0.0.1", port: 0, lanExposure: false });
    const { api, changes } = make(settings);
    assert.equal(api.status().running, false);
    assert.equal(api.status().baseUrl, null);

    await api.start();
    const st = api.status();
    assert.equal(st.running, true);
    assert.ok(st.port > 0, "a real port replaces 0");
    assert.equal(st.host, "127.0.0.1");
    assert.equal(st.baseUrl, `http://127.0.0.1:${st.port}/v1`);
    assert.equal(st.error, null);
    assert.equal(st.lanExposure, false);
    assert.equal(st.pinned, false);
    assert.equal(st.portPicked, true, "port 0 in settings: every start picks another");
    assert.equal(await get(st.baseUrl!), "ok");
    assert.equal(changes(), 1, "a start announces a status change");

    await api.stop();
    assert.equal(api.status().running, false);
    assert.equal(api.status().baseUrl, null);
    assert.equal(changes(), 2, "a stop announces a status change");
    await assert.rejects(fetch(`http://127.0.0.1:${st.port}/`), "nothing listens after stop");
  });

  test("a busy port is not an exception: the status says why and the log has it", async () => {
    const port = await busyPort();
    const settings = new FakeSettings({ host: "127.0.0.1", port, lanExposure: false });
    const { api, logs } = make(settings);
    await api.start();
    const st = api.status();
    assert.equal(st.running, false);
    assert.equal(st.baseUrl, null);
    assert.equal(st.port, port);
    assert.equal(st.error, `port ${port} is in use by another program`);
    assert.deepEqual(logs, [`OpenAI API not started: port ${port} is in use by another program`]);
  });

  test("a failed start is not logged while logFailures says the caller reports it", async () => {
    const port = await busyPort();
    const logs: string[] = [];
    const api = new ApiListener({
      handler: (_req, res) => res.end("ok"),
      errorBody: toOpenAiErrorBody,
      settings: new FakeSettings({ host: "127.0.0.1", port, lanExposure: false }),
      logFailures: () => false,
      log: (line) => logs.push(line),
      onChange: () => undefined,
    });
    cleanups.push(() => api.close(0));
    await api.start();
    assert.match(api.status().error ?? "", /in use/);
    assert.deepEqual(logs, []);
  });

  test("a port change while running rebinds to the new port", async () => {
    const settings = new FakeSettings({ host: "127.0.0.1", port: 0, lanExposure: false });
    const { api } = make(settings);
    await api.start();
    const first = api.status().port;

    // Reserve a free port, release it, and move the listener there.
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const next = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    settings.set({ port: next });
    await waitFor("rebound to the new port", () => api.status().running && api.status().port === next, 5_000);
    assert.equal(await get(api.status().baseUrl!), "ok");
    await assert.rejects(fetch(`http://127.0.0.1:${first}/`), "the old port is released");
  });

  test("a settings change does not start a stopped listener", async () => {
    const settings = new FakeSettings({ host: "127.0.0.1", port: 0, lanExposure: false });
    const { api, changes } = make(settings);
    settings.set({ port: 1 });
    await api.stop(); // runs after anything the change queued
    assert.equal(api.status().running, false);
    assert.equal(changes(), 1, "only the stop itself");
  });

  test("a pinned port ignores port changes; LAN exposure still rebinds (to all interfaces)", async () => {
    const settings = new FakeSettings({ host: "127.0.0.1", port: 4747, lanExposure: false });
    const { api, changes } = make(settings, { port: 0 });
    await api.start();
    const pinnedPort = api.status().port;
    assert.notEqual(pinnedPort, 4747, "the pin wins over the stored port");
    assert.equal(api.status().pinned, true);
    assert.equal(api.status().portPicked, true, "--port 0: connect warns that the next start picks another");

    settings.set({ port: 4748 });
    await api.stop().then(() => api.start()); // flushes the queue; a rebind would have counted a change
    assert.equal(api.status().port, pinnedPort, "port 0 was pinned to the port first chosen");
    assert.equal(changes(), 3);

    settings.set({ lanExposure: true });
    await waitFor("rebound for LAN exposure", () => api.status().host === "0.0.0.0" && api.status().running, 5_000);
    const st = api.status();
    assert.equal(st.port, pinnedPort);
    assert.equal(st.lanExposure, true);
    assert.equal(st.baseUrl, `http://127.0.0.1:${pinnedPort}/v1`, "the URL names an address a client can use");
  });
});
