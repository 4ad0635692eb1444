// `patchbay … | head`: a reader that goes away before the CLI writes is not the command's failure. The parent closes
// its end of the child's stdout at once, so every write the CLI makes meets a closed pipe (EPIPE), the case where
// Node used to print a stack and exit 1. The command still does its work and exits 0. Output to a full device
// (ENOSPC) is one line on stderr and exit 1.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BIN = path.join(ROOT, "bin", "patchbay.mjs");

/** Runs the CLI with its stdout's reader already gone; resolves with the exit code and stderr. */
function cliIntoClosedPipe(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

test("--help into a closed pipe exits 0 without a stack", async () => {
  const r = await cliIntoClosedPipe(["--help"], process.env);
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /EPIPE|Error/);
});

test("app create into a closed pipe still creates the app", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-pipe-"));
  const env = { ...process.env, PATCHBAY_DATA_DIR: dataDir };
  try {
    const r = await cliIntoClosedPipe(["app", "create", "piped"], env);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /EPIPE/);
    const apps = fs.readFileSync(path.join(dataDir, "apps.json"), "utf8");
    assert.match(apps, /"piped"/);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test("output that cannot be written (a full device) is one line on stderr and exit 1, not a stack", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-full-"));
  try {
    const full = fs.openSync("/dev/full", "w");
    const r = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, "--help"], {
        cwd: ROOT,
        env: { ...process.env, PATCHBAY_DATA_DIR: dataDir },
        stdio: ["ignore", full, "pipe"],
      });
      let stderr = "";
      child.stderr?.on("data", (c: Buffer) => (stderr += c.toString()));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stderr }));
    });
    fs.closeSync(full);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, "patchbay: cannot write to stdout (ENOSPC).\n");
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
