// JsonFileStore: defaults, corrupt files set aside, atomic and lossless concurrent writes (in-process and across
// processes), external changes, disk failures.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { PatchbayError } from "../../../server/core/errors";
import { JsonFileStore } from "../../../server/stores/json-file";
import type { AtomicWriter } from "../../../server/stores/json-file-options";
import { waitFor } from "../../harness/wait-for";
import { makeUnwritable, removeDir, tempDir } from "./helpers";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const Schema = z.object({ items: z.array(z.string()), name: z.string().default("x") });
type Data = z.infer<typeof Schema>;

function open(file: string, extra: Partial<Parameters<typeof JsonFileStore.open<Data>>[0]> = {}) {
  return JsonFileStore.open<Data>({
    file,
    schema: Schema,
    version: 1,
    defaults: () => ({ items: [], name: "x" }),
    clock: () => Date.UTC(2026, 0, 2, 3, 4, 5, 6),
    ...extra,
  });
}

describe("JsonFileStore", () => {
  let dir: string;
  before(() => {
    dir = tempDir("jsonfile");
  });
  after(() => removeDir(dir));

  test("missing file: defaults, no notice, nothing written until the first update", async () => {
    const file = path.join(dir, "missing.json");
    const store = await open(file);
    assert.deepEqual(store.get(), { items: [], name: "x" });
    assert.deepEqual(store.notices(), []);
    assert.equal(fs.existsSync(file), false);
    await store.update((d) => void d.items.push("a"));
    const onDisk = JSON.parse(fs.readFileSync(file, "utf8"));
    assert.deepEqual(onDisk, { version: 1, data: { items: ["a"], name: "x" } });
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    await store.close();
  });

  test("file mode is configurable", async () => {
    const file = path.join(dir, "mode.json");
    const store = await open(file, { mode: 0o640 });
    await store.update((d) => void d.items.push("a"));
    assert.equal(fs.statSync(file).mode & 0o777, 0o640);
    await store.close();
  });

  for (const [label, content] of [
    ["invalid JSON", "{ not json"],
    ["invalid content", JSON.stringify({ version: 1, data: { items: "nope" } })],
    ["no envelope", JSON.stringify({ items: [] })],
  ] as const) {
    test(`${label}: kept aside as <file>.corrupt-<time>, defaults, and a notice`, async () => {
      const sub = fs.mkdtempSync(path.join(dir, "corrupt-"));
      const file = path.join(sub, "apps.json");
      fs.writeFileSync(file, content);
      const store = await open(file);
      assert.deepEqual(store.get(), { items: [], name: "x" });
      const backups = fs.readdirSync(sub).filter((n) => n.startsWith("apps.json.corrupt-"));
      assert.deepEqual(backups, ["apps.json.corrupt-2026-01-02T03-04-05.006Z"]);
      assert.equal(fs.readFileSync(path.join(sub, backups[0] as string), "utf8"), content);
      assert.equal(fs.existsSync(file), false);
      const notices = store.notices();
      assert.equal(notices.length, 1);
      assert.match(
        notices[0] as string,
        /apps\.json could not be read .*kept as apps\.json\.corrupt-2026-01-02T03-04-05\.006Z/,
      );
      // The store keeps working and writes a fresh file.
      await store.update((d) => void d.items.push("after"));
      assert.deepEqual(JSON.parse(fs.readFileSync(file, "utf8")).data.items, ["after"]);
      await store.close();
    });
  }

  test("older data gains defaults of new fields through the schema", async () => {
    const file = path.join(dir, "old.json");
    fs.writeFileSync(file, JSON.stringify({ version: 1, data: { items: ["k"] } }));
    const store = await open(file);
    assert.deepEqual(store.get(), { items: ["k"], name: "x" });
    await store.close();
  });

  test("get() data is frozen; a mutator gets a mutable draft", async () => {
    const store = await open(path.join(dir, "frozen.json"));
    await store.update((d) => void d.items.push("a"));
    assert.throws(() => (store.get().items as string[]).push("b"), TypeError);
    await store.close();
  });

  test("many concurrent async writers from two store instances lose nothing", async () => {
    const file = path.join(dir, "concurrent.json");
    const a = await open(file);
    const b = await open(file);
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 40; i++) {
      writes.push(a.update((d) => void d.items.push(`a-${i}`)));
      writes.push(b.update((d) => ({ ...d, items: [...d.items, `b-${i}`] })));
    }
    await Promise.all(writes);
    const items = JSON.parse(fs.readFileSync(file, "utf8")).data.items as string[];
    assert.equal(items.length, 80);
    assert.equal(new Set(items).size, 80);
    await a.close();
    await b.close();
  });

  test("two child processes and this one writing at once lose nothing", async () => {
    const file = path.join(dir, "processes.json");
    const store = await open(file);
    const startAt = Date.now() + 1500;
    const child = (id: string) =>
      new Promise<string>((resolve, reject) => {
        const p = spawn(
          process.execPath,
          ["--import", "tsx", "tests/unit/stores/fixtures/concurrent-writer.ts", file, id, "25", String(startAt)],
          {
            cwd: ROOT,
            stdio: ["ignore", "pipe", "pipe"],
          },
        );
        let out = "";
        p.stdout.on("data", (c: Buffer) => (out += c.toString()));
        p.stderr.on("data", (c: Buffer) => (out += c.toString()));
        const timer = setTimeout(() => p.kill("SIGKILL"), 30_000);
        p.on("error", reject);
        p.on("exit", (code) => {
          clearTimeout(timer);
          if (code === 0) resolve(out);
          else reject(new Error(`writer ${id} exited ${code}: ${out}`));
        });
      });
    const children = [child("p1"), child("p2")];
    await new Promise((r) => setTimeout(r, Math.max(0, startAt - Date.now())));
    const own: Promise<unknown>[] = [];
    for (let i = 0; i < 25; i++) own.push(store.update((d) => void d.items.push(`me-${i}`)));
    await Promise.all([...children, ...own]);
    const items = JSON.parse(fs.readFileSync(file, "utf8")).data.items as string[];
    assert.equal(items.length, 75, `expected 75 items, got ${items.length}`);
    assert.equal(new Set(items).size, 75);
    for (const id of ["p1", "p2", "me"]) assert.ok(items.includes(`${id}-24`), `${id}'s last write is there`);
    // This process sees the final content (it read under the lock for its own writes; a refresh settles it).
    store.refresh();
    assert.equal(store.get().items.length, 75);
    await store.close();
  });

  test("a change by another writer is seen within ~1 s and reported by onChange", async () => {
    const file = path.join(dir, "external.json");
    const writer = await open(file, { watch: false });
    await writer.update((d) => void d.items.push("one"));
    const reader = await open(file);
    const seen: string[][] = [];
    reader.onChange((v) => seen.push([...v.items]));
    assert.deepEqual(reader.get().items, ["one"]);
    await writer.update((d) => void d.items.push("two"));
    await waitFor("reader picked up the change", () => reader.get().items.length === 2, 1500);
    assert.deepEqual(seen.at(-1), ["one", "two"]);
    await writer.close();
    await reader.close();
  });

  test("a change is seen through the throttled mtime check even without a watcher", async () => {
    const file = path.join(dir, "nowatch.json");
    const writer = await open(file, { watch: false });
    await writer.update((d) => void d.items.push("one"));
    const reader = await open(file, { watch: false, recheckMs: 200 });
    reader.get();
    await writer.update((d) => void d.items.push("two"));
    await waitFor("the other instance to see the change", () => reader.get().items.length === 2, 1000);
    await writer.close();
    await reader.close();
  });

  test("a throwing mutator changes nothing and the queue keeps going", async () => {
    const file = path.join(dir, "throwing.json");
    const store = await open(file);
    await store.update((d) => void d.items.push("a"));
    await assert.rejects(
      store.update(() => {
        throw new PatchbayError("app_exists", "exists");
      }),
      (err: unknown) => err instanceof PatchbayError && err.code === "app_exists",
    );
    await store.update((d) => void d.items.push("b"));
    assert.deepEqual(store.get().items, ["a", "b"]);
    await store.close();
  });

  test("a result that fails the schema is refused with invalid_request_error naming the field", async () => {
    const store = await open(path.join(dir, "invalid.json"));
    await assert.rejects(
      store.update((d) => ({ ...d, items: [1 as unknown as string] })),
      (err: unknown) =>
        err instanceof PatchbayError && err.code === "invalid_request_error" && err.param === "items[0]",
    );
    await store.close();
  });

  test("disk full: storage_error with a clear message, previous content and memory intact", async () => {
    const file = path.join(dir, "full.json");
    let fail = false;
    const writer: AtomicWriter = async (f, text, o) => {
      if (fail) throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
      fs.writeFileSync(f, text, { mode: o.mode });
    };
    const store = await open(file, { writeFile: writer });
    await store.update((d) => void d.items.push("kept"));
    const before = fs.readFileSync(file, "utf8");
    fail = true;
    await assert.rejects(
      store.update((d) => void d.items.push("lost")),
      (err: unknown) =>
        err instanceof PatchbayError &&
        err.code === "storage_error" &&
        err.status === 500 &&
        /disk is full \(ENOSPC\)/.test(err.message) &&
        err.message.includes(file),
    );
    assert.equal(fs.readFileSync(file, "utf8"), before);
    assert.deepEqual(store.get().items, ["kept"]);
    await store.close();
  });

  test("unwritable folder: storage_error, previous content intact", async (t) => {
    const sub = fs.mkdtempSync(path.join(dir, "ro-"));
    const file = path.join(sub, "settings.json");
    const store = await open(file, { watch: false });
    await store.update((d) => void d.items.push("kept"));
    const before = fs.readFileSync(file, "utf8");
    const undo = makeUnwritable(sub);
    if (!undo) {
      t.skip("cannot make a folder unwritable here (root without chattr)");
      await store.close();
      return;
    }
    try {
      await assert.rejects(
        store.update((d) => void d.items.push("lost")),
        (err: unknown) =>
          err instanceof PatchbayError && err.code === "storage_error" && err.message.startsWith("Could not"),
      );
      assert.equal(fs.readFileSync(file, "utf8"), before);
      assert.deepEqual(store.get().items, ["kept"]);
      assert.deepEqual(fs.readdirSync(sub), ["settings.json"], "no temp or lock file left behind");
    } finally {
      undo();
    }
    await store.close();
  });
});
