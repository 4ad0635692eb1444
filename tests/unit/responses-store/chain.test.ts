// Chains of stored responses (issue 21 item 6): each record holds only its own turn and its parent; the whole
// conversation is rebuilt by a bounded walk; format-1 records (whole input inside) still read and chain; deleting or
// pruning a response folds its items into the responses that continue it; a missing, damaged or looping ancestor is
// a clear `storage_error`, never a crash or a hang.
import { afterEach, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PatchbayError } from "../../../server/core/errors";
import { listStoredResponses, storedResponseDetail } from "../../../server/responses-store/admin-view";
import { MAX_CHAIN_DEPTH, historyBefore } from "../../../server/responses-store/chain";
import { newResponseId, parentInHead, type StoredResponseRecord } from "../../../server/responses-store/record";
import { ResponseStore, responseNotFound } from "../../../server/responses-store/response-store";

const T0 = Date.UTC(2026, 5, 1);
let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-chain-"));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Turn `n` of a chat (`q<n>` asked, `a<n>` answered), continuing `parent`. */
function turn(n: number, parent: StoredResponseRecord | null, app = "a"): StoredResponseRecord {
  const createdAt = T0 + n * 1000;
  const id = newResponseId(createdAt);
  const key = id.slice(5);
  return {
    v: 2,
    id,
    app,
    createdAt,
    sessionId: null,
    parent: parent?.id ?? null,
    input: [{ id: `msg_${key}_in0`, type: "message", role: "user", content: `q${n}` }],
    inputItems: parent ? parent.inputItems + 2 : 1,
    response: {
      id,
      object: "response",
      created_at: Math.floor(createdAt / 1000),
      status: "completed",
      model: "mock/m",
      output: [
        { id: `msg_${key}_0`, type: "message", role: "assistant", content: [{ type: "output_text", text: `a${n}` }] },
      ],
      previous_response_id: parent?.id ?? null,
      instructions: null,
      usage: null,
      store: true,
    },
  };
}

/** A chain of `count` turns, stored. */
async function chain(store: ResponseStore, count: number): Promise<StoredResponseRecord[]> {
  const out: StoredResponseRecord[] = [];
  for (let n = 1; n <= count; n++) {
    const r = turn(n, out.at(-1) ?? null);
    await store.put(r);
    out.push(r);
  }
  return out;
}

/** The texts of items: `q1`, `a1`, … */
function texts(items: ReadonlyArray<Record<string, unknown>>): string[] {
  return items.map((i) =>
    typeof i.content === "string" ? i.content : (i.content as Array<{ text: string }>)[0]!.text,
  );
}

/** The record file as written. */
function onDisk(store: ResponseStore, r: StoredResponseRecord): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(store.fileOf(r.app, r.id) as string, "utf8")) as Record<string, unknown>;
}

/** Bytes of the files of `rs` that exist. */
function bytesOf(store: ResponseStore, rs: StoredResponseRecord[]): number {
  return rs.reduce((n, r) => {
    const file = store.fileOf(r.app, r.id) as string;
    return n + (fs.existsSync(file) ? fs.statSync(file).size : 0);
  }, 0);
}

function code(err: unknown): string {
  return err instanceof PatchbayError ? `${err.status} ${err.code}` : String(err);
}

describe("stored response chains", () => {
  test("each record holds only its own turn; the conversation is rebuilt, also by a fresh instance", async () => {
    const store = new ResponseStore({ dataDir: dir });
    const [r1, r2, r3] = await chain(store, 3);
    assert.deepEqual(texts(onDisk(store, r3!).input as Array<Record<string, unknown>>), ["q3"]);
    assert.equal(onDisk(store, r3!).parent, r2!.id);
    for (const s of [store, new ResponseStore({ dataDir: dir })]) {
      assert.deepEqual(texts(await s.inputOf("a", r3!.id)), ["q1", "a1", "q2", "a2", "q3"]);
      assert.deepEqual(texts(await s.history("a", r3!.id)), ["q1", "a1", "q2", "a2", "q3", "a3"]);
      assert.deepEqual(texts(await s.inputOf("a", r1!.id)), ["q1"]);
    }
    await assert.rejects(store.inputOf("b", r3!.id), (e: unknown) => code(e) === "404 response_not_found");
  });

  test("a record's parent is in its file's first 512 bytes; a head not as written is not guessed", async () => {
    const store = new ResponseStore({ dataDir: dir });
    const [r1, r2] = await chain(store, 2);
    for (const r of [r1!, r2!]) {
      const head = fs.readFileSync(store.fileOf("a", r.id) as string, "utf8").slice(0, 512);
      assert.equal(parentInHead(head, r.id), r.parent);
    }
    assert.equal(parentInHead('{"v":1,"id":"x"', r2!.id), null, "a format-1 record has no parent");
    assert.equal(parentInHead(JSON.stringify({ ...r2, v: 2 }).slice(0, 512), r1!.id), undefined, "another id");
    const { parent, ...rest } = r2!;
    assert.equal(parentInHead(JSON.stringify({ ...rest, parent }).slice(0, 512), r2!.id), undefined, "keys moved");
  });

  test("a format-1 record (whole input inside) reads, lists its input, and a new response continues it", async () => {
    const store = new ResponseStore({ dataDir: dir });
    const v2 = turn(2, null);
    const old = {
      v: 1,
      id: v2.id,
      app: "a",
      createdAt: v2.createdAt,
      sessionId: "ses_old",
      input: [
        { id: "msg_x_in0", type: "message", role: "user", content: "q0" },
        { id: "msg_x_0", type: "message", role: "assistant", content: [{ type: "output_text", text: "a0" }] },
        { id: "msg_x_in1", type: "message", role: "user", content: "q1" },
      ],
      response: {
        ...v2.response,
        output: [{ ...v2.response.output[0]!, content: [{ type: "output_text", text: "a1" }] }],
      },
    };
    const file = store.fileOf("a", old.id) as string;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(old));
    const read = await store.get("a", old.id);
    assert.deepEqual([read.parent, read.inputItems, read.sessionId], [null, 3, "ses_old"]);
    assert.deepEqual(texts(await store.inputOf("a", old.id)), ["q0", "a0", "q1"]);
    const next = { ...turn(3, read), inputItems: 5 };
    await store.put(next);
    const fresh = new ResponseStore({ dataDir: dir });
    assert.deepEqual(texts(await fresh.inputOf("a", next.id)), ["q0", "a0", "q1", "a1", "q3"]);
    assert.equal(JSON.parse(fs.readFileSync(file, "utf8")).v, 1, "an old record is not rewritten by reading it");
  });

  test("deleting a response in the middle: it is gone; later ones keep their conversation; its file is removed", async () => {
    const store = new ResponseStore({ dataDir: dir });
    const [r1, r2, r3, r4] = await chain(store, 4);
    await store.delete("a", r2!.id);
    assert.equal(fs.existsSync(store.fileOf("a", r2!.id) as string), false);
    await assert.rejects(store.get("a", r2!.id), (e: unknown) => code(e) === "404 response_not_found");
    await assert.rejects(store.history("a", r2!.id), (e: unknown) => code(e) === "404 response_not_found");
    // r3 now holds r2's turn and continues r1; the response object still names r2 as previous_response_id.
    assert.deepEqual(
      [onDisk(store, r3!).parent, (await store.get("a", r3!.id)).response.previous_response_id],
      [r1!.id, r2!.id],
    );
    assert.deepEqual(texts(onDisk(store, r3!).input as Array<Record<string, unknown>>), ["q2", "a2", "q3"]);
    for (const s of [store, new ResponseStore({ dataDir: dir })])
      assert.deepEqual(texts(await s.inputOf("a", r4!.id)), ["q1", "a1", "q2", "a2", "q3", "a3", "q4"]);
    await store.delete("a", r1!.id);
    assert.equal(onDisk(store, r3!).parent, null);
    assert.deepEqual(texts(await new ResponseStore({ dataDir: dir }).history("a", r4!.id)).length, 8);
    await assert.rejects(store.delete("a", r1!.id), (e: unknown) => code(e) === "404 response_not_found");
  });

  test("pruning the oldest turns of a live chain removes their files; the kept turns keep their conversation", async () => {
    const store = new ResponseStore({ dataDir: dir });
    const rs = await chain(store, 6);
    const before = texts(await store.inputOf("a", rs[5]!.id));
    const bytesBefore = bytesOf(store, rs);
    // A fresh instance (after a restart) finds each record's parent in its file's first bytes.
    const result = await new ResponseStore({ dataDir: dir }).prune(
      "a",
      { maxSessions: 2, maxAgeDays: null },
      T0 + 10_000,
    );
    assert.deepEqual(
      result.removed,
      rs.slice(0, 4).map((r) => r.id),
    );
    assert.equal(result.failed, 0);
    for (const r of rs.slice(0, 4)) assert.equal(fs.existsSync(store.fileOf("a", r.id) as string), false);
    assert.equal(await store.count("a"), 2);
    const fresh = new ResponseStore({ dataDir: dir });
    assert.deepEqual(texts(await fresh.inputOf("a", rs[5]!.id)), before);
    assert.equal(onDisk(fresh, rs[4]!).parent, null, "the oldest kept turn now holds the pruned ones");
    assert.deepEqual(await fresh.overLimits("a", { maxSessions: 2, maxAgeDays: null }, T0 + 10_000), []);
    // What the kept turns need moved into them; the rest of the pruned files (their response objects) is freed.
    const moved = JSON.stringify(rs.slice(0, 4).flatMap((r) => [...r.input, ...r.response.output])).length;
    const freed = bytesBefore - bytesOf(store, rs);
    const prunedFiles = rs.slice(0, 4).reduce((n, r) => n + JSON.stringify(r).length, 0);
    assert.ok(freed > prunedFiles - moved - 100, `freed ${freed} of ${prunedFiles} bytes, ${moved} moved`);
  });

  test("a response whose parent was deleted while it ran is written whole", async () => {
    const store = new ResponseStore({ dataDir: dir });
    const [r1] = await chain(store, 1);
    const whole = await store.history("a", r1!.id);
    const r2 = turn(2, r1!);
    await store.delete("a", r1!.id);
    await store.put(r2, [...whole, ...r2.input]);
    assert.equal(onDisk(store, r2).parent, null);
    assert.deepEqual(texts(await new ResponseStore({ dataDir: dir }).inputOf("a", r2.id)), ["q1", "a1", "q2"]);
  });

  test("a fold that cannot be written keeps the response being deleted (500), and the chain intact", async () => {
    let failFor: string | null = null;
    const store = new ResponseStore({
      dataDir: dir,
      writeFile: async (file, text) => {
        if (failFor && file.endsWith(`${failFor}.json`)) throw Object.assign(new Error("full"), { code: "ENOSPC" });
        fs.writeFileSync(file, text);
      },
    });
    const [r1, r2] = await chain(store, 2);
    failFor = r2!.id;
    await assert.rejects(store.delete("a", r1!.id), (err: unknown) => {
      assert.equal(code(err), "500 storage_error");
      assert.match((err as Error).message, new RegExp(`'${r2!.id}' still needs it`));
      return true;
    });
    failFor = null;
    assert.equal((await store.get("a", r1!.id)).id, r1!.id);
    assert.deepEqual(texts(await store.inputOf("a", r2!.id)), ["q1", "a1", "q2"]);
    const pruned = await store.prune("a", { maxSessions: 1, maxAgeDays: null }, T0 + 10_000);
    assert.deepEqual(pruned.removed, [r1!.id], "a later prune succeeds");
  });

  test("a missing, damaged or looping ancestor is a clear storage_error naming the response", async () => {
    const store = new ResponseStore({ dataDir: dir, log: () => {} });
    const [r1, r2, r3] = await chain(store, 3);
    const fresh = () => new ResponseStore({ dataDir: dir, log: () => {} });
    fs.unlinkSync(store.fileOf("a", r1!.id) as string);
    for (const call of [() => fresh().inputOf("a", r3!.id), () => fresh().history("a", r3!.id)])
      await assert.rejects(call(), (err: unknown) => {
        assert.equal(code(err), "500 storage_error");
        assert.match((err as Error).message, new RegExp(`stored response '${r3!.id}' cannot be rebuilt`));
        assert.match((err as Error).message, new RegExp(`earlier response '${r1!.id}' it continues is missing`));
        return true;
      });
    fs.writeFileSync(store.fileOf("a", r2!.id) as string, '{"v":2,"id":');
    await assert.rejects(fresh().inputOf("a", r3!.id), (err: unknown) => {
      assert.equal(code(err), "500 storage_error");
      assert.match((err as Error).message, new RegExp(`Stored response '${r2!.id}' is damaged`));
      return true;
    });
    // A hand-made loop: r2 continues r3, which continues r2.
    fs.writeFileSync(store.fileOf("a", r2!.id) as string, JSON.stringify({ ...r2, parent: r3!.id }));
    await assert.rejects(fresh().inputOf("a", r3!.id), /loops back/);
    // The response itself still reads, and deleting it works.
    assert.equal((await fresh().get("a", r3!.id)).id, r3!.id);
    await fresh().delete("a", r3!.id);
  });

  test("the dashboard's view: counts and previews of the whole conversation, a detail with all of it", async () => {
    const store = new ResponseStore({ dataDir: dir });
    const [r1, r2] = await chain(store, 2);
    // A third turn that only sends a tool result: its preview is the last user message before it.
    const r3 = turn(3, r2!);
    r3.input = [{ id: `fco_${r3.id.slice(5)}_in0`, type: "function_call_output", call_id: "c", output: "42" }];
    await store.put(r3);
    const page = await listStoredResponses(store, "a", { limit: 10 });
    assert.deepEqual(
      page.responses.map((r) => [r.preview, r.inputItems, r.previousResponseId]),
      [
        ["q2", 5, r2!.id],
        ["q2", 3, r1!.id],
        ["q1", 1, null],
      ],
    );
    const detail = await storedResponseDetail(store, "a", r3.id);
    assert.deepEqual(texts(detail.input.slice(0, 4)), ["q1", "a1", "q2", "a2"]);
    assert.equal(detail.input.length, 5);
  });

  test(`a chain deeper than ${MAX_CHAIN_DEPTH} is refused without overflowing the stack`, async () => {
    let reads = 0;
    const base = turn(1, null);
    const endless = {
      async get(app: string, id: string) {
        reads++;
        if (app !== "a") throw responseNotFound(id);
        return { ...base, id, parent: `p${reads}` };
      },
    };
    await assert.rejects(historyBefore(endless, "a", { ...turn(1, null), parent: "p" }), (err: unknown) => {
      assert.equal(code(err), "500 storage_error");
      assert.match((err as Error).message, /longer than 10000 responses/);
      return true;
    });
    assert.equal(reads, MAX_CHAIN_DEPTH);
  });
});
