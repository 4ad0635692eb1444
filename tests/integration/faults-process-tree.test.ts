// Issue 16 item 2: whatever part of `npm start` dies or is signalled, no OpenCode outlives it. One `npm start --demo`
// (stdin not a terminal) against a data folder holding a leftover "OpenCode" of a crashed run: the leftover is stopped
// at start, a SIGKILLed child guard takes its OpenCode with it (and Patchbay starts exactly one new one), and SIGTERM
// to npm leaves no process behind. Linux only (/proc).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cmdline, isLiveProcess, processesUnder, processGroup } from "../harness/procfs";
import { openCodePidFile, PIDFILE_ENV } from "../../server/opencode/process/leftover";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

let tmp: string;
const started: ChildProcess[] = [];
before(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "pb-ptree-"));
});
after(() => {
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  for (const pid of processesUnder(tmp)) kill(pid, "SIGKILL");
  rmSync(tmp, { recursive: true, force: true });
});

function kill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {}
}

/** `opencode serve` itself (argv[0] is the binary; the guard's command line merely mentions it). */
const opencodes = () =>
  processesUnder(tmp).filter(
    (p) => /opencode(\.exe)? serve /.test(cmdline(p)) && /opencode(\.exe)?$/.test(cmdline(p).split(" ")[0] ?? ""),
  );
/** The child guard (child-guard.sh, or .mjs without /bin/sh): it leads its process group; the sh guard's helper
 *  (its stdin reader, a subshell with the same command line) does not. */
const guards = () => processesUnder(tmp).filter((p) => cmdline(p).includes("child-guard") && processGroup(p) === p);

async function until(what: string, cond: () => boolean, ms: number, log: () => string): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) assert.fail(`${what} not seen within ${ms} ms.\n${log()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test(
  "leftover stopped at start; SIGKILLed guard takes OpenCode along; SIGTERM to npm leaves nothing",
  { skip: !existsSync("/proc") && "needs Linux /proc", timeout: 180_000 },
  async () => {
    const dataDir = path.join(tmp, "data");
    const pidFile = openCodePidFile(dataDir);
    mkdirSync(path.dirname(pidFile), { recursive: true });
    // A crashed run's OpenCode: a process started with the guard's marker, recorded in the pid file.
    const leftover = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)", "opencode-leftover"], {
      cwd: dataDir,
      env: { ...process.env, [PIDFILE_ENV]: pidFile },
      detached: true,
      stdio: "ignore",
    });
    started.push(leftover);
    leftover.unref();
    writeFileSync(pidFile, JSON.stringify({ pid: leftover.pid }));
    // An unrelated process recorded nowhere is never touched.
    const bystander = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)", "bystander"], {
      cwd: dataDir,
      stdio: "ignore",
    });
    started.push(bystander);

    const npm = spawn("npm", ["start", "--", "--demo", "--port", "0", "--data-dir", dataDir], {
      cwd: ROOT,
      env: {
        ...process.env,
        PATCHBAY_HEADLESS: "1",
        PATCHBAY_NO_RENDERER_BUILD: "1",
        HOME: path.join(tmp, "home"),
        XDG_CONFIG_HOME: path.join(tmp, "home", ".config"),
        XDG_DATA_HOME: path.join(tmp, "home", ".local", "share"),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    started.push(npm);
    let out = "";
    npm.stdout!.on("data", (d) => (out += d));
    npm.stderr!.on("data", (d) => (out += d));
    const log = () => `output:\n${out}\nprocesses:\n${processesUnder(tmp).map(cmdline).join("\n")}`;

    await until("the OpenAI API line", () => /^OpenAI API: http:\/\/127\.0\.0\.1:\d+\/v1$/m.test(out), 60_000, log);
    await until("the leftover stopped", () => !isLiveProcess(leftover.pid!), 10_000, log);
    assert.ok(isLiveProcess(bystander.pid!), "a process that is not a recorded OpenCode is left alone");
    await until("one opencode serve", () => opencodes().length === 1 && guards().length === 1, 60_000, log);
    const [first] = opencodes();
    // The leftover's pid file is gone and OpenCode's may not be written yet: a missing file is "not yet", not a failure.
    const pidFileText = () => (existsSync(pidFile) ? readFileSync(pidFile, "utf8") : "");
    await until("the pid file names it", () => pidFileText().includes(`"pid":${first}`), 10_000, log);

    // SIGKILL the guard: its OpenCode must not run on alone, and Patchbay starts exactly one replacement.
    kill(guards()[0]!, "SIGKILL");
    await until("the first OpenCode gone", () => !isLiveProcess(first!), 5_000, log);
    await until("one new opencode serve", () => opencodes().length === 1 && opencodes()[0] !== first, 60_000, log);
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(opencodes().length, 1, `never two OpenCodes on one data folder\n${log()}`);

    // SIGTERM to npm (no terminal): everything goes.
    npm.kill("SIGTERM");
    await until(
      "no process left",
      () => processesUnder(tmp).filter((p) => p !== bystander.pid).length === 0,
      20_000,
      log,
    );
    assert.equal(existsSync(pidFile), false, "the pid file is removed with its OpenCode");
    bystander.kill("SIGKILL");
  },
);
