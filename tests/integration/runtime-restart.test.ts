// No recovery after three failed starts (issue 21 §4 item 2), for real: OpenCode killed during start-up three times
// goes `failed` with the time of its next try, comes back by itself after the backoff, and "Restart OpenCode"
// (retryNow, what the admin API, the dashboard and the tray call) brings it back at once when the next try is far.
// One supervisor (no Patchbay): each start is killed the moment its pid is known, so it can never have been ready.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { OpenCodeStatus } from "../../shared/status";
import { PatchbayError } from "../../server/core/errors";
import { SideChannel } from "../../server/opencode/protocol/side-channel";
import { OpenCodeSupervisor, type OpenCodeSupervisorOptions } from "../../server/opencode/process/supervisor";
import { pidAlive } from "../../server/pid-alive";
import { waitFor } from "../harness/wait-for";

let dataDir: string;
let sideChannel: SideChannel;
let sup: OpenCodeSupervisor;
/** Read by the supervisor at each failure: the test lengthens it for the restart case. */
const failedRetry = { initialMs: 1_000, maxMs: 1_000 };
const killed: number[] = [];
let killsLeft = 0;

before(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-restart-"));
  sideChannel = new SideChannel();
  const opts: OpenCodeSupervisorOptions = {
    dataDir,
    user: { authFile: null, configFile: null },
    sideChannel,
    backoff: { initialMs: 50, maxMs: 100 },
    failedRetry,
    log: (line) => (process.env.PATCHBAY_TEST_VERBOSE ? process.stderr.write(`${line}\n`) : undefined),
  };
  sup = new OpenCodeSupervisor(opts);
  // Kill each start-up the moment its pid is reported (state `starting`/`restarting`, before any health answer).
  sup.onStatus((s: OpenCodeStatus) => {
    if (killsLeft > 0 && s.pid && s.state !== "ready" && !killed.includes(s.pid)) {
      killsLeft--;
      killed.push(s.pid);
      process.kill(s.pid, "SIGKILL");
    }
  });
});
after(async () => {
  await sup?.stop();
  await sideChannel?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("OpenCode killed during start-up three times", () => {
  test("→ failed with the next try's time; requests get a 503 that says so; it comes back by itself", async () => {
    killsLeft = 3;
    await sup.start();
    const failed = sup.status();
    assert.equal(failed.state, "failed");
    assert.match(failed.reason ?? "", /exited during startup 3 times/);
    assert.ok(failed.nextRetryAt && failed.nextRetryAt > Date.now() - 1_000, "a next try is scheduled");
    assert.equal(killed.length, 3);
    await assert.rejects(
      sup.whenReady(0),
      (e: unknown) =>
        e instanceof PatchbayError && e.code === "backend_unavailable" && /tries again in \d+ s/.test(e.message),
    );
    // No kill is left: the scheduled retry starts a healthy OpenCode without anyone asking.
    await waitFor("OpenCode back by itself", () => sup.status().state === "ready", 90_000);
    assert.equal(sup.status().nextRetryAt, undefined);
    assert.ok(pidAlive(sup.status().pid!));
  });

  test("Restart OpenCode brings a failed one back at once when its next try is an hour away", async () => {
    failedRetry.initialMs = failedRetry.maxMs = 3_600_000;
    killsLeft = 3;
    process.kill(sup.status().pid!, "SIGKILL"); // a crash of the running one; its restarts are then killed
    await waitFor("failed again", () => sup.status().state === "failed", 90_000);
    assert.ok((sup.status().nextRetryAt ?? 0) - Date.now() > 3_000_000, "next try about an hour away");
    await sup.retryNow();
    assert.equal(sup.status().state, "ready");
    assert.ok(pidAlive(sup.status().pid!));
  });
});
