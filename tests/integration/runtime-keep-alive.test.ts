// OpenCode keep-alive for real (issue 26): with a 1.5 s keep-alive (set through Settings, as a user would), OpenCode
// goes to sleep when idle and a request of each wire wakes it and is answered; a request that arrives while it is
// stopping is answered; the model list, history browsing and pruning work while it sleeps; stored responses and
// sessions survive; the pid file and runtime.json stay true; "Restart OpenCode" (admin API) works in both states.
// One Patchbay for the whole file; every wait is bounded and every step is ordered by events, not by a stopwatch.
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startPatchbayFixture, type PatchbayFixture } from "../harness/patchbay-fixture";
import { chatBody, waitFor } from "../harness/http-helpers";
import { openCodePidFile } from "../../server/opencode/process/leftover";
import { pidAlive } from "../../server/pid-alive";

const MODEL = "mock/mock-model";
const APP = "sleepy";
let fx: PatchbayFixture;
let key: string;

before(async () => {
  fx = await startPatchbayFixture();
  key = await fx.createKey(APP);
  await fx.admin.updateSettings({ body: { opencodeKeepAlive: "1500ms" } });
});
after(async () => {
  await fx?.stop();
});

const state = () => fx.pb.status().opencode.state;
/** Waits (bounded) until OpenCode sleeps: the keep-alive's own timer, nothing else, gets it there. */
const asleep = () => waitFor("OpenCode to sleep", () => state() === "sleeping", 60_000);

async function chat(text = "hello"): Promise<Response> {
  return fx.api("/v1/chat/completions", {
    method: "POST",
    key,
    body: chatBody(MODEL, { messages: [{ role: "user", content: text }] }),
  });
}

describe("OpenCode keep-alive", () => {
  test("a bad keep-alive in Settings is refused with a clear message; the saved one stays", async () => {
    const res = await fetch(`${fx.urls.adminUrl}/admin/api/settings`, {
      method: "PATCH",
      headers: {
        authorization: `Bearer ${fx.urls.adminToken}`,
        "content-type": "application/json",
        origin: fx.urls.adminUrl,
      },
      body: JSON.stringify({ opencodeKeepAlive: "banana" }),
    });
    assert.equal(res.status, 400);
    const body = (await res.json()) as { error: { message: string; param?: string } };
    assert.match(body.error.message, /keep-alive.*10m.*forever/i);
    assert.equal((await fx.admin.getSettings()).opencodeKeepAlive, "1500ms");
  });

  test("after the idle period OpenCode sleeps: its process is gone, the pid file with it, runtime.json stays", async () => {
    // The pid of the OpenCode that answered (it may already be going to sleep when the answer is read).
    let pid: number | null = null;
    const off = fx.pb.onStatus((st) => {
      if (st.opencode.state === "ready" && st.opencode.pid) pid = st.opencode.pid;
    });
    pid = fx.pb.status().opencode.pid ?? pid;
    const first = await chat();
    off();
    assert.equal(first.status, 200, await first.clone().text());
    assert.ok(pid, "the pid of the OpenCode that answered");
    await asleep();
    assert.equal(fx.pb.status().opencode.pid, null);
    // The sleep counter is updated once the stop completes, a moment after the state says "sleeping".
    await waitFor("the sleep to be counted", () => (fx.pb.status().runtime?.keepAlive?.sleeps ?? 0) >= 1, 15_000);
    assert.equal(fx.pb.status().runtime?.keepAlive?.ms, 1500);
    await waitFor("the slept OpenCode to exit", () => !pidAlive(pid!), 15_000);
    // The pid file names only a running OpenCode (leftover cleanup must never kill a stranger's pid).
    await waitFor("the pid file to go", () => !fs.existsSync(openCodePidFile(fx.dataDir)), 10_000);
    const runtime = JSON.parse(fs.readFileSync(path.join(fx.dataDir, "runtime.json"), "utf8")) as {
      pid: number;
      adminUrl: string;
    };
    assert.equal(runtime.pid, process.pid);
    assert.equal(runtime.adminUrl, fx.urls.adminUrl);
  });

  // Each wake is a whole OpenCode start (seconds of CPU), so requests that share a wake are sent together.
  let storedId = "";
  test("a request of each wire that arrives while it sleeps wakes it and is answered; the new pid is recorded", async () => {
    await asleep();
    const [chatRes, responsesRes, messagesRes] = await Promise.all([
      chat("wake up"),
      fx.api("/v1/responses", {
        method: "POST",
        key,
        body: JSON.stringify({ model: MODEL, input: "remember me", store: true }),
      }),
      fx.api("/v1/messages", {
        method: "POST",
        key,
        headers: { "anthropic-version": "2023-06-01" },
        body: JSON.stringify({ model: MODEL, max_tokens: 64, messages: [{ role: "user", content: "hi" }] }),
      }),
    ]);
    assert.equal(chatRes.status, 200, await chatRes.clone().text());
    const completion = (await chatRes.json()) as { choices: Array<{ message: { content: string } }> };
    assert.ok(completion.choices[0]?.message.content);

    assert.equal(responsesRes.status, 200, await responsesRes.clone().text());
    const response = (await responsesRes.json()) as { id: string; status: string; store: boolean };
    assert.equal(response.status, "completed");
    assert.equal(response.store, true);
    storedId = response.id;

    assert.equal(messagesRes.status, 200, await messagesRes.clone().text());
    const message = (await messagesRes.json()) as { type: string; content: Array<{ type: string }> };
    assert.equal(message.type, "message");
    assert.ok(message.content.length > 0);

    const pid = fx.pb.status().opencode.pid;
    assert.ok(pid && pidAlive(pid));
    await waitFor(
      "the pid file to name the woken OpenCode",
      () => {
        try {
          return (JSON.parse(fs.readFileSync(openCodePidFile(fx.dataDir), "utf8")) as { pid: number }).pid === pid;
        } catch {
          return false;
        }
      },
      10_000,
    );
  });

  test("the stored response and its chain survive a sleep", async () => {
    assert.ok(storedId);
    await asleep();
    const [got, chained] = await Promise.all([
      fx.api(`/v1/responses/${storedId}`, { key }),
      fx.api("/v1/responses", {
        method: "POST",
        key,
        body: JSON.stringify({ model: MODEL, input: "and then?", previous_response_id: storedId }),
      }),
    ]);
    assert.equal(got.status, 200, await got.clone().text());
    assert.equal(chained.status, 200, await chained.clone().text());
    // The upstream saw the earlier turn: the chain was expanded from the record kept across the sleep.
    const last = fx.mock.requests.at(-1);
    assert.match(JSON.stringify(last?.body), /remember me/);
  });

  test("a request that arrives while OpenCode is stopping is answered", async () => {
    const res0 = await chat("keep it warm");
    assert.equal(res0.status, 200);
    let sent: Promise<Response> | null = null;
    let oldPidAliveWhenSent = false;
    const oldPid = fx.pb.status().opencode.pid;
    const off = fx.pb.onStatus((s) => {
      if (s.opencode.state !== "sleeping" || sent) return;
      // Sent in the same tick the sleep begins: the old process has only just been told to stop.
      oldPidAliveWhenSent = oldPid !== null && pidAlive(oldPid);
      sent = chat("while stopping");
    });
    try {
      await asleep();
      await waitFor("the request to be sent", () => sent !== null, 5_000);
    } finally {
      off();
    }
    assert.equal(oldPidAliveWhenSent, true, "the request went out while the old OpenCode was still exiting");
    const res = await sent!;
    assert.equal(res.status, 200, await res.clone().text());
  });

  test("GET /v1/models answers from the last list while asleep and wakes OpenCode early; so does HEAD /", async () => {
    await asleep();
    const models = await fx.api("/v1/models", { key });
    assert.equal(models.status, 200);
    const list = (await models.json()) as { data: Array<{ id: string }> };
    assert.ok(list.data.some((m) => m.id === MODEL));
    await waitFor("the early wake after a model list", () => state() !== "sleeping", 10_000);
    await asleep();
    const head = await fetch(`${fx.apiBase.replace(/\/v1$/, "")}/`, { method: "HEAD" });
    assert.equal(head.status, 200);
    await waitFor("the early wake after HEAD /", () => state() !== "sleeping", 10_000);
  });

  test("history browsing, deleting and pruning work while it sleeps; sessions survive sleeps", async () => {
    const pruneKey = await fx.createKey("prunable");
    for (const text of ["one", "two"]) {
      const res = await fx.api("/v1/chat/completions", {
        method: "POST",
        key: pruneKey,
        body: chatBody(MODEL, { messages: [{ role: "user", content: text }] }),
      });
      assert.equal(res.status, 200);
    }
    await asleep();
    const page = await fx.admin.listSessions({ params: { name: APP }, query: { limit: 100 } });
    // Every request of this app so far made a session, kept across all the sleeps above.
    assert.ok(page.sessions.length >= 6, `sessions listed after sleeps: ${page.sessions.length}`);
    const firstId = page.sessions.at(-1)!.id;
    await fx.admin.updateApp({ params: { name: "prunable" }, body: { history: { maxSessions: 1 } } });
    await asleep();
    const [messages, sweep] = await Promise.all([
      fx.admin.getSessionMessages({ params: { name: APP, id: firstId }, query: {} }),
      fx.admin.pruneNow({ params: { name: "prunable" }, body: {} }),
    ]);
    assert.ok(messages.messages.length >= 1);
    assert.equal(sweep.error ?? null, null);
    assert.equal(sweep.removed, 1);
    await fx.admin.deleteSession({ params: { name: APP, id: firstId } });
    const after = await fx.admin.listSessions({ params: { name: APP }, query: { limit: 100 } });
    assert.ok(!after.sessions.some((s) => s.id === firstId));
  });

  test("Restart OpenCode (admin API) wakes a sleeping OpenCode and restarts a ready one", async () => {
    await asleep();
    const answer = await fx.admin.restartOpenCode();
    assert.notEqual(answer.opencode.state, "failed");
    await waitFor("OpenCode ready after the restart", () => state() === "ready", 60_000);
    // Keep it awake with a request, then restart the ready process: a new pid, and requests work after it.
    await fx.admin.updateSettings({ body: { opencodeKeepAlive: "forever" } });
    const pid = fx.pb.status().opencode.pid;
    await fx.admin.restartOpenCode();
    await waitFor("a new OpenCode", () => state() === "ready" && fx.pb.status().opencode.pid !== pid, 60_000);
    assert.equal(pidAlive(pid!), false);
    const res = await chat("after the restart");
    assert.equal(res.status, 200);
  });
});
