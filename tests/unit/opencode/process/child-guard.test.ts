// Issue 26 item 2: the child guard, with a stand-in for OpenCode (`sh -c` starting `sleep`s in OpenCode's process
// group). The sh guard (Linux, macOS) and the Node guard (Windows, the fallback) keep one protocol: OpenCode's pid,
// exit code and signal reported; Patchbay's end going away (EOF on stdin / IPC disconnect, also when Patchbay is
// SIGKILLed) stops OpenCode's whole group; SIGTERM escalates to SIGKILL; the pid file (deferred on request) names
// OpenCode while it runs; a SIGKILL of the guard's group leaves no helper behind. POSIX only (process groups).
import assert from "node:assert/strict";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { after, afterEach, describe, test } from "node:test";
import {
  GUARD_NODE,
  GUARD_SH,
  parseGuardLine,
  startGuard,
  type GuardKind,
  type GuardMessage,
} from "../../../../server/opencode/process/guard";
import { PIDFILE_ENV } from "../../../../server/opencode/process/leftover";
import { waitFor } from "../../../harness/wait-for";

const POSIX = process.platform !== "win32";
const tmp = mkdtempSync(path.join(os.tmpdir(), "pb-guard-"));
const groups = new Set<number>();
// Each test's groups are killed as soon as it ends, not at the end of the file: pids wrap quickly on a busy machine
// (pid_max is often 32768), and a stale group id could by then belong to another job's process group.
afterEach(() => {
  for (const g of groups) killGroup(g, "SIGKILL");
  groups.clear();
});
after(() => rmSync(tmp, { recursive: true, force: true }));

/** The stand-in: a shell (the group leader, like OpenCode) with one helper; `tail` runs after the helper started. */
const standIn = (tail = "sleep 60") => ["/bin/sh", "-c", `sleep 60 & ${tail}`];

function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {}
}

/** Live (not zombie) members of process group `pgid`, from POSIX `ps`. */
function groupMembers(pgid: number): number[] {
  const out = execFileSync("ps", ["-A", "-o", "pid=", "-o", "pgid=", "-o", "stat="], { encoding: "utf8" });
  return out
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .filter(([pid, group, stat]) => Number(group) === pgid && !stat?.startsWith("Z") && Number(pid) !== 0)
    .map(([pid]) => Number(pid));
}

interface Started {
  child: ChildProcess;
  messages: GuardMessage[];
  recordPid(): void;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** OpenCode's (the stand-in's) pid, once reported. */
  spawned: Promise<number>;
}

function start(kind: GuardKind, command: string[], extraEnv: Record<string, string> = {}, defer = false): Started {
  const messages: GuardMessage[] = [];
  let onSpawned!: (pid: number) => void;
  const spawned = new Promise<number>((r) => (onSpawned = r));
  const guard = startGuard(command, {
    cwd: tmp,
    env: { ...(process.env as Record<string, string>), ...extraEnv },
    deferPidFile: defer,
    kind,
    onMessage: (msg) => {
      messages.push(msg);
      if (msg.type === "spawned") {
        groups.add(msg.pid);
        onSpawned(msg.pid);
      }
    },
  });
  groups.add(guard.process.pid!);
  guard.process.stdout!.resume();
  guard.process.stderr!.resume();
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    guard.process.on("exit", (code, signal) => r({ code, signal })),
  );
  return { child: guard.process, messages, recordPid: guard.recordPid, exit, spawned };
}

/** Waits for the guard's exit and the report of it (the report may be read just after the exit event). */
async function finished(s: Started): Promise<{ code: number | null; exitMsg: GuardMessage }> {
  const { code } = await s.exit;
  await waitFor("the exit report", () => s.messages.some((m) => m.type === "exit"), 5000);
  return { code, exitMsg: s.messages.find((m) => m.type === "exit")! };
}

describe("child guard", { skip: !POSIX && "process groups are POSIX" }, () => {
  for (const kind of ["sh", "node"] as const) {
    test(`${kind}: reports OpenCode's pid and exit code, exits with it, and SIGKILLs what it left in its group`, async () => {
      const s = start(kind, standIn("exit 3"));
      const pid = await s.spawned;
      const { code, exitMsg } = await finished(s);
      assert.deepEqual(exitMsg, { type: "exit", code: 3, signal: null });
      assert.equal(code, 3);
      await waitFor("OpenCode's group gone", () => groupMembers(pid).length === 0, 5000);
      assert.deepEqual(groupMembers(s.child.pid!), [], "no guard helper left");
    });

    test(`${kind}: a signal that ended OpenCode is reported; the guard exits 1`, async () => {
      const s = start(kind, ["/bin/sh", "-c", "kill -KILL $$"]);
      const { code, exitMsg } = await finished(s);
      assert.deepEqual(exitMsg, { type: "exit", code: null, signal: "SIGKILL" });
      assert.equal(code, 1);
    });

    test(`${kind}: SIGTERM stops OpenCode's whole group, escalating to SIGKILL when it ignores SIGTERM`, async () => {
      const s = start(kind, ["/bin/sh", "-c", "trap '' TERM; sleep 60 & sleep 60"]);
      const pid = await s.spawned;
      await waitFor("the stand-in's helper", () => groupMembers(pid).length >= 2, 5000);
      s.child.kill("SIGTERM");
      const { exitMsg } = await finished(s);
      assert.deepEqual(exitMsg, { type: "exit", code: null, signal: "SIGKILL" });
      await waitFor("OpenCode's group gone", () => groupMembers(pid).length === 0, 5000);
      await waitFor("no guard helper left", () => groupMembers(s.child.pid!).length === 0, 5000);
    });

    test(`${kind}: the pid file names OpenCode while it runs (mode 600), and goes with it`, async () => {
      const pidFile = path.join(tmp, `${kind}-run.pid`);
      const s = start(kind, standIn(), { [PIDFILE_ENV]: pidFile });
      const pid = await s.spawned;
      await waitFor("the pid file", () => existsSync(pidFile) && readFileSync(pidFile, "utf8").length > 0, 5000);
      const record = JSON.parse(readFileSync(pidFile, "utf8")) as Record<string, unknown>;
      assert.equal(record.pid, pid);
      assert.equal(record.guard, s.child.pid);
      assert.equal(record.parent, process.pid);
      assert.equal(typeof record.startedAt, "number");
      assert.equal(statSync(pidFile).mode & 0o777, 0o600);
      s.child.kill("SIGTERM");
      await finished(s);
      assert.equal(existsSync(pidFile), false);
    });

    test(`${kind}: a deferred pid file is written only on record-pid; one naming another pid is left`, async () => {
      const pidFile = path.join(tmp, `${kind}-defer.pid`);
      const current = JSON.stringify({ pid: 424242, guard: 1, parent: 1, startedAt: 0 });
      writeFileSync(pidFile, current);
      const s = start(kind, standIn(), { [PIDFILE_ENV]: pidFile }, true);
      const pid = await s.spawned;
      // The file still names the current OpenCode; record-pid makes this one current.
      assert.equal(readFileSync(pidFile, "utf8"), current);
      s.recordPid();
      await waitFor("the pid file names it", () => readFileSync(pidFile, "utf8").includes(`"pid":${pid},`), 5000);
      writeFileSync(pidFile, current); // a newer OpenCode took over
      s.child.kill("SIGTERM");
      await finished(s);
      assert.equal(readFileSync(pidFile, "utf8"), current, "a pid file naming another OpenCode is not removed");
    });

    test(`${kind}: Patchbay SIGKILLed: its end of the pipe closes and OpenCode's group is stopped`, async () => {
      // A stand-in Patchbay that starts the guard and prints the guard's and OpenCode's pids.
      const script =
        kind === "sh"
          ? `const g = require("node:child_process").spawn("/bin/sh", [${JSON.stringify(GUARD_SH)}, ...JSON.parse(process.argv[1])], { detached: true, stdio: ["pipe", "ignore", "ignore", "pipe"] });
             g.stdio[3].on("data", (d) => process.stdout.write(String(d).replace("spawned", "spawned " + g.pid)));`
          : `const g = require("node:child_process").spawn(process.execPath, [${JSON.stringify(GUARD_NODE)}, ...JSON.parse(process.argv[1])], { detached: true, stdio: ["ignore", "ignore", "ignore", "ipc"] });
             g.on("message", (m) => m.type === "spawned" && process.stdout.write("spawned " + g.pid + " " + m.pid + "\\n"));`;
      const patchbay = spawn(process.execPath, ["-e", script, JSON.stringify(standIn())], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      const line = await new Promise<string>((resolve) =>
        readline.createInterface({ input: patchbay.stdout! }).once("line", resolve),
      );
      const [, guardPid, pid] = line.split(" ").map(Number) as [number, number, number];
      groups.add(guardPid).add(pid);
      await waitFor("the stand-in's helper", () => groupMembers(pid).length >= 2, 5000);
      patchbay.kill("SIGKILL");
      await waitFor("OpenCode's group gone", () => groupMembers(pid).length === 0, 10_000);
      await waitFor("the guard and its helpers gone", () => groupMembers(guardPid).length === 0, 10_000);
    });
  }

  test("sh: Patchbay's SIGKILL of the guard's group leaves no helper behind", async () => {
    const s = start("sh", standIn());
    const pid = await s.spawned;
    await waitFor("the guard's stdin reader", () => groupMembers(s.child.pid!).length >= 2, 5000);
    killGroup(s.child.pid!, "SIGKILL");
    await s.exit;
    await waitFor("the guard's group gone", () => groupMembers(s.child.pid!).length === 0, 5000);
    killGroup(pid, "SIGKILL"); // Patchbay does this on the guard's exit (killOpenCodeGroup)
  });

  test("sh: EOF on stdin alone stops OpenCode (Patchbay closed its end)", async () => {
    const s = start("sh", standIn());
    const pid = await s.spawned;
    s.child.stdin!.end();
    const { exitMsg } = await finished(s);
    assert.deepEqual(exitMsg, { type: "exit", code: null, signal: "SIGTERM" });
    await waitFor("OpenCode's group gone", () => groupMembers(pid).length === 0, 5000);
  });

  test("sh: a missing binary is an error report; a guard not leading its group refuses to run", async () => {
    const missing = start("sh", [path.join(tmp, "no-such-opencode"), "serve"]);
    assert.equal((await missing.exit).code, 127);
    await waitFor("the error report", () => missing.messages.length > 0, 5000);
    assert.deepEqual(missing.messages[0], {
      type: "error",
      code: "ENOENT",
      message: `spawn ${path.join(tmp, "no-such-opencode")} ENOENT`,
    });
    const attached = spawn("/bin/sh", [GUARD_SH, ...standIn()], { stdio: ["pipe", "ignore", "ignore", "pipe"] });
    // Listened for before anything is awaited: the exit can be handled before the report line is read, and a
    // listener added after it would wait on an empty event loop (the test runner then ends the whole process).
    const attachedExit = new Promise<number | null>((r) => attached.on("exit", r));
    const report = await new Promise<string>((resolve) =>
      readline.createInterface({ input: attached.stdio[3] as NodeJS.ReadableStream }).once("line", resolve),
    );
    assert.match(report, /^error EINVAL .*own process group/);
    assert.equal(await attachedExit, 2);
  });
});

test("parseGuardLine: the sh guard's report lines as IPC-shaped messages; anything else is null", () => {
  assert.deepEqual(parseGuardLine("spawned 123"), { type: "spawned", pid: 123 });
  assert.deepEqual(parseGuardLine("exit 0 -"), { type: "exit", code: 0, signal: null });
  assert.deepEqual(parseGuardLine("exit - SIGTERM"), { type: "exit", code: null, signal: "SIGTERM" });
  assert.deepEqual(parseGuardLine("error ENOENT spawn /x/opencode ENOENT"), {
    type: "error",
    code: "ENOENT",
    message: "spawn /x/opencode ENOENT",
  });
  assert.equal(parseGuardLine("spawned abc"), null);
  assert.equal(parseGuardLine("hello"), null);
  assert.equal(parseGuardLine(""), null);
});
