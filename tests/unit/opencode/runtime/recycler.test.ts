// The recycler and the request gate with fakes and an injected clock: a recycle waits for the requests in flight,
// holds new ones during the swap and lets them in afterwards; the session pool hands out and deletes its sessions.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Recycler, type RecyclableProcess } from "../../../../server/opencode/runtime/recycler";
import { RequestGate } from "../../../../server/opencode/session/request-gate";
import { SessionPool } from "../../../../server/opencode/session/session-pool";

const MIB = 1024 ** 2;

function fakeProcess(clock: { t: number }) {
  const calls: string[] = [];
  let gen = 1;
  const p: RecyclableProcess & { calls: string[]; pid: () => number } = {
    calls,
    pid: () => gen,
    status: () => ({ state: "ready", pid: gen }),
    readyAt: () => 0,
    recycle: async (reason) => {
      calls.push(reason);
      await new Promise((r) => setTimeout(r, 20));
      gen++;
    },
  };
  void clock;
  return p;
}

/** A Recycler whose OpenCode is always over its limit (2000 of 1024 MiB, no low watermark, no minimum uptime). */
function overLimit(o: Omit<ConstructorParameters<typeof Recycler>[0], "readRss" | "limitBytes" | "lowWatermarkBytes">) {
  return new Recycler({
    readRss: async () => 2000 * MIB,
    limitBytes: () => 1024 * MIB,
    lowWatermarkBytes: () => 0,
    minUptimeMs: 0,
    ...o,
  });
}

describe("RequestGate", () => {
  test("counts, holds new requests until release, reports drained", async () => {
    const gate = new RequestGate({ now: () => 5 });
    const a = await gate.enter();
    assert.equal(gate.inFlight, 1);
    assert.equal(a.held, false);
    gate.hold();
    let admitted = false;
    const b = gate.enter().then((t) => {
      admitted = true;
      return t;
    });
    const drained = gate.drained(1000);
    await new Promise((r) => setTimeout(r, 10));
    assert.equal(admitted, false, "a held request got in");
    a.leave();
    assert.equal(await drained, true);
    gate.release();
    const tb = await b;
    assert.equal(tb.held, true);
    assert.equal(gate.inFlight, 1);
    tb.leave();
    tb.leave(); // idempotent
    assert.equal(gate.inFlight, 0);
    assert.equal(gate.lastActivityAt, 5);
  });
  test("a held request gives up with backend_starting after the hold timeout; drained() times out", async () => {
    const gate = new RequestGate({ holdTimeoutMs: 20 });
    const t = await gate.enter();
    gate.hold();
    await assert.rejects(gate.enter(), (e: unknown) => (e as { code?: string }).code === "backend_starting");
    assert.equal(await gate.drained(10), false);
    t.leave();
  });
});

describe("Recycler", () => {
  test("over the limit and idle: recycles once, records reason and time; under the limit: nothing", async () => {
    const clock = { t: 1_000_000 };
    const proc = fakeProcess(clock);
    const gate = new RequestGate({ now: () => clock.t });
    let rss = 900 * MIB;
    let reads = 0;
    const rec = new Recycler({
      process: proc,
      gate,
      readRss: async () => (reads++, rss),
      limitBytes: () => 1024 * MIB,
      lowWatermarkBytes: () => 600 * MIB,
      now: () => clock.t,
      minUptimeMs: 0,
    });
    await rec.tick();
    assert.deepEqual(proc.calls, []);
    rss = 1100 * MIB;
    clock.t += 30_000;
    await rec.tick();
    assert.equal(reads, 1, "idle: memory is read once a minute, not on every tick");
    clock.t += 30_000;
    await rec.tick();
    assert.equal(reads, 2);
    assert.equal(proc.calls.length, 1);
    assert.match(proc.calls[0]!, /1100 MB over the 1024 MB limit/);
    assert.equal(rec.recycles, 1);
    assert.equal(rec.lastRecycle()?.at, clock.t);
    assert.equal(gate.isHolding, false, "the gate is released after the recycle");
  });

  test("busy over the limit: waits for the grace period, then for a gap (no hold), then holds new ones while the last request finishes", async () => {
    const clock = { t: 0 };
    const proc = fakeProcess(clock);
    const gate = new RequestGate({ now: () => clock.t });
    const rec = new Recycler({
      process: proc,
      gate,
      readRss: async () => 2000 * MIB,
      limitBytes: () => 1024 * MIB,
      lowWatermarkBytes: () => 0,
      now: () => clock.t,
      minUptimeMs: 0,
      busyGraceMs: 30_000,
      drainTimeoutMs: 10, // no gap comes: the hold follows
      maxHoldMs: 60_000,
    });
    const running = await gate.enter();
    await rec.tick(); // over, but busy and within grace
    assert.deepEqual(proc.calls, []);
    clock.t = 30_000;
    const swap = rec.tick();
    await new Promise((r) => setTimeout(r, 2));
    assert.equal(gate.isHolding, false, "held while waiting for a gap");
    await waitUntil(() => gate.isHolding);
    const held = gate.enter();
    assert.deepEqual(proc.calls, [], "recycled before the request in flight finished");
    running.leave();
    await swap;
    assert.equal(proc.calls.length, 1);
    const t = await held;
    assert.equal(t.held, true);
    t.leave();
  });

  test("the replacement starts before requests are held: requests flow during its start-up, the hold covers the swap", async () => {
    const proc = fakeProcess({ t: 0 });
    const gate = new RequestGate();
    let release!: () => void;
    let prepareCalls = 0;
    const rec = overLimit({
      process: proc,
      gate,
      log: () => {},
      prepareSuccessor: () => {
        prepareCalls++;
        return new Promise<boolean>((r) => (release = () => r(true)));
      },
    });
    const swap = rec.tick();
    await new Promise((r) => setTimeout(r, 5));
    assert.equal(prepareCalls, 1);
    assert.equal(gate.isHolding, false, "requests were held while the replacement started");
    const during = await gate.enter();
    assert.equal(during.held, false);
    during.leave();
    release();
    await swap;
    assert.equal(proc.calls.length, 1, "recycled (swapped) once the replacement was ready");
    assert.equal(gate.isHolding, false);
  });

  test("a postponed recycle keeps its ready replacement while memory stays over the limit, discards it once not needed; stop() during the preparation abandons the swap", async () => {
    const clock = { t: 0 };
    const proc = fakeProcess(clock);
    const gate = new RequestGate({ now: () => clock.t });
    let discarded = 0;
    let prepared = 0;
    let rss = 2000 * MIB;
    let release: ((ok: boolean) => void) | null = null;
    const rec = new Recycler({
      process: proc,
      gate,
      readRss: async () => rss,
      limitBytes: () => 1024 * MIB,
      lowWatermarkBytes: () => 0,
      now: () => clock.t,
      minUptimeMs: 0,
      busyGraceMs: 1000,
      drainTimeoutMs: 20,
      maxHoldMs: 10,
      log: () => {},
      prepareSuccessor: () => {
        prepared++;
        return new Promise<boolean>((r) => (release = r));
      },
      discardSuccessor: () => {
        discarded++;
        release?.(false);
      },
    });
    const stuck = await gate.enter();
    await rec.tick(); // over the limit while busy: the grace period starts
    clock.t += 1000;
    const first = rec.tick();
    await new Promise((r) => setTimeout(r, 5));
    release!(true);
    await first;
    assert.deepEqual(proc.calls, [], "recycled although requests were still running");
    assert.equal(discarded, 0, "a postponed recycle discarded its ready replacement (a spare OpenCode each time)");
    assert.equal(gate.isHolding, false);
    await rec.tick(); // still over the limit, within the next grace period: nothing to do yet
    assert.equal(discarded, 0, "the replacement was discarded while memory was still over the limit");
    rss = 500 * MIB; // back under the limit: the kept replacement is not needed any more
    await rec.tick();
    assert.equal(discarded, 1, "a replacement nobody needs was kept");
    stuck.leave();

    rss = 2000 * MIB;
    release = null;
    const second = rec.tick();
    await new Promise((r) => setTimeout(r, 5));
    assert.ok(release, "the next attempt prepares a replacement");
    assert.equal(prepared, 2);
    await rec.stop();
    await second;
    assert.equal(discarded, 2, "stop() did not discard the replacement being prepared");
    assert.deepEqual(proc.calls, [], "swapped during shutdown");
    assert.equal(gate.isHolding, false);
  });

  test("long streams: new requests are not held while the recycle waits for a gap, then held at most maxHoldMs; postponed, nothing fails", async () => {
    const proc = fakeProcess({ t: 0 });
    const gate = new RequestGate({ holdTimeoutMs: 60_000 });
    const events: string[] = [];
    const rec = overLimit({
      process: proc,
      gate,
      busyGraceMs: 0,
      drainTimeoutMs: 60_000, // far longer than this test: only a gap or the hold bound can end the wait
      maxHoldMs: 30,
      log: (line) => events.push(line),
      prepareSuccessor: async () => true,
      discardSuccessor: () => events.push("discarded"),
    });
    const longStream = await gate.enter();
    const attempt = rec.tick().then(() => events.push("attempt over"));
    await new Promise((r) => setTimeout(r, 10));
    assert.equal(gate.isHolding, false, "new requests were held while a long stream ran");
    const during = await gate.enter();
    assert.equal(during.held, false);
    during.leave();
    // The long stream keeps running; a gap comes when a short request ends (in-flight 1 → 0 is not a gap here, the
    // stream still runs), so the wait ends only at the long stream's end or drainTimeoutMs. End it now.
    longStream.leave();
    await attempt;
    assert.equal(proc.calls.length, 1, "swapped in the gap the long stream's end left");
    assert.ok(!events.includes("discarded"));

    // A stream that never ends: the hold after the wait is bounded by maxHoldMs and the recycle is postponed.
    const rec2 = overLimit({
      process: proc,
      gate,
      busyGraceMs: 0,
      drainTimeoutMs: 20,
      maxHoldMs: 30,
      log: (line) => events.push(line),
      prepareSuccessor: async () => true,
    });
    const forever = await gate.enter();
    const attempt2 = rec2.tick().then(() => events.push("attempt 2 over"));
    await waitUntil(() => gate.isHolding);
    // A request arriving during the hold gets in once the hold ends (the gate would 503 only after 60 s).
    const held = gate.enter().then((t) => (events.push("held request admitted"), t));
    await attempt2;
    const ticket = await held;
    assert.equal(ticket.held, true);
    ticket.leave();
    assert.ok(
      events.some((e) => e.includes("recycle postponed")),
      events.join("\n"),
    );
    assert.equal(proc.calls.length, 1, "swapped while a stream still ran");
    assert.equal(gate.isHolding, false);
    forever.leave();
  });

  test("a drain that times out postpones the recycle and releases the hold", async () => {
    const proc = fakeProcess({ t: 0 });
    const gate = new RequestGate();
    const rec = overLimit({
      process: proc,
      gate,
      busyGraceMs: 0,
      drainTimeoutMs: 20,
      maxHoldMs: 10,
      log: () => {},
    });
    const stuck = await gate.enter();
    await rec.tick();
    assert.deepEqual(proc.calls, []);
    assert.equal(gate.isHolding, false);
    stuck.leave();
  });
});

/** Polls `predicate` every millisecond (bounded: 5 s). */
async function waitUntil(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 5000 && !predicate(); i++) await new Promise((r) => setTimeout(r, 1));
  assert.ok(predicate(), "condition not reached within 5 s");
}

describe("SessionPool", () => {
  const perm = [{ permission: "x", pattern: "*", action: "allow" }];
  function counting(opts: Partial<ConstructorParameters<typeof SessionPool>[0]> = {}) {
    let n = 0;
    const deleted: string[] = [];
    const pool = new SessionPool({
      size: 2,
      port: { create: async () => `s${++n}`, delete: async (_d, id) => void deleted.push(id) },
      ...opts,
    });
    return { pool, deleted };
  }

  test("refills per (directory, permission), hands out each id once, deletes the rest on close", async () => {
    const { pool, deleted } = counting();
    assert.equal(pool.begin("/a", perm, {}, true), null, "nothing is ready before the first request ends");
    await pool.end("/a", perm, true);
    assert.equal(pool.size, 2);
    assert.equal(pool.begin("/a", [{ permission: "y" }], {}, true), null, "other permission rules get nothing");
    await pool.end("/a", [{ permission: "y" }], false);
    assert.equal(pool.begin("/a", perm, {}, false), null, "usePooled false never hands one out");
    await pool.end("/a", perm, false);
    assert.equal(pool.begin("/a", perm, {}, true), "s1");
    await pool.end("/a", perm, true);
    assert.deepEqual(pool.ids(), ["s2", "s3"]);
    await pool.close();
    assert.deepEqual(deleted.sort(), ["s2", "s3"]);
    assert.equal(pool.size, 0);
    assert.equal(pool.begin("/a", perm, {}, true), null);
    await pool.end("/a", perm, true);
    assert.equal(pool.size, 0, "no refill after close");
  });

  test("follows demand: a burst of parallel requests is met next time, bounded, and forgotten later", async () => {
    const clock = { t: 0 };
    const { pool, deleted } = counting({ maxPerKey: 5, peakMemoryMs: 1000, now: () => clock.t });
    for (let i = 0; i < 7; i++) pool.begin("/a", perm, {}, true); // 7 at once
    for (let i = 0; i < 7; i++) await pool.end("/a", perm, true);
    assert.equal(pool.size, 5, "the burst's peak (7) bounded by maxPerKey (5)");
    const burst = Array.from({ length: 5 }, () => pool.begin("/a", perm, {}, true));
    assert.ok(
      burst.every((id) => id !== null),
      `every request of the second burst got a ready session: ${burst.join(",")}`,
    );
    for (let i = 0; i < 5; i++) await pool.end("/a", perm, true);
    clock.t = 5000; // the burst is long over
    pool.begin("/a", perm, {}, true);
    await pool.end("/a", perm, true);
    assert.equal(pool.target("/a", perm), 2);
    assert.equal(pool.size, 2, "shrunk back to the base size");
    assert.equal(deleted.length, 2, `the 2 extra ready sessions are deleted: ${deleted.join(",")}`);
  });

  test("maxTotal bounds the sessions held over all tool sets", async () => {
    const { pool } = counting({ maxTotal: 3 });
    for (const d of ["/a", "/b", "/c"]) {
      pool.begin(d, perm, {}, true);
      await pool.end(d, perm, true);
    }
    assert.equal(pool.size, 3);
  });

  test("evicts the least recently used tool set beyond maxKeys, deleting its sessions", async () => {
    const { pool, deleted } = counting({ size: 1, maxKeys: 1 });
    pool.begin("/a", [], {}, true);
    await pool.end("/a", [], true);
    pool.begin("/b", [], {}, true);
    await pool.end("/b", [], true);
    await new Promise((r) => setTimeout(r, 5));
    assert.deepEqual(deleted, ["s1"]);
    assert.deepEqual(pool.ids(), ["s2"]);
  });

  test("never evicts a tool set with requests running (their end() must count against it)", async () => {
    const { pool } = counting({ size: 1, maxKeys: 1 });
    pool.begin("/a", [], {}, true); // still running
    pool.begin("/b", [], {}, true);
    await pool.end("/b", [], true);
    await pool.end("/a", [], true);
    assert.equal(pool.target("/a", []), 1, "the running tool set's entry was evicted");
  });
});
