// HistoryService over a fake OpenCode: ownership (404), running sessions (409 / skipped), bounded prune (budget,
// deadline, failures), prune preview, and the message reader's fallback for unreadable messages.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { PatchbayError } from "../../../server/core/errors";
import { HistoryService } from "../../../server/history/history-service";
import { DAY_MS, planPrune } from "../../../server/history/prune-plan";
import { FakeOpenCode, assistantMessage, fakeDirectories, userMessage } from "./fake-opencode";

const ROOT = "/data/apps";
const NOW = Date.UTC(2030, 5, 1);
const LIMIT_50 = { maxSessions: 50, maxAgeDays: null };

function setup(opts: { a?: number; b?: number } = {}) {
  const fake = new FakeOpenCode();
  const a = Array.from({ length: opts.a ?? 0 }, (_, i) =>
    fake.add(`${ROOT}/a/${i % 2 ? "t1" : "t2"}`, NOW - (opts.a! - i) * 1000),
  );
  const b = Array.from({ length: opts.b ?? 0 }, (_, i) => fake.add(`${ROOT}/b/t1`, NOW - (opts.b! - i) * 1000));
  const h = new HistoryService({
    port: fake,
    appsDir: (app) => `${ROOT}/${app}`,
    directories: fakeDirectories(ROOT, { a: ["t1", "t2"], b: ["t1"] }),
    now: () => NOW,
    hasApp: (app) => app === "a" || app === "b",
  });
  return { fake, h, a, b };
}

const isCode = (code: string, status: number) => (e: unknown) =>
  e instanceof PatchbayError && e.code === code && e.status === status;

describe("delete", () => {
  test("deletes the app's sessions, reports running, missing and other apps' as such", async () => {
    const { fake, h, a, b } = setup({ a: 4, b: 1 });
    fake.busy.add(a[1]!.id);
    const r = await h.delete("a", [a[0]!.id, a[1]!.id, b[0]!.id, "ses_unknown", a[0]!.id]);
    assert.deepEqual(r.deleted, [a[0]!.id]);
    assert.deepEqual(r.running, [a[1]!.id]);
    assert.deepEqual(r.missing.sort(), [b[0]!.id, "ses_unknown"].sort());
    assert.ok(fake.sessions.has(b[0]!.id), "another app's session is untouched");
  });

  test("deleteOne: 409 session_running with a clear message, 404 for unknown / other app's, 404 unknown app", async () => {
    const { fake, h, a, b } = setup({ a: 2, b: 1 });
    fake.busy.add(a[0]!.id);
    await assert.rejects(
      h.deleteOne("a", a[0]!.id),
      (e: PatchbayError) => isCode("session_running", 409)(e) && /still running/.test(e.message),
    );
    assert.ok(fake.sessions.has(a[0]!.id));
    await assert.rejects(h.deleteOne("a", b[0]!.id), isCode("session_not_found", 404));
    await assert.rejects(h.deleteOne("a", "ses_nope"), isCode("session_not_found", 404));
    await assert.rejects(h.deleteOne("zzz", a[1]!.id), isCode("app_not_found", 404));
    await h.deleteOne("a", a[1]!.id);
    assert.equal(fake.sessions.has(a[1]!.id), false);
  });
});

describe("prune and preview", () => {
  test("a limit of 50 deletes exactly the oldest of that app only; running ones survive", async () => {
    const { fake, h, a, b } = setup({ a: 300, b: 20 });
    fake.busy.add(a[3]!.id);
    const preview = await h.previewPrune("a", LIMIT_50);
    assert.equal(preview.scanned, 300);
    assert.equal(preview.count, 249);
    assert.equal(preview.skippedRunning, 1);
    assert.equal(preview.oldest, a[0]!.updatedAt);
    assert.equal(preview.newest, a[249]!.updatedAt);
    assert.equal(preview.sample.length, 10);
    assert.equal(preview.sample[0]!.id, a[249]!.id, "sample is newest first");
    assert.equal(fake.calls.delete, 0, "preview deletes nothing");

    const r = await h.prune("a", { limits: LIMIT_50, budget: 1000 });
    assert.deepEqual(
      { removed: r.removed, skippedRunning: r.skippedRunning, remaining: r.remaining, failed: r.failed },
      { removed: 249, skippedRunning: 1, remaining: 0, failed: 0 },
    );
    assert.ok(
      r.scanned >= 300 && r.scanned <= 310,
      `looked at the newest 50 and the oldest 250 (+ stop items): ${r.scanned}`,
    );
    const left = new Set(fake.sessions.keys());
    for (const s of a.slice(250)) assert.ok(left.has(s.id), "newest 50 kept");
    assert.ok(left.has(a[3]!.id), "running session kept");
    for (const s of b) assert.ok(left.has(s.id), "app b untouched");
    assert.equal(left.size, 50 + 1 + 20);
  });

  test("a sweep's cost is bounded: it reads the newest N and about `budget` of the oldest, not everything", async () => {
    const { fake, h } = setup({ a: 5000 });
    const r = await h.prune("a", { limits: LIMIT_50, budget: 100, pauseMs: 0 });
    assert.equal(r.removed, 100);
    assert.ok(r.remaining > 0, "more left");
    assert.ok(r.scanned <= 50 + 2 * 101 + 10, `scanned ${r.scanned}`);
    assert.ok(fake.calls.list <= 8, `list calls ${fake.calls.list}`);
  });

  test("repeated bounded sweeps delete exactly what the full plan says, whatever the limits and ties", async () => {
    for (const [seed, limits] of [
      [1, { maxSessions: 37, maxAgeDays: null }],
      [2, { maxSessions: null, maxAgeDays: 2 }],
      [3, { maxSessions: 120, maxAgeDays: 3 }],
      [4, { maxSessions: 5, maxAgeDays: 1 }],
    ] as const) {
      const fake = new FakeOpenCode();
      fake.tieOrder = seed % 2 ? "id-asc" : "id-desc";
      let x = seed;
      const rnd = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
      for (let i = 0; i < 400; i++) {
        const created = NOW - Math.floor((rnd() * 6 * DAY_MS) / 1000) * 1000; // many ties (whole seconds)
        fake.add(`${ROOT}/a/${rnd() < 0.5 ? "t1" : "t2"}`, created, {
          updatedAt: created + (rnd() < 0.2 ? Math.floor(rnd() * 5 * DAY_MS) : 0),
        });
      }
      for (const s of [...fake.sessions.values()].slice(0, 5)) fake.busy.add(s.id);
      const h = new HistoryService({
        port: fake,
        appsDir: (app) => `${ROOT}/${app}`,
        directories: fakeDirectories(ROOT, { a: ["t1", "t2"] }),
        now: () => NOW,
      });
      const expected = planPrune([...fake.sessions.values()], limits, NOW, fake.busy).toDelete.map((s) => s.id);
      const before = new Set(fake.sessions.keys());
      for (let i = 0; i < 20; i++) {
        const r = await h.prune("a", { limits, budget: 30, pauseMs: 0 });
        if (r.remaining === 0) break;
      }
      const deleted = [...before].filter((id) => !fake.sessions.has(id));
      assert.deepEqual(
        new Set(deleted),
        new Set(expected),
        `seed ${seed}: ${deleted.length} deleted, ${expected.length} planned`,
      );
    }
  });

  test("dry run counts without deleting", async () => {
    const { fake, h } = setup({ a: 60 });
    const r = await h.prune("a", { limits: LIMIT_50, dryRun: true });
    assert.equal(r.dryRun, true);
    assert.equal(r.remaining, 10);
    assert.equal(r.removed, 0);
    assert.equal(fake.calls.delete, 0);
  });

  test("the budget bounds a sweep; the next one continues oldest first", async () => {
    const { fake, h, a } = setup({ a: 200 });
    const first = await h.prune("a", { limits: LIMIT_50, budget: 100, pauseMs: 0 });
    assert.equal(first.removed, 100);
    assert.equal(first.remaining, 50);
    assert.ok(
      !fake.sessions.has(a[0]!.id) && !fake.sessions.has(a[99]!.id) && fake.sessions.has(a[100]!.id),
      "oldest first",
    );
    const second = await h.prune("a", { limits: LIMIT_50, budget: 100, pauseMs: 0 });
    assert.equal(second.removed, 50);
    assert.equal(second.remaining, 0);
    assert.equal(fake.sessions.size, 50);
  });

  test("the deadline stops a sweep early", async () => {
    const { fake, h } = setup({ a: 100 });
    // Every fake call takes 25 ms: listing costs ~4 calls, then ~12 deletions fit in 400 ms. The margins are wide so a
    // loaded CI machine (timers late by tens of ms) still sees "some removed, far from all 99".
    fake.latencyMs = 25;
    const r = await h.prune("a", {
      limits: { maxSessions: 1, maxAgeDays: null },
      budget: 1000,
      deadlineMs: 400,
      concurrency: 1,
      pauseMs: 0,
    });
    assert.ok(r.removed > 0 && r.removed < 40, `removed ${r.removed}`);
    assert.equal(r.remaining, 99 - r.removed);
  });

  test("a session that starts running during the sweep is skipped", async () => {
    const { fake, h, a } = setup({ a: 20 });
    fake.onDelete = (id) => {
      if (id === a[0]!.id) fake.busy.add(a[15]!.id);
    };
    // Status is re-read at most once a second per directory; a[15] is reached ~1.5 s in.
    const r = await h.prune("a", { limits: { maxSessions: 2, maxAgeDays: null }, concurrency: 1, pauseMs: 100 });
    assert.ok(fake.sessions.has(a[15]!.id), "became running: kept");
    assert.equal(r.skippedRunning, 1);
    assert.equal(r.removed, 17);
  });

  test("age limits use session time relative to the service clock", async () => {
    const { fake, h } = setup();
    const old = fake.add(`${ROOT}/a/t1`, NOW - 40 * DAY_MS, { updatedAt: NOW - 31 * DAY_MS });
    const revived = fake.add(`${ROOT}/a/t1`, NOW - 40 * DAY_MS, { updatedAt: NOW - 2 * DAY_MS });
    const r = await h.prune("a", { limits: { maxSessions: null, maxAgeDays: 30 } });
    assert.equal(r.removed, 1);
    assert.ok(!fake.sessions.has(old.id) && fake.sessions.has(revived.id));
  });

  test("with externalRunsWithinMs, recent sessions are kept while their last message says they run elsewhere", async () => {
    const fake = new FakeOpenCode();
    const dir = `${ROOT}/a/t1`;
    const mk = (ageMs: number, messages: ReturnType<typeof userMessage>[]) => fake.add(dir, NOW - ageMs, { messages });
    const unfinished = assistantMessage("msg_a1", "msg_u1", "partial");
    delete (unfinished.info.time as { completed?: number }).completed;
    const cases = {
      answering: mk(60_000, [userMessage("msg_u1", "q"), unfinished]),
      waiting: mk(60_000, [userMessage("msg_u2", "q")]),
      brandNew: mk(1_000, []),
      finished: mk(60_000, [userMessage("msg_u3", "q"), assistantMessage("msg_a3", "msg_u3", "done")]),
      emptyOld: mk(60_000, []),
      oldAndUnfinished: mk(10 * 60_000, [userMessage("msg_u4", "q"), assistantMessage("msg_a4", "msg_u4", "x")]),
    };
    delete (cases.oldAndUnfinished.messages[1]!.info.time as { completed?: number }).completed;
    const keep = fake.add(dir, NOW); // the newest: kept by the limit
    const h = new HistoryService({
      port: fake,
      appsDir: (app) => `${ROOT}/${app}`,
      directories: fakeDirectories(ROOT, { a: ["t1"] }),
      now: () => NOW,
      liveDirectories: () => [],
      externalRunsWithinMs: 5 * 60_000,
    });
    const r = await h.prune("a", { limits: { maxSessions: 1, maxAgeDays: null }, pauseMs: 0 });
    assert.ok(fake.sessions.has(keep.id));
    for (const name of ["answering", "waiting", "brandNew"] as const)
      assert.ok(fake.sessions.has(cases[name].id), `${name} kept`);
    for (const name of ["finished", "emptyOld", "oldAndUnfinished"] as const)
      assert.ok(!fake.sessions.has(cases[name].id), `${name} deleted`);
    assert.equal(r.skippedRunning, 3);
    assert.equal(fake.calls.status, 0, "no live instance: status is never asked");
  });

  test("repeated failures stop the sweep with an error, counted as failed and remaining", async () => {
    const { fake, h } = setup({ a: 60 });
    fake.failDeletes = true;
    const r = await h.prune("a", { limits: LIMIT_50, concurrency: 1, pauseMs: 0 });
    assert.equal(r.failed, 5);
    assert.equal(r.remaining, 10);
    assert.match(r.error ?? "", /connection refused/);
  });
});

describe("messages", () => {
  test("pages back from the newest; 404 for another app's session", async () => {
    const { fake, h, b } = setup({ b: 1 });
    const s = fake.add(`${ROOT}/a/t1`, NOW);
    for (let i = 0; i < 5; i++)
      s.messages.push(userMessage(`msg_u${i}`, `q${i}`), assistantMessage(`msg_a${i}`, `msg_u${i}`, `a${i}`));
    const p1 = await h.messages("a", s.id, { limit: 4 });
    assert.deepEqual(
      p1.messages.map((m) => m.id),
      ["msg_u3", "msg_a3", "msg_u4", "msg_a4"],
    );
    assert.equal(p1.incomplete, null);
    const p2 = await h.messages("a", s.id, { limit: 4, cursor: p1.nextCursor! });
    assert.deepEqual(
      p2.messages.map((m) => m.id),
      ["msg_u1", "msg_a1", "msg_u2", "msg_a2"],
    );
    await assert.rejects(h.messages("a", b[0]!.id), isCode("session_not_found", 404));
  });

  test("falls back to one-by-one reading with a placeholder for a message OpenCode cannot encode", async () => {
    const { fake, h } = setup();
    const s = fake.add(`${ROOT}/a/t1`, NOW);
    s.messages.push(
      userMessage("msg_u0", "structured please"),
      assistantMessage("msg_a0", "msg_u0", '{"ok":true}'),
      assistantMessage("msg_a1", "msg_u0", "second step"),
    );
    s.unreadable.add("msg_u0");
    const p = await h.messages("a", s.id, { limit: 50 });
    assert.deepEqual(
      p.messages.map((m) => m.id),
      ["msg_u0", "msg_a0", "msg_a1"],
    );
    assert.equal(p.messages[0]!.parts[0]!.type, "unreadable");
    assert.equal(p.messages[1]!.parts[0]!.type === "text" && p.messages[1]!.parts[0]!.text, '{"ok":true}');
    assert.match(p.incomplete ?? "", /structured-output/);
    assert.equal(p.nextCursor, null);
    assert.ok(fake.calls.message >= 1, "tried the single-message endpoint for the parent");
  });
});
