// An app's tool-set directories on disk and the ownership check that keeps one app from reading or deleting another's
// sessions (prefix look-alikes, traversal, the app folder itself, symlinked data dirs).
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createAppDirectories } from "../../../server/history/app-directories";

let tmp: string;
before(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pb-history-dirs-"));
  fs.mkdirSync(path.join(tmp, "data", "apps", "a", "t2"), { recursive: true });
  fs.mkdirSync(path.join(tmp, "data", "apps", "a", "t1"), { recursive: true });
  fs.writeFileSync(path.join(tmp, "data", "apps", "a", "notes.txt"), "not a tool set");
  fs.mkdirSync(path.join(tmp, "data", "apps", "ab", "t1"), { recursive: true });
  fs.symlinkSync(path.join(tmp, "data"), path.join(tmp, "link"));
});
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("createAppDirectories", () => {
  test("lists the app's subfolders only, sorted; a missing app folder is empty", async () => {
    const dirs = createAppDirectories((app) => path.join(tmp, "data", "apps", app));
    assert.deepEqual(await dirs.list("a"), [
      path.join(tmp, "data", "apps", "a", "t1"),
      path.join(tmp, "data", "apps", "a", "t2"),
    ]);
    assert.deepEqual(await dirs.list("nope"), []);
  });

  test("owns only directories strictly inside the app's folder", () => {
    const root = path.join(tmp, "data", "apps");
    const dirs = createAppDirectories((app) => path.join(root, app));
    assert.equal(dirs.owns("a", path.join(root, "a", "t1")), true);
    assert.equal(dirs.owns("a", path.join(root, "ab", "t1")), false, "a prefix look-alike is another app");
    assert.equal(dirs.owns("a", path.join(root, "a")), false, "the app folder itself is not a tool set");
    assert.equal(dirs.owns("a", path.join(root, "a", "..", "ab", "t1")), false, "traversal");
    assert.equal(dirs.owns("a", "/somewhere/else"), false);
  });

  test("sessions recorded under a symlinked data dir still belong to the app", () => {
    const dirs = createAppDirectories((app) => path.join(tmp, "link", "apps", app));
    assert.equal(dirs.owns("a", path.join(tmp, "data", "apps", "a", "t1")), true);
    assert.equal(dirs.owns("a", path.join(tmp, "data", "apps", "ab", "t1")), false);
  });
});
