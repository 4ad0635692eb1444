// Per-app limits on a real Patchbay (issue 8 item 1): concurrency over the limit → 429 + Retry-After, first-token
// timeout → 504 envelope (and the upstream is let go), total timeout (JSON 504 / in-band on a stream), max tools → 400,
// max body → 413. Each limit is set through the admin API, like the dashboard does.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { AppLimits } from "../../shared/apps";
import type { PatchbayFixture } from "../harness/patchbay-fixture";
import { releaseSharedPatchbay, useSharedPatchbay } from "../harness/shared-patchbay";
import { chatBody, expectEnvelope, inBandError, readSse, waitFor } from "../harness/http-helpers";

const MODEL = "mock/mock-model";
let fx: PatchbayFixture;
let key: string;

before(async () => {
  fx = await useSharedPatchbay();
  key = await fx.createKey("limits");
  const warm = await fx.api("/v1/chat/completions", { method: "POST", key, body: chatBody(MODEL) });
  assert.equal(warm.status, 200);
});
after(async () => {
  await releaseSharedPatchbay(fx);
});

async function setLimits(limits: Partial<AppLimits>): Promise<void> {
  await fx.admin.updateApp({ params: { name: "limits" }, body: { limits } });
}
const post = (body: string, init: RequestInit = {}) =>
  fx.api("/v1/chat/completions", { method: "POST", key, body, ...init });

describe("limits", () => {
  test("concurrency over the limit → 429 rate_limit_exceeded with Retry-After, then the slot frees", async () => {
    await setLimits({ concurrency: 1 });
    try {
      fx.mock.reset();
      fx.mock.script({ text: "held", hold: true });
      let firstSettled = false;
      const first = post(chatBody(MODEL)).finally(() => (firstSettled = true));
      await fx.mock.waitForRequests(1);
      // Immediate, not queued, by the order of events: the refusal arrives while the first request still holds the
      // slot (the mock holds it until released below; a queued second request would wait for it).
      const second = await post(chatBody(MODEL));
      assert.equal(firstSettled, false, "the refusal came only once the first request ended: it was queued");
      assert.ok(Number(second.headers.get("retry-after")) >= 1, "Retry-After missing");
      const err = await expectEnvelope(second, 429, "rate_limit_exceeded");
      assert.equal(err.type, "rate_limit_error");
      const responses = await fx.api("/v1/responses", {
        method: "POST",
        key,
        body: JSON.stringify({ model: MODEL, input: "x" }),
      });
      await expectEnvelope(responses, 429, "rate_limit_exceeded");
      assert.equal(fx.mock.chatRequests().length, 1, "refused requests must not reach the upstream");
      fx.mock.release();
      assert.equal((await first).status, 200);
      assert.equal((await post(chatBody(MODEL))).status, 200, "the slot was not freed");
    } finally {
      fx.mock.release();
      await setLimits({ concurrency: 4 });
    }
  });

  test("no first token within firstTokenTimeoutMs → 504 timeout envelope, upstream let go", async () => {
    await setLimits({ firstTokenTimeoutMs: 1000 });
    try {
      fx.mock.reset();
      // The mock's first token would come after 30 s: a 504 can only be the 1 s timeout firing (not early: a lower
      // bound on a timer holds however loaded the machine is).
      fx.mock.script({ text: "too late", delayMs: 30_000 });
      const t0 = Date.now();
      const err = await expectEnvelope(await post(chatBody(MODEL)), 504, "timeout");
      const elapsed = Date.now() - t0;
      assert.match(err.message, /first-token timeout/);
      assert.ok(elapsed >= 950, `504 after ${elapsed} ms, before the timeout`);
      const rec = fx.mock.chatRequests()[0]!;
      await waitFor("the upstream connection to close", () => rec.closedEarlyAt !== null, 15_000);

      fx.mock.reset();
      fx.mock.script({ text: "too late", delayMs: 30_000 });
      const res = await post(chatBody(MODEL, { stream: true }));
      if (res.status === 504) await expectEnvelope(res, 504, "timeout");
      else assert.equal(inBandError(await readSse(res))?.code, "timeout");
    } finally {
      await setLimits({ firstTokenTimeoutMs: 300_000 });
    }
  });

  test("total timeout while tokens still flow → 504 on JSON, in-band timeout error on a stream", async () => {
    await setLimits({ totalTimeoutMs: 1500 });
    try {
      fx.mock.reset();
      // Tokens flow for 20 s: a 504 can only be the 1.5 s total timeout.
      fx.mock.script({ text: "a slow answer that keeps trickling in", chunks: 10, paceMs: 2000 });
      const err = await expectEnvelope(await post(chatBody(MODEL)), 504, "timeout");
      assert.match(err.message, /total timeout/);

      fx.mock.reset();
      fx.mock.script({ text: "a slow answer that keeps trickling in", chunks: 10, paceMs: 400 });
      const res = await post(chatBody(MODEL, { stream: true }));
      assert.equal(res.status, 200);
      const frames = await readSse(res);
      const text = frames
        .map((f) => (f.json?.choices as { delta?: { content?: string } }[] | undefined)?.[0]?.delta?.content ?? "")
        .join("");
      assert.ok(text.length > 0, "some tokens arrived before the deadline");
      assert.equal(inBandError(frames)?.code, "timeout");
      assert.ok(!frames.some((f) => f.data === "[DONE]"));
    } finally {
      await setLimits({ totalTimeoutMs: 1_200_000 });
    }
  });

  test("more tools than maxTools → 400 naming tools, nothing reaches the upstream", async () => {
    await setLimits({ maxTools: 1 });
    try {
      fx.mock.reset();
      const fn = (name: string) => ({
        type: "function",
        function: { name, parameters: { type: "object", properties: {} } },
      });
      const err = await expectEnvelope(
        await post(chatBody(MODEL, { tools: [fn("a"), fn("b")] })),
        400,
        "invalid_request_error",
      );
      assert.equal(err.param, "tools");
      const rErr = await expectEnvelope(
        await fx.api("/v1/responses", {
          method: "POST",
          key,
          body: JSON.stringify({
            model: MODEL,
            input: "x",
            tools: [
              { type: "function", name: "a", parameters: {} },
              { type: "function", name: "b", parameters: {} },
            ],
          }),
        }),
        400,
        "invalid_request_error",
      );
      assert.equal(rErr.param, "tools");
      assert.equal(fx.mock.chatRequests().length, 0);
    } finally {
      await setLimits({ maxTools: 128 });
    }
  });

  test("body over maxBodyBytes → 413 payload_too_large naming the limit; a body under it passes", async () => {
    await setLimits({ maxBodyBytes: 4096 });
    try {
      const big = chatBody(MODEL, { messages: [{ role: "user", content: "x".repeat(10_000) }] });
      const err = await expectEnvelope(await post(big), 413, "payload_too_large");
      assert.match(err.message, /larger than this app allows \(4 KB\)/);
      fx.mock.reset();
      assert.equal((await post(chatBody(MODEL))).status, 200);
    } finally {
      await setLimits({ maxBodyBytes: 32 * 1024 * 1024 });
    }
  });
});
