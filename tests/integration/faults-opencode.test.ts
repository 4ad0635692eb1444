// Faults of issue 8 item 4 against the real `opencode serve` and the mock upstream: upstream 401/429/500 mapped
// promptly (before OpenCode's hidden retries reach the upstream), client disconnect interrupts the session, OpenCode
// killed mid-stream → in-band error + restart + next request works, unwritable data dir → clear error and
// nothing stored is lost. (Slow OpenCode start: faults-slow-start.test.ts.)
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { AdminApiError } from "../../shared/admin/client";
import { startPatchbayFixture, type PatchbayFixture } from "../harness/patchbay-fixture";
import { chatBody, expectEnvelope, inBandError, readSse, sleep, waitFor } from "../harness/http-helpers";

const MODEL = "mock/mock-model";
let fx: PatchbayFixture;
let key: string;

before(async () => {
  fx = await startPatchbayFixture();
  key = await fx.createKey("faults");
  // Warm the app's instance directory so timings below measure the fault, not the first prompt of an instance.
  fx.mock.reset();
  const warm = await fx.api("/v1/chat/completions", { method: "POST", key, body: chatBody(MODEL) });
  assert.equal(warm.status, 200);
});
after(async () => {
  await fx?.stop();
});

const post = (body: string, signal?: AbortSignal) =>
  fx.api("/v1/chat/completions", { method: "POST", key, body, ...(signal ? { signal } : {}) });

describe("upstream errors are mapped promptly", () => {
  test("401 from the provider → 502 upstream_auth_error, one upstream call, no retry", async (t) => {
    fx.mock.reset();
    fx.mock.script({ error: { status: 401, message: "Incorrect API key provided: sk-mock-****0000" } });
    const t0 = Date.now();
    const err = await expectEnvelope(await post(chatBody(MODEL)), 502, "upstream_auth_error");
    const elapsed = Date.now() - t0;
    assert.match(err.message, /rejected the credentials/);
    assert.doesNotMatch(err.message, /sk-mock-key/);
    t.diagnostic(`401 answered in ${elapsed} ms`);
    assert.equal(fx.mock.chatRequests().length, 1);
  });

  test("429 with Retry-After → 429 rate_limit envelope with Retry-After forwarded, before OpenCode's retries", async (t) => {
    fx.mock.reset();
    fx.mock.setResponder(() => ({
      error: { status: 429, message: "Rate limit reached for requests", headers: { "retry-after": "3" } },
    }));
    const t0 = Date.now();
    const res = await post(chatBody(MODEL));
    const elapsed = Date.now() - t0;
    const retryAfter = Number(res.headers.get("retry-after"));
    const err = await expectEnvelope(res, 429, "upstream_rate_limited");
    assert.equal(err.type, "rate_limit_error");
    assert.ok(retryAfter >= 2 && retryAfter <= 3, `Retry-After ${retryAfter}`);
    // OpenCode alone would retry 5 times (≈ 6 × 3 s); Patchbay answers at the first retry notice, so the answer
    // arrives while the upstream has seen exactly one call (the order of events, not a stopwatch, says "at once").
    t.diagnostic(`429 answered in ${elapsed} ms, Retry-After ${retryAfter}`);
    assert.equal(fx.mock.chatRequests().length, 1, "the answer came after OpenCode retried");
    // The session was aborted: OpenCode's retry (due 3 s after the first call) never reaches the upstream.
    await sleep(3500);
    assert.equal(fx.mock.chatRequests().length, 1, "OpenCode kept retrying after Patchbay answered");
  });

  test("500 → 502 upstream_error at once, not after OpenCode's 2–30 s backoff", async (t) => {
    fx.mock.reset();
    fx.mock.setResponder(() => ({ error: { status: 500, message: "upstream exploded" } }));
    const t0 = Date.now();
    const err = await expectEnvelope(await post(chatBody(MODEL)), 502, "upstream_error");
    const elapsed = Date.now() - t0;
    assert.match(err.message, /upstream exploded/);
    t.diagnostic(`500 answered in ${elapsed} ms`);
    // The upstream keeps failing, so had Patchbay waited for OpenCode's backoff it would have seen a second call.
    assert.equal(fx.mock.chatRequests().length, 1, "the answer came after OpenCode retried");
    await sleep(2500); // OpenCode's first retry would come 2 s after the failure
    assert.equal(fx.mock.chatRequests().length, 1, "OpenCode kept retrying after Patchbay answered");
  });

  test("500 while streaming → an error the client sees promptly (HTTP status or in-band)", async (t) => {
    fx.mock.reset();
    fx.mock.setResponder(() => ({ error: { status: 500, message: "stream exploded" } }));
    const t0 = Date.now();
    const res = await post(chatBody(MODEL, { stream: true }));
    if (res.status === 200) {
      const frames = await readSse(res);
      const err = inBandError(frames);
      assert.ok(err, "no in-band error");
      assert.match(err.message, /stream exploded/);
      t.diagnostic(`in-band error after ${err.at - t0} ms`);
    } else {
      const err = await expectEnvelope(res, 502, "upstream_error");
      assert.match(err.message, /stream exploded/);
    }
    // Before OpenCode's first retry (the upstream keeps failing): promptly, told by the order of events.
    assert.equal(fx.mock.chatRequests().length, 1, "the error came after OpenCode retried");
    fx.mock.reset();
  });
});

describe("client disconnect interrupts the OpenCode session", () => {
  test("streaming: the upstream connection closes when the client leaves", async (t) => {
    fx.mock.reset();
    fx.mock.script({ text: "partial answer before a long pause", chunks: 4, hold: true });
    const ac = new AbortController();
    const res = await post(chatBody(MODEL, { stream: true }), ac.signal);
    assert.equal(res.status, 200);
    let abortedAt = 0;
    await readSse(res, (f) => {
      const delta = (f.json?.choices as { delta?: { content?: string } }[] | undefined)?.[0]?.delta?.content;
      if (delta) {
        abortedAt = Date.now();
        ac.abort();
        return true;
      }
    }).catch(() => []);
    assert.ok(abortedAt > 0, "no content before the disconnect");
    const rec = fx.mock.chatRequests()[0]!;
    // The mock holds its stream open for good: only the client's leaving can close it (bounded wait, no stopwatch).
    await waitFor("the upstream connection to close", () => rec.closedEarlyAt !== null, 15_000);
    assert.ok(rec.closedEarlyAt! >= abortedAt, "the upstream closed before the client left");
    t.diagnostic(`upstream closed ${rec.closedEarlyAt! - abortedAt} ms after the client left`);
    const entry = await waitForLogEntry((e) => e.status === 499);
    assert.equal(entry.errorCode, "client_closed");
  });

  test("non-streaming: the upstream connection closes when the client leaves", async (t) => {
    fx.mock.reset();
    fx.mock.script({ text: "never delivered", hold: true });
    const ac = new AbortController();
    const pending = post(chatBody(MODEL), ac.signal).catch((e: unknown) => e);
    const rec = (await fx.mock.waitForRequests(1))[0]!;
    await sleep(300); // the upstream is streaming to OpenCode now
    assert.equal(rec.closedEarlyAt, null, "the upstream closed before the client left");
    const abortedAt = Date.now();
    ac.abort();
    await pending;
    // The mock holds its answer for good: only the client's leaving can close it (bounded wait, no stopwatch).
    await waitFor("the upstream connection to close", () => rec.closedEarlyAt !== null, 15_000);
    t.diagnostic(`upstream closed ${rec.closedEarlyAt! - abortedAt} ms after the client left`);
  });
});

describe("OpenCode dies mid-stream", () => {
  test("the client gets an in-band error, OpenCode restarts, the next request works", async (t) => {
    fx.mock.reset();
    fx.mock.script({ text: "streaming when OpenCode dies", chunks: 3, hold: true });
    const pid = fx.pb.status().opencode.pid;
    assert.ok(pid, "no OpenCode pid");
    const restartsBefore = fx.pb.status().opencode.restarts;
    const res = await post(chatBody(MODEL, { stream: true }));
    assert.equal(res.status, 200);
    let killedAt = 0;
    const frames = await readSse(
      res,
      (f) => {
        const delta = (f.json?.choices as { delta?: { content?: string } }[] | undefined)?.[0]?.delta?.content;
        if (delta && !killedAt) {
          killedAt = Date.now();
          process.kill(pid, "SIGKILL");
        }
      },
      15_000,
    );
    assert.ok(killedAt > 0, "no content before the kill");
    const err = inBandError(frames);
    assert.ok(
      err,
      `no in-band error; frames: ${frames
        .map((f) => f.data)
        .join(" | ")
        .slice(0, 500)}`,
    );
    // The stream read is bounded (15 s): the error ended it, rather than a hang until a timeout.
    t.diagnostic(`in-band error ${err.at - killedAt} ms after the kill`);
    assert.equal(err.code, "backend_unavailable");
    assert.ok(!frames.some((f) => f.data === "[DONE]"), "a failed stream must not end with [DONE]");

    await waitFor(
      "OpenCode to restart",
      () => fx.pb.status().opencode.state === "ready" && fx.pb.status().opencode.pid !== pid,
      60_000,
    );
    const st = fx.pb.status().opencode;
    assert.notEqual(st.pid, pid);
    assert.ok(st.restarts > restartsBefore);
    fx.mock.reset();
    fx.mock.script({ text: "back again" });
    const r = await fx
      .openai(key)
      .chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "hi" }] });
    assert.equal(r.choices[0]?.message.content, "back again");
  });
});

describe("unwritable data dir", () => {
  test("creating a key fails with a clear storage error; existing keys and apps keep working; nothing is lost", async () => {
    const keysFile = path.join(fx.dataDir, "keys.json");
    const before = fs.readFileSync(keysFile, "utf8");
    const lock = lockDir(fx.dataDir);
    try {
      await assert.rejects(
        fx.admin.createKey({ params: { name: "faults" }, body: { label: "while locked" } }),
        (e: unknown) => {
          assert.ok(e instanceof AdminApiError, String(e));
          assert.equal(e.status, 500);
          assert.equal(e.code, "storage_error");
          assert.match(e.message, /keys\.json/);
          assert.match(e.message, /permission denied|not permitted|read-only/i);
          return true;
        },
      );
      await assert.rejects(
        fx.admin.createApp({ body: { name: "new-app-locked" } }),
        (e: unknown) => e instanceof AdminApiError && e.code === "storage_error",
      );
      // The existing key still authenticates and the API still answers.
      fx.mock.reset();
      const r = await post(chatBody(MODEL));
      assert.equal(r.status, 200);
      assert.equal((await fx.api("/v1/models", { key })).status, 200);
      assert.equal(fs.readFileSync(keysFile, "utf8"), before, "keys.json changed while the folder was unwritable");
    } finally {
      lock.undo();
    }
    const listed = await fx.admin.listKeys({ params: { name: "faults" } });
    assert.equal(listed.keys.length, 1, "the key list lost or gained a key");
    // Writable again: creating works and the old key is still there.
    const created = await fx.admin.createKey({ params: { name: "faults" }, body: { label: "after" } });
    assert.ok(created.key.startsWith("pb-"));
    assert.equal((await fx.api("/v1/models", { key })).status, 200);
    assert.equal((await fx.api("/v1/models", { key: created.key })).status, 200);
  });
});

/** Makes `dir` unwritable: `chattr +i` as root (root ignores modes), else mode 0500. */
function lockDir(dir: string): { undo(): void } {
  if (process.getuid?.() === 0) {
    execFileSync("chattr", ["+i", dir]);
    return { undo: () => execFileSync("chattr", ["-i", dir]) };
  }
  const mode = fs.statSync(dir).mode & 0o777;
  fs.chmodSync(dir, 0o500);
  return { undo: () => fs.chmodSync(dir, mode) };
}

async function waitForLogEntry(match: (e: { status: number; errorCode: string | null }) => boolean) {
  let found: { status: number; errorCode: string | null } | undefined;
  await waitFor(
    "a request-log entry",
    async () => {
      const page = await fx.admin.queryLogs({ query: {} });
      found = page.entries.find(match);
      return found !== undefined;
    },
    5000,
  );
  return found!;
}
