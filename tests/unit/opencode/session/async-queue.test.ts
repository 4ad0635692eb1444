// AsyncQueue: order, waiting consumer, abort wakes the consumer at once.
import { test } from "node:test";
import assert from "node:assert/strict";
import { AsyncQueue } from "../../../../server/opencode/session/async-queue";

test("delivers in order, wakes a waiting consumer, and returns aborted when the signal fires", async () => {
  const q = new AsyncQueue<number>();
  const ac = new AbortController();
  q.push(1);
  assert.deepEqual(await q.next(ac.signal), { item: 1 });
  const waiting = q.next(ac.signal);
  q.push(2);
  assert.deepEqual(await waiting, { item: 2 });
  const blocked = q.next(ac.signal);
  setTimeout(() => ac.abort(), 10);
  assert.deepEqual(await blocked, { aborted: true });
});
