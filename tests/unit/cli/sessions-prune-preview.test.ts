// `patchbay sessions prune --dry-run` against a running Patchbay (issue 21 §3.4): a preview of 11 names its 10
// samples plus "… and 1 more", and says how many stored responses the same prune deletes; a prune reports the
// responses it removed. The real admin app with a scripted history behind it (tests/unit/admin/fakes.ts).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { AdminHistory } from "../../../server/history";
import { emptySweepResult, type SessionSummary } from "../../../shared/admin/history";
import { runCli, startRunningAdmin, type RunningAdmin } from "./running-admin";

const APP = "prune-app";

const summary = (i: number): SessionSummary => ({
  id: `ses_${String(i).padStart(3, "0")}`,
  title: `Question ${i}`,
  directory: "/d",
  toolSet: "d",
  createdAt: 1_700_000_000_000 + i,
  updatedAt: 1_700_000_000_000 + i,
  model: null,
  tokens: { input: 0, output: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0 },
  cost: 0,
  running: false,
});

const history = {
  service: {
    previewPrune: async () => ({
      limits: { maxSessions: 1, maxAgeDays: null },
      scanned: 12,
      count: 11,
      skippedRunning: 0,
      oldest: 1_700_000_000_000,
      newest: 1_700_000_000_010,
      sample: Array.from({ length: 10 }, (_, i) => summary(11 - i)),
      responses: 1,
    }),
  },
  runNow: async () => ({ ...emptySweepResult(APP, "manual", 1), scanned: 12, removed: 11, responsesRemoved: 1 }),
} as unknown as AdminHistory;

describe("patchbay sessions prune --dry-run", () => {
  let running: RunningAdmin;
  before(async () => {
    running = await startRunningAdmin("pb-prune-preview-", { history });
    const d = ["--data-dir", running.dir];
    assert.equal((await runCli([...d, "app", "create", APP])).code, 0);
    assert.equal((await runCli([...d, "app", "history", APP, "--max-sessions", "1"])).code, 0);
    // The CLI reads the app from the data folder; the admin app behind runtime.json has its own (fake) apps.
    await running.s.fakes.apps.create(APP, { history: { maxSessions: 1, maxAgeDays: null } });
  });
  after(async () => {
    await running?.close();
  });

  test("lists the 10 samples, then '… and 1 more', and names the stored responses", async () => {
    const r = await runCli(["--data-dir", running.dir, "sessions", "prune", APP, "--dry-run"]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /a prune would delete 11\b/);
    assert.match(r.out, /and 1 stored response\./);
    const lines = r.out.trim().split("\n");
    assert.equal(lines.filter((l) => /^ {2}ses_/.test(l)).length, 10, r.out);
    assert.equal(lines.at(-1), "  … and 1 more", r.out);
  });

  test("a prune says how many stored responses it removed", async () => {
    const r = await runCli(["--data-dir", running.dir, "sessions", "prune", APP]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /removed 11,/);
    assert.match(r.out, /stored responses removed 1\./);
  });
});
