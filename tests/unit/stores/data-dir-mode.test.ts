// Issue 16 item 10: a data folder that existed before the first run (0755 from mkdir) is made private (0700) like one
// Patchbay creates; only the folder itself, only this user's, never the home folder.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { createAppsStore } from "../../../server/stores/apps-store";
import { tightenDataDir } from "../../../server/stores/store-paths";
import { removeDir, tempDir } from "./helpers";

const mode = (p: string) => fs.statSync(p).mode & 0o777;

describe("data folder mode", { skip: process.platform === "win32" && "POSIX modes only" }, () => {
  let root: string;
  before(() => {
    root = tempDir("dirmode");
  });
  after(() => removeDir(root));

  test("a pre-existing 0755 data folder becomes 0700 when the stores open it; its subfolders are left alone", async () => {
    const dir = path.join(root, "existing");
    fs.mkdirSync(path.join(dir, "mine"), { recursive: true });
    fs.chmodSync(dir, 0o755);
    fs.chmodSync(path.join(dir, "mine"), 0o755);
    const apps = await createAppsStore({ dataDir: dir, watch: false });
    assert.equal(mode(dir), 0o700);
    assert.equal(mode(path.join(dir, "mine")), 0o755);
    await apps.close();
  });

  test("the home folder is never changed, even as the data folder", () => {
    const dir = path.join(root, "home");
    fs.mkdirSync(dir);
    fs.chmodSync(dir, 0o755);
    const saved = process.env.HOME;
    process.env.HOME = dir;
    try {
      assert.equal(tightenDataDir(dir), false);
    } finally {
      process.env.HOME = saved;
    }
    assert.equal(mode(dir), 0o755);
  });
});
