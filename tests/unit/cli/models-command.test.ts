// `patchbay models` (issue 16 item 12): the running Patchbay's models as provider/model ids, and with none a plain
// message naming the login command and --demo. Runs against the real admin app (tests/unit/admin/fakes.ts).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { StartedAdmin } from "../admin/fakes";
import { runCli, startRunningAdmin, type RunningAdmin } from "./running-admin";

describe("patchbay models", () => {
  let running: RunningAdmin;
  let s: StartedAdmin;
  let dir: string;
  before(async () => {
    running = await startRunningAdmin("pb-models-cmd-");
    ({ s, dir } = running);
  });
  after(async () => {
    await running?.close();
  });

  test("lists the models as provider/model ids (table and JSON)", async () => {
    const expected = (await s.fakes.listModels()).map((m) => m.id);
    assert.ok(expected.length > 0);
    const r = await runCli(["--data-dir", dir, "models"]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^MODEL\s+NAME\s+PROVIDER\s+TOOLS/);
    for (const id of expected) assert.ok(r.out.includes(id), `${id} in ${r.out}`);
    const json = await runCli(["--data-dir", dir, "models", "--json"]);
    const ids = (JSON.parse(json.out) as { id: string }[]).map((m) => m.id);
    assert.deepEqual([...ids].sort(), [...expected].sort());
    assert.equal(json.err, "");
  });

  test("with no models: says so with the login command and --demo (JSON: [] and the message on stderr)", async () => {
    const original = s.fakes.listModels;
    s.fakes.listModels = async () => [];
    try {
      const r = await runCli(["--data-dir", dir, "models"]);
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /No models are available/);
      assert.match(r.out, /`opencode auth login`/);
      assert.match(r.out, /restart Patchbay/);
      assert.match(r.out, /`--demo`/);
      const json = await runCli(["--data-dir", dir, "models", "--json"]);
      assert.deepEqual(JSON.parse(json.out), []);
      assert.match(json.err, /opencode auth login/);
    } finally {
      s.fakes.listModels = original;
    }
  });

  test("without a running Patchbay: exit 1 and how to start one", async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "pb-models-none-"));
    try {
      const r = await runCli(["--data-dir", empty, "models"]);
      assert.equal(r.code, 1);
      assert.match(r.err, /Patchbay is not running/);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
