// SessionPool.dropUnder: a deleted app's pooled sessions are deleted and its tool sets forgotten; other apps' pools
// stay; a refill in flight for a dropped tool set deletes what it creates instead of keeping it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { SessionPool } from "../../../../server/opencode/session/session-pool";

/** A port whose sessions are ids in `live`; while `hold`, creates wait for `release()`. */
function fakePort() {
  let n = 0;
  const pending: Array<() => void> = [];
  const fake = {
    live: new Set<string>(),
    hold: false,
    release: () => pending.splice(0).forEach((f) => f()),
    port: {
      create: async (directory: string): Promise<string> => {
        const id = `${directory}#${++n}`;
        if (fake.hold) await new Promise<void>((r) => pending.push(r));
        fake.live.add(id);
        return id;
      },
      delete: async (_directory: string, id: string): Promise<void> => void fake.live.delete(id),
    },
  };
  return fake;
}

test("the sessions under the app's folder go; another app's stay", async () => {
  const fake = fakePort();
  const pool = new SessionPool({ port: fake.port, size: 2 });
  for (const dir of ["/d/apps/gone_1/t1", "/d/apps/gone_1/t2", "/d/apps/kept_2/t1", "/d/apps/gone_10/t1"]) {
    pool.begin(dir, [], {}, true);
    await pool.end(dir, [], true);
  }
  assert.equal(fake.live.size, 8);
  await pool.dropUnder("/d/apps/gone_1");
  assert.deepEqual(
    [...fake.live].sort(),
    ["/d/apps/gone_10/t1#7", "/d/apps/gone_10/t1#8", "/d/apps/kept_2/t1#5", "/d/apps/kept_2/t1#6"],
    "a folder whose name only starts the same is another app",
  );
  assert.equal(pool.size, 4);
  assert.equal(pool.target("/d/apps/gone_1/t1", []), 0, "forgotten");
});

test("a refill in flight when the app goes deletes what it creates", async () => {
  const fake = fakePort();
  const pool = new SessionPool({ port: fake.port, size: 2 });
  pool.begin("/d/apps/x/t1", [], {}, true);
  fake.hold = true;
  const refill = pool.end("/d/apps/x/t1", [], true);
  await pool.dropUnder("/d/apps/x");
  fake.hold = false;
  fake.release();
  await refill;
  assert.equal(fake.live.size, 0);
  assert.equal(pool.size, 0);
});
