// One Patchbay per data folder (issue 16 item 3): the instance lock refuses a second holder with where the first
// runs, and a crashed holder's lock is taken over once stale.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { PatchbayError } from "../../../server/core/errors";
import { acquireInstanceLock } from "../../../server/instance-lock";
import { removeDir, tempDir } from "./helpers";

describe("instance lock", () => {
  let dir: string;
  before(() => {
    dir = tempDir("instance-lock");
  });
  after(() => removeDir(dir));

  test("a second holder is refused at once with the first's pid and URLs; free again after release", async () => {
    const release = await acquireInstanceLock(dir);
    // The first instance published where it runs (another live process: our parent stands in for it).
    fs.writeFileSync(
      path.join(dir, "runtime.json"),
      JSON.stringify({ pid: process.ppid, adminUrl: "http://127.0.0.1:1234", openaiUrl: "http://127.0.0.1:4747/v1" }),
    );
    const t0 = Date.now();
    await assert.rejects(acquireInstanceLock(dir), (err: unknown) => {
      assert.ok(err instanceof PatchbayError);
      assert.equal(err.code, "conflict");
      assert.match(err.message, /Another Patchbay is already running on the data folder/);
      assert.match(err.message, new RegExp(`pid ${process.ppid}, OpenAI API http://127\\.0\\.0\\.1:4747/v1`));
      return true;
    });
    assert.ok(Date.now() - t0 < 2000, "no waiting when the holder is known and alive");
    await release();
    const again = await acquireInstanceLock(dir);
    await again();
    fs.rmSync(path.join(dir, "runtime.json"));
  });

  test("a lock left by a crashed Patchbay (not refreshed) is taken over", async () => {
    const lockDir = path.join(dir, "patchbay.lock");
    fs.mkdirSync(lockDir);
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lockDir, old, old);
    const release = await acquireInstanceLock(dir);
    await release();
  });
});
