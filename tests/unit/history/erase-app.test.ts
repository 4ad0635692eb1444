// eraseAppSessions over the real history service and a fake OpenCode: every page goes, another app's sessions stay,
// a session that keeps running is left after the wait, and sessions OpenCode refuses to delete are counted as left.
import { test } from "node:test";
import assert from "node:assert/strict";
import { HistoryService } from "../../../server/history";
import { eraseAppSessions } from "../../../server/history/erase-app";
import { FakeOpenCode, fakeDirectories } from "./fake-opencode";

const ROOT = "/data/apps";

function setUp() {
  const fake = new FakeOpenCode();
  const service = new HistoryService({
    port: fake,
    appsDir: (app) => `${ROOT}/${app}`,
    directories: fakeDirectories(ROOT, { a: ["t1", "t2"], b: ["t1"] }),
  });
  return { fake, service };
}

test("every session of the app goes, over several pages; another app's stay", async () => {
  const { fake, service } = setUp();
  for (let i = 0; i < 450; i++) fake.add(`${ROOT}/a/${i % 2 ? "t1" : "t2"}`, 1000 + i);
  const other = fake.add(`${ROOT}/b/t1`, 5000);
  assert.deepEqual(await eraseAppSessions(service, "a"), { deleted: 450, left: 0 });
  assert.deepEqual([...fake.sessions.keys()], [other.id]);
});

test("a session that keeps running is left once the wait is over; the others go", async () => {
  const { fake, service } = setUp();
  const busy = fake.add(`${ROOT}/a/t1`, 1);
  fake.add(`${ROOT}/a/t1`, 2);
  fake.busy.add(busy.id);
  let clock = 0;
  const sleeps: number[] = [];
  const r = await eraseAppSessions(service, "a", {
    waitMs: 1000,
    retryMs: 400,
    now: () => clock,
    sleep: async (ms) => void (sleeps.push(ms), (clock += ms)),
  });
  assert.deepEqual(r, { deleted: 1, left: 1 });
  assert.deepEqual(sleeps, [400, 400, 400], "retried until the wait was over, then gave up");
  assert.ok(fake.sessions.has(busy.id));
});

test("sessions OpenCode refuses to delete are counted as left, without waiting", async () => {
  const { fake, service } = setUp();
  fake.add(`${ROOT}/a/t1`, 1);
  fake.add(`${ROOT}/a/t2`, 2);
  fake.failDeletes = true;
  let slept = false;
  const r = await eraseAppSessions(service, "a", { sleep: async () => void (slept = true) });
  assert.deepEqual(r, { deleted: 0, left: 2 });
  assert.equal(slept, false);
});
