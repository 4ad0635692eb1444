// Issue 21 item 4.4: deleting an app ends its running streams, revoking a key ends that key's streams, and nothing of
// a deleted app (stored responses, chains, session folders) is visible to a later app of the same name, whoever made
// the change (the CLI in another process included). Real stores on a temp data folder, a scripted backend.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import fs from "node:fs";
import path from "node:path";
import { appDataKey } from "../../../shared/apps";
import { watchAppRetirement, type AppRetirement } from "../../../server/app-retirement";
import { ConcurrencyGate } from "../../../server/core/concurrency";
import { Listener } from "../../../server/http/listener";
import { RunRegistry } from "../../../server/http/model-run/run-registry";
import { createApiApp } from "../../../server/http/api-app";
import { WIRES } from "../../../server/wires/table";
import { appDirectory } from "../../../server/opencode/process/instance-pool";
import { newResponseId } from "../../../server/responses-store/record";
import { ResponseStore } from "../../../server/responses-store/response-store";
import { deleteApp } from "../../harness/delete-app";
import { createAppsStore, type AppsStoreHandle } from "../../../server/stores/apps-store";
import { createKeysStore } from "../../../server/stores/keys-store";
import type { KeysStore, StoreLifecycle } from "../../../server/stores/types";
import { MemoryLog, MODEL, ScriptedBackend, textAnswer, type Step } from "./fakes";
import { removeDir, tempDir } from "../stores/helpers";
import { bareCli } from "../../../server/core/cli-command";

interface Stores {
  apps: AppsStoreHandle;
  keys: KeysStore & StoreLifecycle;
}

let dataDir: string;
let server: Stores;
let cli: Stores;
let backend: ScriptedBackend;
let responses: ResponseStore;
let retirement: AppRetirement;
let listener: Listener;
let base: string;
const diagnostics: string[] = [];

async function openStores(watch: boolean): Promise<Stores> {
  const apps = await createAppsStore({ dataDir, watch, ...(watch ? {} : { onInvalid: "keep" as const }) });
  const keys = await createKeysStore({ dataDir, apps, watch, ...(watch ? {} : { onInvalid: "keep" as const }) });
  return { apps, keys };
}

before(async () => {
  dataDir = tempDir("retire");
  server = await openStores(true);
  // The CLI's view: its own stores on the same folder, no watching (another process in real life).
  cli = await openStores(false);
  backend = new ScriptedBackend();
  responses = new ResponseStore({ dataDir });
  const runs = new RunRegistry();
  retirement = watchAppRetirement({
    apps: server.apps,
    keys: server.keys,
    runs,
    responses,
    log: (l) => diagnostics.push(l),
    recheckMs: 200,
  });
  const app = createApiApp(
    {
      apps: server.apps,
      cli: bareCli,
      keys: server.keys,
      responses,
      backend,
      catalog: () => backend.listModels(),
      gate: new ConcurrencyGate(),
      requestLog: new MemoryLog(),
      logBodies: () => false,
      inlineImages: async (request) => request,
      now: Date.now,
      lanExposure: () => false,
      health: () => ({ ok: true, opencode: "ready" }),
      log: (l) => diagnostics.push(l),
      commitAfterMs: 20,
      runs,
    },
    WIRES,
  );
  listener = new Listener(app, "127.0.0.1", 0, WIRES.unmatchedErrorBody);
  base = `http://127.0.0.1:${(await listener.start()).port}`;
});

after(async () => {
  retirement.stop();
  await listener.stop(0);
  for (const s of [cli, server]) {
    await s.keys.close();
    await s.apps.close();
  }
  removeDir(dataDir);
});

function post(pathname: string, key: string, body: unknown, signal?: AbortSignal): Promise<Response> {
  return fetch(base + pathname, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

/** Reads a streamed body to its end (bounded by `ms`); returns the text and whether the server ended it. */
async function readToEnd(res: Response, ms: number): Promise<{ text: string; ended: boolean }> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const deadline = Date.now() + ms;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) {
      await reader.cancel();
      return { text, ended: false };
    }
    const step = await Promise.race([
      reader.read(),
      new Promise<"late">((r) => setTimeout(() => r("late"), left).unref()),
    ]);
    if (step === "late") continue;
    if (step.done) return { text, ended: true };
    text += decoder.decode(step.value, { stream: true });
  }
}

/** A stream that sends one delta and then runs until aborted. */
const endless: Step[] = [
  { type: "start", sessionId: "ses_long", warnings: [] },
  { type: "text-delta", delta: "working" },
  "hang",
];

describe("deleting an app or revoking a key", () => {
  test("a stream of an app deleted by the CLI ends at once (in-band error), and nothing of it is stored", async () => {
    await cli.apps.create("demo");
    const { key } = await cli.keys.create("demo");
    const oldApp = cli.apps.get("demo")!;
    // One finished, stored response to chain from later.
    backend.script = () => textAnswer("first");
    const first = await post("/v1/responses", key, { model: MODEL, input: "hi" });
    assert.equal(first.status, 200, await first.clone().text());
    const stored = (await first.json()) as { id: string; store: boolean };
    assert.equal(stored.store, true);

    backend.script = () => endless;
    const res = await post("/v1/responses", key, { model: MODEL, input: "long", stream: true });
    assert.equal(res.status, 200);
    const reading = readToEnd(res, 10_000);
    await new Promise((r) => setTimeout(r, 100));
    await deleteApp(cli.apps, cli.keys, "demo");
    const { text, ended } = await reading;
    assert.ok(ended, "the server ended the stream");
    assert.match(text, /response\.failed|"type":"error"/);
    assert.match(text, /revoked, or its app deleted/);
    const run = backend.streams.at(-1)!;
    assert.ok(run.signal.aborted, "the backend run was aborted");

    // Recreated under the same name: another data key, so other folders; the old response is not found.
    await cli.apps.create("demo");
    const { key: newKey } = await cli.keys.create("demo");
    const newApp = cli.apps.get("demo")!;
    assert.notEqual(appDataKey(newApp), appDataKey(oldApp));
    assert.notEqual(appDirectory(dataDir, appDataKey(newApp)), appDirectory(dataDir, appDataKey(oldApp)));
    // The old key is dead.
    assert.equal((await post("/v1/responses", key, { model: MODEL, input: "x" })).status, 401);
    const get = await fetch(`${base}/v1/responses/${stored.id}`, { headers: { authorization: `Bearer ${newKey}` } });
    assert.equal(get.status, 404);
    backend.script = () => textAnswer("second");
    const chained = await post("/v1/responses", newKey, {
      model: MODEL,
      input: "again",
      previous_response_id: stored.id,
    });
    assert.equal(chained.status, 400);
    assert.equal(((await chained.json()) as { error: { code: string } }).error.code, "previous_response_not_found");
    // Sessions of the new app are filed under its own folder.
    const ok = await post("/v1/responses", newKey, { model: MODEL, input: "fresh" });
    assert.equal(ok.status, 200);
    assert.equal(backend.streams.at(-1)!.request.app, appDataKey(newApp));
    // The old app's responses folder is gone; a late write for its key is refused.
    const oldFolder = path.join(dataDir, "responses", appDataKey(oldApp));
    await waitFor(() => !fs.existsSync(oldFolder));
    const late = newResponseId(Date.now());
    await assert.rejects(
      responses.put({
        v: 2,
        id: late,
        app: appDataKey(oldApp),
        createdAt: Date.now(),
        sessionId: null,
        parent: null,
        input: [],
        inputItems: 0,
        response: {
          id: late,
          object: "response",
          created_at: 0,
          status: "completed",
          model: MODEL,
          output: [],
          previous_response_id: null,
          instructions: null,
          usage: null,
          store: true,
        },
      }),
      /was deleted/,
    );
    assert.equal(fs.existsSync(oldFolder), false);
  });

  test("revoking one key ends that key's stream; a stream on another key of the app runs on", async () => {
    await cli.apps.create("two-keys");
    const a = await cli.keys.create("two-keys", "a");
    const b = await cli.keys.create("two-keys", "b");
    backend.script = () => endless;
    const abort = new AbortController();
    const resA = await post("/v1/chat/completions", a.key, {
      model: MODEL,
      messages: [{ role: "user", content: "a" }],
      stream: true,
    });
    const resB = await post(
      "/v1/chat/completions",
      b.key,
      { model: MODEL, messages: [{ role: "user", content: "b" }], stream: true },
      abort.signal,
    );
    assert.equal(resA.status, 200);
    assert.equal(resB.status, 200);
    const streamB = backend.streams.at(-1)!;
    const readingA = readToEnd(resA, 10_000);
    await new Promise((r) => setTimeout(r, 100));
    await cli.keys.revoke("two-keys", a.prefix);
    const { text, ended } = await readingA;
    assert.ok(ended, "the revoked key's stream ended");
    assert.match(text, /invalid_api_key/);
    assert.equal(streamB.signal.aborted, false, "the other key's stream runs on");
    abort.abort();
    await resB.body?.cancel().catch(() => undefined);
  });
});

describe("a key the CLI just made (issue 21 item 3.6)", () => {
  test("works on the very next request, every time, while other requests keep the server busy", async () => {
    backend.script = () => [{ type: "start", sessionId: "ses_busy", warnings: [] }, { wait: 5 }, ...textAnswer("ok")];
    await cli.apps.create("busy");
    const { key: busyKey } = await cli.keys.create("busy");
    let stop = false;
    const load = Array.from({ length: 4 }, async () => {
      while (!stop) await (await post("/v1/responses", busyKey, { model: MODEL, input: "load", store: false })).text();
    });
    try {
      for (let round = 0; round < 25; round++) {
        const name = `fresh-${round}`;
        await cli.apps.create(name);
        const { key } = await cli.keys.create(name);
        const res = await post("/v1/responses", key, { model: MODEL, input: "first", store: false });
        assert.equal(res.status, 200, `round ${round}: ${await res.text()}`);
      }
    } finally {
      stop = true;
      await Promise.all(load);
    }
  });
});

async function waitFor(cond: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}
