// `npm start` where there is no Electron binary (this machine, CI): build/scripts/start.mjs says in one line why it
// falls back, runs the headless server (real OpenCode, demo upstream), prints both URLs, and on SIGTERM stops with
// no `opencode` process left behind.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { processesUnder } from "../harness/procfs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

let tmp: string;
let child: ChildProcess | null = null;
before(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "pb-start-"));
});
after(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const pid of processesUnder(tmp)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
  rmSync(tmp, { recursive: true, force: true });
});

const isOpencode = (pid: number) => {
  try {
    return (
      /opencode/.test(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0] ?? "") &&
      readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("serve")
    );
  } catch {
    return false;
  }
};

test(
  "npm start without Electron: one-line fallback, headless URLs, clean SIGTERM with no opencode left",
  { skip: !existsSync("/proc") && "needs Linux /proc to find child processes", timeout: 150_000 },
  async () => {
    const dataDir = path.join(tmp, "data");
    child = spawn(
      process.execPath,
      [path.join(ROOT, "build/scripts/start.mjs"), "--port", "0", "--demo", "--data-dir", dataDir],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          // The machine has no Electron binary; make the outcome independent of a developer's display or binary too.
          PATCHBAY_HEADLESS: existsSync(path.join(ROOT, "node_modules/electron/path.txt")) ? "1" : "",
          // Built by `npm test` before the tests; a concurrent vite build here would race other tests.
          PATCHBAY_NO_RENDERER_BUILD: "1",
          HOME: path.join(tmp, "home"),
          XDG_CONFIG_HOME: path.join(tmp, "home", ".config"),
          XDG_DATA_HOME: path.join(tmp, "home", ".local", "share"),
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d) => (stdout += d));
    child.stderr!.on("data", (d) => (stderr += d));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child!.on("exit", (code, signal) => resolve({ code, signal })),
    );
    const waitFor = async (what: string, pred: () => boolean, ms: number) => {
      const end = Date.now() + ms;
      while (!pred()) {
        if (Date.now() > end || child!.exitCode !== null)
          assert.fail(`${what} not seen.\nstdout:\n${stdout}\nstderr:\n${stderr}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };

    await waitFor(
      "both URLs",
      () => /^OpenAI API: http:\/\/127\.0\.0\.1:\d+\/v1$/m.test(stdout) && /^Dashboard: http:\/\/\S+$/m.test(stdout),
      60_000,
    );
    const fallback = stdout.split("\n").filter((l) => l.includes("starting headless server instead"));
    assert.equal(fallback.length, 1, stdout);
    assert.match(
      fallback[0]!,
      /^Patchbay: (Electron binary not installed \(its download failed or was skipped\)|Electron needs Node\.js 22\.12\.0 or later to install \(this is Node\.js \d+\.\d+\.\d+\), so npm skipped it|PATCHBAY_HEADLESS is set) — starting headless server instead\.$/,
    );

    // OpenCode must really be running and ready (so that "none left" below means something).
    await waitFor("an opencode serve child", () => processesUnder(tmp).some(isOpencode), 60_000);
    const apiUrl = /^OpenAI API: (http:\/\/\S+)\/v1$/m.exec(stdout)![1]!;
    let health = "";
    await waitFor(
      "OpenCode ready in /healthz",
      () => {
        void fetch(`${apiUrl}/healthz`)
          .then((r) => r.text())
          .then((t) => (health = t))
          .catch(() => {});
        return /"ready"/.test(health);
      },
      60_000,
    );

    child.kill("SIGTERM");
    const result = await Promise.race([
      exited,
      new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 30_000).unref()),
    ]);
    if (result === "timeout") assert.fail(`start.mjs did not exit after SIGTERM.\nstderr:\n${stderr}`);
    assert.ok(result.code === 0 || result.signal === "SIGTERM", `exit ${JSON.stringify(result)}\nstderr:\n${stderr}`);

    const deadline = Date.now() + 10_000;
    while (processesUnder(tmp).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    const left = processesUnder(tmp).map(
      (pid) => `${pid}: ${readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ")}`,
    );
    assert.deepEqual(left, [], "processes left behind");
  },
);
