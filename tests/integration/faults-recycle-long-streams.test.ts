// A memory recycle while a stream outlasts every drain (issue 21 §4.1): OpenCode over its limit, one stream held by
// the mock for the whole test, so every recycle attempt is postponed. Before the fix each attempt held every new
// request for the whole drain timeout, then discarded its replacement OpenCode; the replacements' plugin
// announcements pushed the running process out of the side channel's "last 3" and requests failed
// `backend_unavailable`. Now: requests between attempts are answered by the current process, one replacement is
// kept ready across postponed attempts, and once the stream ends the swap happens. Short timings via options.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startPatchbayFixture, type PatchbayFixture } from "../harness/patchbay-fixture";
import { readSse, waitFor } from "../harness/http-helpers";

const MODEL = "mock/mock-model";
const HOLD = "HOLD THIS STREAM";
let fx: PatchbayFixture;
let key: string;

before(async () => {
  fx = await startPatchbayFixture({
    runtime: {
      timings: { memoryCheckMs: 300, busyGraceMs: 300, minUptimeMs: 1000, drainTimeoutMs: 1500, maxHoldMs: 1000 },
    },
  });
  key = await fx.createKey("long-streams");
  await fx.admin.updateApp({ params: { name: "long-streams" }, body: { limits: { concurrency: 16 } } });
  fx.mock.setResponder((req) => {
    const held = JSON.stringify(req.body.messages ?? []).includes(HOLD);
    return held ? { text: "streaming for a long time", hold: true } : { text: `answer ${req.n}` };
  });
  assert.equal((await probe()).status, 200, "warm-up request failed");
});
after(async () => {
  fx?.mock.release();
  await fx?.stop();
});

/** A short non-streamed request; its status and body. */
async function probe(): Promise<{ status: number; body: string }> {
  const res = await fx.api("/v1/chat/completions", {
    method: "POST",
    key,
    body: JSON.stringify({ model: MODEL, messages: [{ role: "user", content: "probe" }] }),
  });
  return { status: res.status, body: await res.text() };
}

const postponed = () => fx.logLines.filter((l) => l.includes("recycle postponed")).length;
const replacementsStarted = () => fx.logLines.filter((l) => l.includes("replacement ready in")).length;

describe("recycle while a stream outlasts every drain", () => {
  test("requests between postponed attempts are answered, one replacement is kept, the swap follows the stream's end", async () => {
    const pid0 = fx.pb.status().opencode.pid;
    const res = await fx.api("/v1/chat/completions", {
      method: "POST",
      key,
      body: JSON.stringify({ model: MODEL, stream: true, messages: [{ role: "user", content: HOLD }] }),
    });
    assert.equal(res.status, 200);
    const held = readSse(res, () => {}, 170_000);
    await waitFor("the mock to hold the stream", () => fx.mock.heldCount === 1, 30_000);
    await fx.admin.updateSettings({ body: { opencodeMemoryLimitMB: 1 } });

    // Four postponed attempts (before the fix, the third spare's announcement dropped the current process's),
    // with a request after each: every one answered by the current process. The first attempt includes starting
    // the replacement (half a minute on a loaded 2-core machine); later ones reuse it.
    const failures: string[] = [];
    for (let attempt = 1; attempt <= 4; attempt++) {
      await waitFor(
        `recycle attempt ${attempt} to be postponed`,
        () => postponed() >= attempt,
        attempt === 1 ? 150_000 : 60_000,
      );
      const p = await probe();
      if (p.status !== 200) failures.push(`after attempt ${attempt}: ${p.status} ${p.body.slice(0, 200)}`);
    }
    assert.deepEqual(failures, [], "requests failed while the recycle was postponed");
    assert.equal(fx.pb.status().opencode.pid, pid0, "swapped while the stream still ran");
    assert.equal(fx.mock.heldCount, 1, "the long stream was cut");
    assert.equal(replacementsStarted(), 1, "each postponed attempt started (and discarded) a spare OpenCode");

    // The stream ends: the next attempt swaps to the kept replacement; the stream finished whole.
    const recycles0 = fx.pb.status().runtime!.recycles;
    fx.mock.release();
    const frames = await held;
    assert.ok(
      frames.some((f) => f.data === "[DONE]"),
      "the long stream did not finish cleanly",
    );
    await waitFor("the swap after the stream ended", () => fx.pb.status().runtime!.recycles > recycles0, 30_000);
    await fx.admin.updateSettings({ body: { opencodeMemoryLimitMB: 0 } });
    assert.notEqual(fx.pb.status().opencode.pid, pid0);
    const after = await probe();
    assert.equal(after.status, 200, after.body);
  });
});
