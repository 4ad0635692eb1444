// Issue 21 item 4.6: with an apps.json that does not parse, the CLI says so after its notice instead of answering
// "No app named …" or "No apps yet" from the empty data it fell back to, and changes nothing.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { main } from "../../../server/cli";
import type { CliIO } from "../../../server/cli/context";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-broken-apps-"));
after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const io: CliIO = {
    out: (t) => void (stdout += t),
    err: (t) => void (stderr += t),
    env: {},
    stdoutIsTTY: false,
    exit: () => {
      throw new Error("exit was not expected here");
    },
    onSignal: () => undefined,
  };
  const code = await main(["node", "patchbay", "--data-dir", dataDir, ...args], io);
  return { code, stdout, stderr };
}

test("app list, app delete, key list and key create name the broken file, never 'No app named' or 'No apps yet'", async () => {
  const broken = '{"version":1,"data":{"apps":[{"name":"demo"'; // cut off mid-write by an editor
  fs.writeFileSync(path.join(dataDir, "apps.json"), broken);
  for (const args of [
    ["app", "list"],
    ["app", "delete", "demo"],
    ["key", "list", "demo"],
    ["key", "create", "demo"],
  ]) {
    const r = await run(args);
    assert.equal(r.code, 1, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, /notice: apps\.json/, `${args.join(" ")} shows the notice`);
    assert.match(r.stderr, /apps\.json is not valid \(see the notice above\)/, args.join(" "));
    assert.doesNotMatch(r.stdout + r.stderr, /No app named|No apps yet/, args.join(" "));
  }
  assert.equal(fs.readFileSync(path.join(dataDir, "apps.json"), "utf8"), broken, "the file is left as it is");
});
