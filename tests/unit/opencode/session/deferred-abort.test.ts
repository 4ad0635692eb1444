// The abort that waits for an instance's set-up (server/opencode/session/deferred-abort.ts), with a fake event hub.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { HubMessage, OpenCodeEvent } from "../../../../server/opencode/session/event-hub";
import { abortAfterSetUp, showsModelReached } from "../../../../server/opencode/session/deferred-abort";

const SID = "ses_1";

/** A hub with one session's handlers; `emit` delivers like OpenCodeEventHub.dispatch. */
function fakeHub() {
  const handlers = new Set<(m: HubMessage) => void>();
  return {
    subscribe(sessionID: string, h: (m: HubMessage) => void) {
      assert.equal(sessionID, SID);
      handlers.add(h);
      return () => handlers.delete(h);
    },
    emit(m: HubMessage) {
      for (const h of [...handlers]) h(m);
    },
    get subscribers() {
      return handlers.size;
    },
  };
}

const ev = (type: string, properties: Record<string, unknown> = {}): HubMessage => ({
  kind: "event",
  event: { type, properties: { sessionID: SID, ...properties } },
});

function start(opts: { setUp?: boolean; maxWaitMs?: number } = {}) {
  const hub = fakeHub();
  const calls = { aborts: 0, reached: 0 };
  const done = abortAfterSetUp({
    hub,
    sessionID: SID,
    abort: async () => {
      calls.aborts++;
    },
    isSetUp: () => opts.setUp ?? false,
    onModelReached: () => calls.reached++,
    ...(opts.maxWaitMs !== undefined ? { maxWaitMs: opts.maxWaitMs } : {}),
  });
  return { hub, calls, done };
}

describe("abortAfterSetUp", () => {
  test("waits through the set-up events, then aborts when the model step starts", async () => {
    const { hub, calls, done } = start();
    hub.emit(ev("session.status", { status: { type: "busy" } }));
    hub.emit(ev("message.updated", { info: { role: "assistant" } }));
    assert.equal(calls.aborts, 0, "no abort during the set-up");
    hub.emit(ev("message.part.updated", { part: { type: "step-start", sessionID: SID } }));
    await done;
    assert.deepEqual(calls, { aborts: 1, reached: 1 });
    assert.equal(hub.subscribers, 0, "unsubscribed");
  });

  test("a streamed delta also shows the model was reached", async () => {
    const { hub, calls, done } = start();
    hub.emit(ev("message.part.delta", { partID: "p", field: "text", delta: "x" }));
    await done;
    assert.deepEqual(calls, { aborts: 1, reached: 1 });
  });

  test("an instance already set up is aborted at once", async () => {
    const { calls, done, hub } = start({ setUp: true });
    await done;
    assert.equal(calls.aborts, 1);
    assert.equal(hub.subscribers, 0);
  });

  test("a prompt that ends idle is not aborted; an error or a retry is", async () => {
    for (const [end, aborts] of [
      [ev("session.idle"), 0],
      [ev("session.status", { status: { type: "idle" } }), 0],
      [ev("session.error", { error: { name: "APIError" } }), 1],
      [ev("session.status", { status: { type: "retry", attempt: 1 } }), 1],
    ] as const) {
      const { hub, calls, done } = start();
      hub.emit(end);
      await done;
      assert.equal(calls.aborts, aborts, (end as { event: OpenCodeEvent }).event.type);
      assert.equal(calls.reached, 0);
    }
  });

  test("a lost event stream ends the wait without an abort (OpenCode is going down)", async () => {
    const { hub, calls, done } = start();
    hub.emit({ kind: "down", reason: "event stream closed" });
    await done;
    assert.equal(calls.aborts, 0);
  });

  test("after maxWaitMs it aborts anyway", async () => {
    const { calls, done } = start({ maxWaitMs: 20 });
    const keepAlive = setInterval(() => {}, 1000); // the product's timer is unref'd (it never holds Patchbay open)
    await done;
    clearInterval(keepAlive);
    assert.equal(calls.aborts, 1);
  });

  test("showsModelReached: step-start and deltas only", () => {
    assert.equal(
      showsModelReached({ type: "message.part.updated", properties: { part: { type: "step-start" } } }),
      true,
    );
    assert.equal(showsModelReached({ type: "message.part.updated", properties: { part: { type: "text" } } }), false);
    assert.equal(showsModelReached({ type: "message.part.delta", properties: {} }), true);
    assert.equal(showsModelReached({ type: "session.status", properties: { status: { type: "busy" } } }), false);
  });
});
