// Composite cursor and k-way merge of an app's sessions across tool-set directories: exactly-once, in order, stable
// while sessions are created or deleted between pages, whatever order OpenCode uses among creation-time ties.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { HistoryService } from "../../../server/history/history-service";
import {
  compareNewestFirst,
  decodeListCursor,
  encodeListCursor,
  mergePage,
  needsMore,
  type DirFetch,
  type SessionKey,
} from "../../../server/history/session-pager";
import type { PatchbayError } from "../../../server/core/errors";
import { FakeOpenCode, fakeDirectories } from "./fake-opencode";

const ROOT = "/data/apps";

function service(fake: FakeOpenCode, tree: Record<string, string[]>) {
  return new HistoryService({ port: fake, appsDir: (a) => `${ROOT}/${a}`, directories: fakeDirectories(ROOT, tree) });
}

async function listAll(
  h: HistoryService,
  app: string,
  limit: number,
  between?: (page: number) => void,
  search?: string,
) {
  const ids: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const r = await h.list(app, { limit, ...(cursor ? { cursor } : {}), ...(search ? { search } : {}) });
    ids.push(...r.sessions.map((s) => s.id));
    cursor = r.nextCursor ?? undefined;
    between?.(++pages);
    assert.ok(pages < 1000, "pagination must terminate");
  } while (cursor);
  return ids;
}

function expectedOrder(fake: FakeOpenCode, ids: Iterable<string>): string[] {
  return [...ids]
    .map((id) => fake.sessions.get(id)!)
    .sort(compareNewestFirst)
    .map((s) => s.id);
}

describe("ordering and cursor encoding", () => {
  test("newest creation first, ties by id descending", () => {
    const keys: SessionKey[] = [
      { createdAt: 1, id: "ses_a" },
      { createdAt: 2, id: "ses_a" },
      { createdAt: 2, id: "ses_b" },
    ];
    assert.deepEqual(
      keys.sort(compareNewestFirst).map((k) => `${k.createdAt}${k.id}`),
      ["2ses_b", "2ses_a", "1ses_a"],
    );
  });

  test("cursor round-trips and is bound to its search", () => {
    const c = { q: "foo", last: { createdAt: 5, id: "ses_x" }, dirs: { t1: "abc", t2: null }, done: ["t3"] };
    assert.deepEqual(decodeListCursor(encodeListCursor(c), "foo"), c);
    assert.throws(
      () => decodeListCursor(encodeListCursor(c), null),
      (e: PatchbayError) => e.status === 400 && e.param === "cursor",
    );
    assert.throws(
      () => decodeListCursor("not-a-cursor", null),
      (e: PatchbayError) => e.status === 400 && e.param === "cursor",
    );
  });

  test("needsMore waits until the page boundary is strictly newer than what a window reached", () => {
    const w = (items: SessionKey[], next: string | null) => ({ cursorUsed: null, items, next });
    const tied: DirFetch<SessionKey> = {
      name: "t",
      windows: [
        w(
          [
            { createdAt: 9, id: "ses_c" },
            { createdAt: 5, id: "ses_b" },
          ],
          "n",
        ),
      ],
    };
    // Two candidates but the second (time 5) equals the window's reach: a tie may hide in the next window.
    assert.equal(needsMore(tied, null, 2), true);
    assert.equal(needsMore(tied, null, 1), false);
    assert.equal(needsMore({ name: "t", windows: [w([], "n")] }, null, 5), false, "an empty window ends the directory");
  });

  test("mergePage interleaves directories and records where each resumes", () => {
    const a: DirFetch<SessionKey> = {
      name: "a",
      windows: [
        {
          cursorUsed: null,
          items: [
            { createdAt: 9, id: "ses_9" },
            { createdAt: 7, id: "ses_7" },
          ],
          next: null,
        },
      ],
    };
    const b: DirFetch<SessionKey> = {
      name: "b",
      windows: [
        {
          cursorUsed: null,
          items: [
            { createdAt: 8, id: "ses_8" },
            { createdAt: 6, id: "ses_6" },
          ],
          next: "cb",
        },
      ],
    };
    const m = mergePage([a, b], null, 3, null, []);
    assert.deepEqual(
      m.page.map((s) => s.id),
      ["ses_9", "ses_8", "ses_7"],
    );
    assert.deepEqual(m.next, { q: null, last: { createdAt: 7, id: "ses_7" }, dirs: { b: null }, done: ["a"] });
  });
});

describe("HistoryService.list across directories (fake OpenCode)", () => {
  for (const tieOrder of ["id-asc", "id-desc"] as const) {
    test(`every session exactly once, in order, with many creation-time ties (OpenCode ties ${tieOrder})`, async () => {
      const fake = new FakeOpenCode();
      fake.tieOrder = tieOrder;
      const dirs = ["t1", "t2", "t3"];
      // 3 sessions per millisecond, spread over three directories: ties everywhere, also across page boundaries.
      for (let i = 0; i < 240; i++) fake.add(`${ROOT}/a/${dirs[i % 3]}`, 1000 + Math.floor(i / 3));
      for (let i = 0; i < 20; i++) fake.add(`${ROOT}/b/t1`, 1000 + i);
      const h = service(fake, { a: dirs, b: ["t1"] });
      for (const limit of [1, 7, 50, 200]) {
        const ids = await listAll(h, "a", limit);
        assert.equal(ids.length, 240, `limit ${limit}`);
        assert.equal(new Set(ids).size, 240);
        assert.deepEqual(ids, expectedOrder(fake, ids), `limit ${limit}: newest first`);
      }
      assert.equal((await listAll(h, "b", 7)).length, 20, "app b sees only its own");
    });
  }

  test("stable while sessions are created and deleted between pages", async () => {
    const fake = new FakeOpenCode();
    for (let i = 0; i < 100; i++) fake.add(`${ROOT}/a/${i % 2 ? "t1" : "t2"}`, 1000 + i);
    const h = service(fake, { a: ["t1", "t2", "t3"] });
    const original = new Set(fake.sessions.keys());
    const deleted = new Set<string>();
    let clock = 5000;
    const ids = await listAll(h, "a", 10, (page) => {
      // New sessions (also in a brand-new tool set) arrive while paging …
      fake.add(`${ROOT}/a/t1`, clock++);
      fake.add(`${ROOT}/a/t3`, clock++);
      // … and one not yet listed session is deleted.
      const victim = [...fake.sessions.values()]
        .filter((s) => original.has(s.id) && !deleted.has(s.id))
        .sort(compareNewestFirst)
        .at(-page);
      if (victim && page % 3 === 0) {
        fake.sessions.delete(victim.id);
        deleted.add(victim.id);
      }
    });
    assert.equal(new Set(ids).size, ids.length, "no duplicates");
    const expected = [...original].filter((id) => !deleted.has(id) || ids.includes(id));
    assert.deepEqual(
      new Set(ids),
      new Set(expected),
      "every original session not deleted before its turn, and no new ones",
    );
    const present = ids.filter((id) => original.has(id));
    assert.deepEqual(present, ids, "sessions created after the first page are not mixed in");
    for (let i = 1; i < ids.length; i++) {
      const prev = { createdAt: 0, id: "", ...fakeKey(fake, ids[i - 1]!) };
      const cur = { createdAt: 0, id: "", ...fakeKey(fake, ids[i]!) };
      if (prev.id && cur.id) assert.ok(compareNewestFirst(prev, cur) < 0, "order");
    }
  });

  test("search filters by title and binds the cursor", async () => {
    const fake = new FakeOpenCode();
    for (let i = 0; i < 30; i++)
      fake.add(`${ROOT}/a/t1`, 1000 + i, { title: i % 3 === 0 ? `invoice ${i}` : `chat ${i}` });
    const h = service(fake, { a: ["t1"] });
    const hits = await listAll(h, "a", 4, undefined, "invoice");
    assert.equal(hits.length, 10);
    const first = await h.list("a", { limit: 4, search: "invoice" });
    await assert.rejects(
      h.list("a", { limit: 4, cursor: first.nextCursor! }),
      (e: PatchbayError) => e.param === "cursor",
    );
  });

  test("search is a literal substring: OpenCode's LIKE wildcards % and _ match only themselves", async () => {
    const fake = new FakeOpenCode();
    const titles = ["50% off", "500 off", "a_b", "axb", "A_B again", "plain"];
    titles.forEach((title, i) => fake.add(`${ROOT}/a/${i % 2 ? "t1" : "t2"}`, 1000 + i, { title }));
    const h = service(fake, { a: ["t1", "t2"] });
    const titlesOf = async (search: string) =>
      (await listAll(h, "a", 1, undefined, search)).map((id) => fake.sessions.get(id)?.title).sort();
    assert.deepEqual(await titlesOf("50%"), ["50% off"]);
    assert.deepEqual(await titlesOf("a_b"), ["A_B again", "a_b"]);
    assert.deepEqual(await titlesOf("%"), ["50% off"]);
    assert.deepEqual(await titlesOf("_"), ["A_B again", "a_b"]);
  });

  test("a deep page costs about one list call per directory", async () => {
    const fake = new FakeOpenCode();
    for (let i = 0; i < 1000; i++) fake.add(`${ROOT}/a/${i % 2 ? "t1" : "t2"}`, 1000 + i);
    const h = service(fake, { a: ["t1", "t2"] });
    let cursor: string | undefined;
    for (let p = 0; p < 15; p++)
      cursor = (await h.list("a", { limit: 50, ...(cursor ? { cursor } : {}) })).nextCursor ?? undefined;
    const before = fake.calls.list;
    await h.list("a", { limit: 50, cursor });
    assert.ok(fake.calls.list - before <= 4, `list calls for page 16: ${fake.calls.list - before}`);
  });

  test("the running flag comes from session status", async () => {
    const fake = new FakeOpenCode();
    const s = fake.add(`${ROOT}/a/t1`, 1);
    fake.add(`${ROOT}/a/t1`, 2);
    fake.busy.add(s.id);
    const page = await service(fake, { a: ["t1"] }).list("a");
    assert.deepEqual(
      page.sessions.map((x) => x.running),
      [false, true],
    );
    assert.equal(page.sessions[0]!.toolSet, "t1");
  });
});

function fakeKey(fake: FakeOpenCode, id: string): SessionKey | undefined {
  const s = fake.sessions.get(id);
  return s ? { createdAt: s.createdAt, id: s.id } : undefined;
}
