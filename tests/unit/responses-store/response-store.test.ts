// ResponseStore: write-once records by id, per-app isolation, listing, pruning by history limits, damaged records,
// a crash mid-write, and a new instance over the same folder (restart).
import { afterEach, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PatchbayError } from "../../../server/core/errors";
import { newResponseId, type StoredResponseRecord } from "../../../server/responses-store/record";
import { ResponseStore } from "../../../server/responses-store/response-store";

const DAY = 86_400_000;
let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-rs-"));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function record(app: string, createdAt: number, text = "hi"): StoredResponseRecord {
  const id = newResponseId(createdAt);
  const key = id.slice(5);
  return {
    v: 2,
    id,
    app,
    createdAt,
    sessionId: "ses_1",
    parent: null,
    input: [{ id: `msg_${key}_in0`, type: "message", role: "user", content: text }],
    inputItems: 1,
    response: {
      id,
      object: "response",
      created_at: Math.floor(createdAt / 1000),
      status: "completed",
      model: "mock/m",
      output: [
        {
          id: `msg_${key}_0`,
          type: "message",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: "ok" }],
        },
      ],
      previous_response_id: null,
      instructions: null,
      usage: null,
      store: true,
    },
  };
}

function code(err: unknown): string {
  return err instanceof PatchbayError ? `${err.status} ${err.code}` : String(err);
}

describe("ResponseStore", () => {
  test("put then get returns the record; ids carry their creation time", async () => {
    const store = new ResponseStore({ dataDir: dir });
    const r = record("a", Date.UTC(2026, 0, 2));
    await store.put(r);
    assert.deepEqual(await store.get("a", r.id), r);
    assert.ok(fs.existsSync(path.join(dir, "responses", "a", r.id.slice(-2), `${r.id}.json`)));
  });

  test("another app's id, an unknown id and a malformed id are 404 naming the id", async () => {
    const store = new ResponseStore({ dataDir: dir });
    const r = record("a", Date.now());
    await store.put(r);
    for (const [app, id] of [
      ["b", r.id],
      ["a", newResponseId(Date.now())],
      ["a", "../../etc/passwd"],
      ["a", "resp_1"],
    ] as const) {
      await assert.rejects(store.get(app, id), (err: unknown) => {
        assert.equal(code(err), "404 response_not_found");
        assert.match((err as Error).message, new RegExp(id.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")));
        return true;
      });
    }
    await assert.rejects(store.delete("b", r.id), (e: unknown) => code(e) === "404 response_not_found");
    assert.ok(await store.get("a", r.id), "the owner's record is untouched");
  });

  test("a huge unknown id is echoed shortened in the 404 message", async () => {
    const store = new ResponseStore({ dataDir: dir });
    const id = `resp_${"x".repeat(100_000)}`;
    await assert.rejects(store.get("a", id), (err: unknown) => {
      assert.equal(code(err), "404 response_not_found");
      assert.ok((err as Error).message.length < 300, `message of ${(err as Error).message.length} characters`);
      return true;
    });
  });

  test("a record copied into another app's folder is still not that app's", async () => {
    const store = new ResponseStore({ dataDir: dir });
    const r = record("a", Date.now());
    await store.put(r);
    const from = store.fileOf("a", r.id) as string;
    const to = store.fileOf("b", r.id) as string;
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(from, to);
    await assert.rejects(store.get("b", r.id), (e: unknown) => code(e) === "404 response_not_found");
  });

  test("a damaged record: a clear 500 for its id, others fine, listed, deletable", async () => {
    const lines: string[] = [];
    const store = new ResponseStore({ dataDir: dir, log: (l) => lines.push(l) });
    const bad = record("a", Date.now() - 10);
    const good = record("a", Date.now());
    await store.put(bad);
    await store.put(good);
    fs.writeFileSync(store.fileOf("a", bad.id) as string, '{"v":1,"id":');
    await assert.rejects(store.get("a", bad.id), (err: unknown) => {
      assert.equal(code(err), "500 storage_error");
      assert.match((err as Error).message, new RegExp(`Stored response '${bad.id}' is damaged`));
      // The API client learns the record's place in the data folder, never the absolute path (issue 21 item 4.6).
      assert.ok(!(err as Error).message.includes(dir), (err as Error).message);
      assert.match((err as Error).message, new RegExp(`responses/a/${bad.id.slice(-2)}/${bad.id}\\.json`));
      return true;
    });
    fs.writeFileSync(store.fileOf("a", bad.id) as string, JSON.stringify({ ...bad, input: "nope" }));
    await assert.rejects(store.get("a", bad.id), (e: unknown) => code(e) === "500 storage_error");
    assert.equal((await store.get("a", good.id)).id, good.id);
    assert.equal(lines.length, 2, "each damaged read is reported in the log");
    await store.delete("a", bad.id);
    await assert.rejects(store.get("a", bad.id), (e: unknown) => code(e) === "404 response_not_found");
  });

  test("a shard folder that vanished after a write is made again: later responses in it are stored (issue 21 item 4.6)", async () => {
    const store = new ResponseStore({ dataDir: dir });
    const first = record("a", Date.now() - 10);
    await store.put(first);
    fs.rmSync(path.dirname(store.fileOf("a", first.id) as string), { recursive: true });
    let next = record("a", Date.now());
    while (next.id.slice(-2) !== first.id.slice(-2)) next = record("a", Date.now());
    await store.put(next);
    assert.equal((await new ResponseStore({ dataDir: dir }).get("a", next.id)).id, next.id);
  });

  test("a deleted app's data key is retired: a late write for it is refused and leaves nothing", async () => {
    const store = new ResponseStore({ dataDir: dir });
    await store.put(record("gone_0123456789ab", Date.now() - 10));
    await store.removeApp("gone_0123456789ab");
    await assert.rejects(store.put(record("gone_0123456789ab", Date.now())), /was deleted/);
    assert.equal(fs.existsSync(path.join(dir, "responses", "gone_0123456789ab")), false);
  });

  test("a crash mid-write leaves no record (the atomic writer's temp file is ignored)", async () => {
    const failing = new ResponseStore({
      dataDir: dir,
      writeFile: async (file) => {
        fs.writeFileSync(`${file}.12345`, '{"half":');
        throw Object.assign(new Error("disk full"), { code: "ENOSPC" });
      },
    });
    const r = record("a", Date.now());
    await assert.rejects(failing.put(r), (err: unknown) => {
      assert.equal(code(err), "500 storage_error");
      assert.match((err as Error).message, /disk is full/);
      return true;
    });
    const fresh = new ResponseStore({ dataDir: dir });
    await assert.rejects(fresh.get("a", r.id), (e: unknown) => code(e) === "404 response_not_found");
    assert.equal(await fresh.count("a"), 0);
  });

  test("a new instance over the same folder (restart) reads, lists and prunes what the old one wrote", async () => {
    const t0 = Date.UTC(2026, 5, 1);
    const first = new ResponseStore({ dataDir: dir });
    const rs = [record("a", t0), record("a", t0 + 1000), record("a", t0 + 2000)];
    for (const r of rs) await first.put(r);
    const second = new ResponseStore({ dataDir: dir });
    assert.deepEqual(await second.get("a", rs[1]!.id), rs[1]);
    const page = await second.list("a", { limit: 2 });
    assert.deepEqual(
      page.ids.map((x) => x.id),
      [rs[2]!.id, rs[1]!.id],
    );
    assert.equal(page.more, true);
    const next = await second.list("a", { limit: 2, before: rs[1]!.id });
    assert.deepEqual(
      next.ids.map((x) => x.id),
      [rs[0]!.id],
    );
    assert.equal(next.more, false);
  });

  test("prune by maxSessions (newest N kept) and maxAgeDays (older than N days go); none without limits", async () => {
    const now = Date.UTC(2026, 5, 10);
    const store = new ResponseStore({ dataDir: dir });
    const old = record("a", now - 10 * DAY);
    const mid = record("a", now - 2 * DAY);
    const recent = record("a", now - 1000);
    const otherApp = record("b", now - 10 * DAY);
    for (const r of [old, mid, recent, otherApp]) await store.put(r);
    assert.deepEqual(await store.overLimits("a", { maxSessions: null, maxAgeDays: null }, now), []);
    const byAge = await store.overLimits("a", { maxSessions: null, maxAgeDays: 5 }, now);
    assert.deepEqual(
      byAge.map((x) => x.id),
      [old.id],
    );
    const both = await store.prune("a", { maxSessions: 1, maxAgeDays: 5 }, now);
    assert.deepEqual(both.removed, [old.id, mid.id], "oldest first");
    await assert.rejects(store.get("a", mid.id), (e: unknown) => code(e) === "404 response_not_found");
    assert.equal((await store.get("a", recent.id)).id, recent.id);
    assert.equal((await store.get("b", otherApp.id)).id, otherApp.id, "another app's responses are not pruned");
  });

  test("a record is readable while its write is in flight; delete waits for the write; flush waits for all", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const store = new ResponseStore({
      dataDir: dir,
      writeFile: async (file, text) => {
        await gate;
        fs.writeFileSync(file, text);
      },
    });
    const r = record("a", Date.now());
    const written = store.put(r);
    assert.deepEqual(await store.get("a", r.id), r, "served from memory before the disk write");
    await assert.rejects(store.get("b", r.id), (e: unknown) => code(e) === "404 response_not_found");
    const flushed = store.flush();
    release();
    await flushed;
    await written;
    assert.ok(fs.existsSync(store.fileOf("a", r.id) as string));
    const second = new ResponseStore({ dataDir: dir });
    assert.deepEqual(await second.get("a", r.id), r);
    await store.delete("a", r.id);
    await assert.rejects(store.get("a", r.id), (e: unknown) => code(e) === "404 response_not_found");
  });

  test("removeApp forgets every response of the app", async () => {
    const store = new ResponseStore({ dataDir: dir });
    const r = record("a", Date.now());
    await store.put(r);
    assert.equal(await store.count("a"), 1);
    await store.removeApp("a");
    assert.equal(await store.count("a"), 0);
    await assert.rejects(store.get("a", r.id), (e: unknown) => code(e) === "404 response_not_found");
  });
});
