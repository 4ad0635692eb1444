// Issue 21 item 4.6: a write killed with SIGKILL midway leaves write-file-atomic's temp file behind; the next start
// (and the response store's scan) removes such files once no live writer can own them, and never touches anything else.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { after, test } from "node:test";
import { removeStaleTemps, STALE_TEMP_MS } from "../../../server/stores/stale-temps";
import { removeDir, tempDir } from "./helpers";

const dir = tempDir("stale-temps");
after(() => removeDir(dir));

test("temp files of a writer killed with SIGKILL are removed once stale; the files and fresh temps stay", async () => {
  const target = path.join(dir, "apps.json");
  fs.writeFileSync(target, '{"version":1,"data":{"apps":[]}}\n');
  // A writer that rewrites apps.json atomically (fsync: slow enough to be caught mid-write) until killed.
  const writer = spawn(
    process.execPath,
    [
      "-e",
      `const w = require("write-file-atomic"); const big = "x".repeat(4 << 20);
       (async () => { for (;;) await w(${JSON.stringify(target)}, big, { fsync: true }); })();`,
    ],
    { cwd: process.cwd(), stdio: "ignore" },
  );
  const temps = () => fs.readdirSync(dir).filter((n) => /^apps\.json\.\d+$/.test(n));
  const deadline = Date.now() + 10_000;
  while (temps().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 1));
  writer.kill("SIGKILL");
  await new Promise((r) => writer.once("exit", r));
  const left = temps();
  assert.ok(left.length > 0, "the killed writer left a temp file (else the test proves nothing)");

  const fresh = path.join(dir, "keys.json.123");
  fs.writeFileSync(fresh, "");
  const other = path.join(dir, "notes.txt.1");
  fs.writeFileSync(other, "mine");
  const later = Date.now() + STALE_TEMP_MS + 1000;
  fs.utimesSync(fresh, new Date(later), new Date(later)); // written "just now" at that time

  assert.deepEqual((await removeStaleTemps(dir, later)).sort(), left.sort());
  assert.deepEqual(temps(), []);
  assert.ok(fs.existsSync(target) && fs.existsSync(fresh) && fs.existsSync(other));
  assert.deepEqual(await removeStaleTemps(dir, Date.now()), [], "nothing younger than the margin is removed");
});
