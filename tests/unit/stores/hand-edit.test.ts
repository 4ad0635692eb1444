// Hand edits of apps.json/keys.json while Patchbay runs (issue 16, item 1): a file that is briefly invalid is
// re-read once it settles; one that stays invalid leaves the last good state in force and the file untouched.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { PatchbayError } from "../../../server/core/errors";
import { createAppsStore } from "../../../server/stores/apps-store";
import { createKeysStore } from "../../../server/stores/keys-store";
import { waitFor } from "../../harness/wait-for";
import { removeDir, tempDir } from "./helpers";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** apps.json content with these app names (ids and times fixed). */
function appsFile(names: string[]): string {
  const apps = names.map((name, i) => ({ id: `00000000-0000-4000-8000-00000000000${i}`, name, createdAt: 1 }));
  return `${JSON.stringify({ version: 1, data: { apps } }, null, 2)}\n`;
}

function corruptFiles(dir: string): string[] {
  return fs.readdirSync(dir).filter((n) => n.includes(".corrupt-"));
}

describe("hand edits of the store files while Patchbay runs", () => {
  let root: string;
  before(() => {
    root = tempDir("hand-edit");
  });
  after(() => removeDir(root));

  test("invalid then valid within 50 ms: apps intact, the valid edit applied, nothing set aside", async () => {
    const dir = fs.mkdtempSync(path.join(root, "twostep-"));
    const apps = await createAppsStore({ dataDir: dir });
    await apps.create("alpha");
    await apps.create("beta");
    const file = path.join(dir, "apps.json");
    const edited = appsFile(["alpha", "beta", "gamma"]);
    fs.writeFileSync(file, "{ half written");
    apps.refresh(); // as if the watcher fired between the two steps
    await sleep(50);
    fs.writeFileSync(file, edited);
    await waitFor("the valid edit to apply", () => apps.list().length === 3, 3000);
    await sleep(600); // longer than the settle time: a late re-check must not undo anything
    apps.refresh();
    assert.deepEqual(
      apps.list().map((a) => a.name),
      ["alpha", "beta", "gamma"],
    );
    assert.equal(fs.readFileSync(file, "utf8"), edited, "the edit is on disk as written");
    assert.deepEqual(corruptFiles(dir), []);
    assert.deepEqual(apps.notices(), []);
    await apps.close();
  });

  test("stays invalid: last good state served, file untouched, notice reported; fixing it clears the notice", async () => {
    const dir = fs.mkdtempSync(path.join(root, "stays-"));
    const told: string[] = [];
    const apps = await createAppsStore({ dataDir: dir, onNotice: (m) => told.push(m) });
    await apps.create("alpha");
    const file = path.join(dir, "apps.json");
    fs.writeFileSync(file, "{ broken for good");
    apps.refresh();
    await waitFor("the notice", () => apps.notices().length === 1, 3000);
    assert.match(apps.notices()[0] as string, /apps\.json on disk is not valid .*last good version/);
    assert.equal(told.length, 1, "the notice is told once (the server logs it)");
    assert.deepEqual(
      apps.list().map((a) => a.name),
      ["alpha"],
    );
    // A write while the file is invalid is refused; the file stays exactly as the user left it.
    await assert.rejects(
      apps.create("beta"),
      (err: unknown) => err instanceof PatchbayError && err.code === "storage_error" && /not valid/.test(err.message),
    );
    assert.equal(fs.readFileSync(file, "utf8"), "{ broken for good");
    assert.deepEqual(corruptFiles(dir), []);
    assert.deepEqual(
      apps.list().map((a) => a.name),
      ["alpha"],
    );

    fs.writeFileSync(file, appsFile(["alpha", "fixed"]));
    apps.refresh();
    await waitFor("the fixed file to apply", () => apps.list().length === 2, 3000);
    assert.deepEqual(apps.notices(), []);
    await apps.create("beta");
    assert.deepEqual(
      apps.list().map((a) => a.name),
      ["alpha", "fixed", "beta"],
    );
    await apps.close();
  });

  test("key create while keys.json is invalid: refused, no key lost, file untouched; works once fixed", async () => {
    const dir = fs.mkdtempSync(path.join(root, "keys-"));
    const apps = await createAppsStore({ dataDir: dir });
    await apps.create("alpha");
    const keys = await createKeysStore({ dataDir: dir, apps });
    const first = await keys.create("alpha", "first");
    const file = path.join(dir, "keys.json");
    const good = fs.readFileSync(file, "utf8");
    fs.writeFileSync(file, good.slice(0, 40));
    await assert.rejects(keys.create("alpha", "second"), (err: unknown) => err instanceof PatchbayError);
    assert.equal(fs.readFileSync(file, "utf8"), good.slice(0, 40), "never replaced by a file holding only the new key");
    assert.deepEqual(corruptFiles(dir), []);
    assert.deepEqual(keys.verify(first.key), { app: "alpha", prefix: first.prefix }, "the last good keys still work");

    fs.writeFileSync(file, good);
    const second = await keys.create("alpha", "second");
    const stored = JSON.parse(fs.readFileSync(file, "utf8")) as { data: { keys: { prefix: string }[] } };
    assert.deepEqual(
      stored.data.keys.map((k) => k.prefix),
      [first.prefix, second.prefix],
    );
    await keys.close();
    await apps.close();
  });

  test("the CLI's stores (onInvalid: keep) never move an invalid file a running server may hold", async () => {
    const dir = fs.mkdtempSync(path.join(root, "cli-"));
    const file = path.join(dir, "apps.json");
    fs.writeFileSync(file, "{ broken");
    const apps = await createAppsStore({ dataDir: dir, watch: false, onInvalid: "keep" });
    assert.equal(apps.notices().length, 1);
    await assert.rejects(apps.create("x"), (err: unknown) => err instanceof PatchbayError);
    assert.equal(fs.readFileSync(file, "utf8"), "{ broken");
    assert.deepEqual(corruptFiles(dir), []);
    await apps.close();
  });
});
