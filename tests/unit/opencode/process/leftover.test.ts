// Issue 21 item 4.6: starting `serve` stops an OpenCode left behind by a crashed run, but never one that a running
// Patchbay command (`patchbay sessions` starts its own OpenCode for a moment) still owns. Linux only (/proc).
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import { openCodePidFile, PIDFILE_ENV, stopLeftoverOpenCode } from "../../../../server/opencode/process/leftover";

const tmp = mkdtempSync(path.join(os.tmpdir(), "pb-leftover-"));
const started: ChildProcess[] = [];
after(() => {
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  rmSync(tmp, { recursive: true, force: true });
});

/** A sleeping node process, with the guard's pid-file marker in its environment when `pidFile` is given. */
function sleeper(pidFile?: string): ChildProcess {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], {
    env: pidFile ? { ...process.env, [PIDFILE_ENV]: pidFile } : { ...process.env },
    stdio: "ignore",
  });
  started.push(child);
  return child;
}

function running(c: ChildProcess): boolean {
  return c.exitCode === null && c.signalCode === null;
}

async function exited(c: ChildProcess, ms = 5000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (running(c) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return !running(c);
}

describe("stopLeftoverOpenCode", { skip: !existsSync("/proc") && "needs Linux /proc" }, () => {
  test("an OpenCode whose owning command still runs is left alone; once the owner is gone it is stopped", async () => {
    const dataDir = path.join(tmp, "data");
    const pidFile = openCodePidFile(dataDir);
    mkdirSync(path.dirname(pidFile), { recursive: true });
    const owner = sleeper(); // the `patchbay sessions` process
    const guard = sleeper(pidFile);
    const opencode = sleeper(pidFile);
    await new Promise((r) => setTimeout(r, 200));
    writeFileSync(pidFile, JSON.stringify({ pid: opencode.pid, guard: guard.pid, parent: owner.pid, startedAt: 0 }));
    const lines: string[] = [];

    assert.equal(await stopLeftoverOpenCode(dataDir, (l) => lines.push(l)), null);
    assert.ok(running(opencode), "the running command's OpenCode was not touched");
    assert.ok(existsSync(pidFile), "its pid file stays");
    assert.match(lines.join("\n"), /started by another Patchbay command .* left to finish/);

    owner.kill("SIGKILL");
    assert.ok(await exited(owner));
    assert.equal(await stopLeftoverOpenCode(dataDir, (l) => lines.push(l)), opencode.pid);
    assert.ok(await exited(opencode), "a leftover whose owner is gone is stopped");
  });
});
