// pageInputItems / parseInputItemsQuery: order, limit, after/before cursors, has_more, and errors naming the parameter.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { PatchbayError } from "../../../server/core/errors";
import { pageInputItems, parseInputItemsQuery } from "../../../server/responses-store/input-items";

const items = ["a", "b", "c", "d", "e"].map((id) => ({ id, type: "message" }));
const ids = (p: { data: Array<{ id: string }> }) => p.data.map((x) => x.id);

describe("input items pages", () => {
  test("defaults: desc, 20", () => {
    const p = pageInputItems(items, parseInputItemsQuery({}));
    assert.deepEqual(ids(p), ["e", "d", "c", "b", "a"]);
    assert.deepEqual([p.object, p.first_id, p.last_id, p.has_more], ["list", "e", "a", false]);
  });

  test("asc with limit and after; desc with before", () => {
    const p1 = pageInputItems(items, parseInputItemsQuery({ order: "asc", limit: "2" }));
    assert.deepEqual([ids(p1), p1.has_more], [["a", "b"], true]);
    const p2 = pageInputItems(items, parseInputItemsQuery({ order: "asc", limit: "2", after: "b" }));
    assert.deepEqual([ids(p2), p2.has_more], [["c", "d"], true]);
    const p3 = pageInputItems(items, parseInputItemsQuery({ order: "asc", limit: "2", after: "d" }));
    assert.deepEqual([ids(p3), p3.has_more], [["e"], false]);
    const p4 = pageInputItems(items, parseInputItemsQuery({ before: "c" }));
    assert.deepEqual(ids(p4), ["e", "d"]);
    const empty = pageInputItems([], parseInputItemsQuery({}));
    assert.deepEqual([empty.first_id, empty.last_id, empty.has_more], [null, null, false]);
  });

  test("bad parameters are 400 naming them", () => {
    for (const [q, param] of [
      [{ limit: "0" }, "limit"],
      [{ limit: "101" }, "limit"],
      [{ order: "up" }, "order"],
    ] as const) {
      assert.throws(
        () => parseInputItemsQuery(q),
        (e: unknown) => e instanceof PatchbayError && e.status === 400 && e.param === param,
      );
    }
    assert.throws(
      () => pageInputItems(items, parseInputItemsQuery({ after: "zz" })),
      (e: unknown) => e instanceof PatchbayError && e.param === "after",
    );
  });
});
