// HistoryCache: copies in and out, a changed parent misses, least recently used first out within the byte bound.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { HistoryCache } from "../../../server/responses-store/history-cache";

const item = (n: number) => ({ id: `msg_${n}`, type: "message", role: "user", content: "x".repeat(100) });

describe("HistoryCache", () => {
  test("hands out copies; a record whose parent changed misses; forget and forgetApp drop entries", () => {
    const cache = new HistoryCache();
    const items = [item(1)];
    cache.remember("a", "r1", "r0", items);
    items[0]!.content = "changed";
    const got = cache.history("a", "r1", "r0");
    assert.equal(got?.[0]?.content, "x".repeat(100));
    got![0]!.content = "changed too";
    assert.equal(cache.history("a", "r1")?.[0]?.content, "x".repeat(100));
    assert.equal(cache.history("a", "r1", null), undefined, "folded since: another parent");
    assert.equal(cache.history("b", "r1"), undefined, "another app's");
    cache.remember("b", "r1", null, [item(2)]);
    cache.forgetApp("a");
    assert.equal(cache.history("a", "r1"), undefined);
    cache.forget("b", "r1");
    assert.equal(cache.history("b", "r1"), undefined);
  });

  test("stays within its bound, dropping the least recently used; a history too big is not kept", () => {
    const one = JSON.stringify([item(0)]).length;
    const cache = new HistoryCache(one * 5);
    for (let n = 1; n <= 5; n++) cache.remember("a", `r${n}`, null, [item(n)]);
    assert.ok(cache.history("a", "r1"), "used: now the most recent");
    cache.remember("a", "r6", null, [item(6)]);
    assert.equal(cache.history("a", "r2"), undefined, "the least recently used went");
    assert.ok(cache.history("a", "r1") && cache.history("a", "r6"));
    cache.remember("a", "big", null, [item(7), item(8)]);
    assert.equal(cache.history("a", "big"), undefined, "over a quarter of the bound");
  });
});
