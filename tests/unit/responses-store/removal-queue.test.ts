// RemovalQueue: one deletion per app at a time, ids marked while deleted (kept marked only when gone), and a chain
// walk that failed during a deletion tried once more after it.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { PatchbayError } from "../../../server/core/errors";
import { RemovalQueue } from "../../../server/responses-store/removal-queue";
import type { RemovalResult } from "../../../server/responses-store/remove";

const done = (removed: string[], failed = 0): RemovalResult => ({ removed, missing: [], failed, error: null });
const broken = () => new PatchbayError("storage_error", "chain broken");

describe("RemovalQueue", () => {
  test("deletions of an app run one at a time; ids stay marked only when they went", async () => {
    const q = new RemovalQueue();
    const order: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const first = q.run("a", ["r1", "r2"], async () => {
      order.push("first starts");
      await gate;
      order.push("first ends");
      return done(["r1"], 1);
    });
    const second = q.run("a", ["r3"], async () => {
      order.push("second");
      return done(["r3"]);
    });
    assert.ok(q.isDoomed("a", "r1") && q.isDoomed("a", "r2") && q.isDoomed("a", "r3"));
    assert.equal(q.isDoomed("b", "r1"), false);
    await new Promise((r) => setImmediate(r));
    release();
    await Promise.all([first, second]);
    assert.deepEqual(order, ["first starts", "first ends", "second"]);
    assert.deepEqual([q.isDoomed("a", "r1"), q.isDoomed("a", "r2"), q.isDoomed("a", "r3")], [true, false, true]);
    q.forgetApp("a");
    assert.equal(q.isDoomed("a", "r1"), false);
  });

  test("a walk that fails while a deletion runs is tried once more after it; otherwise its error stands", async () => {
    const q = new RemovalQueue();
    let calls = 0;
    await assert.rejects(
      q.walk("a", async () => {
        calls++;
        throw broken();
      }),
      /chain broken/,
    );
    assert.equal(calls, 1, "no deletion: no retry");

    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    let deleted = false;
    const removal = q.run("a", ["r1"], async () => {
      await gate;
      deleted = true;
      return done(["r1"]);
    });
    await new Promise((r) => setImmediate(r));
    calls = 0;
    const walked = q.walk("a", async () => {
      calls++;
      if (!deleted) {
        release();
        throw broken();
      }
      return "whole";
    });
    assert.equal(await walked, "whole");
    assert.equal(calls, 2);
    await removal;
    await assert.rejects(
      q.walk("a", async () => {
        throw new PatchbayError("response_not_found", "gone");
      }),
      /gone/,
    );
  });
});
