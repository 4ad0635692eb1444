// `patchbay doctor` end to end: the real CLI with the agent CLIs Patchbay's install ships (node_modules/.bin: Claude
// Code, Codex, GitHub Copilot CLI) in a temp HOME, each against doctor's own throwaway Patchbay (demo model, real
// OpenCode); loopback only. No fixture: doctor starts (and stops) its own Patchbay, once per run below.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { DoctorClientResult } from "../../server/doctor/run-doctor";
import { spawn } from "node:child_process";
import { PATCHBAY_BIN, inheritedEnv, runPatchbay, type CliRun } from "../harness/agent-cli";
import { processAlive } from "../harness/opencode-stack";
import { waitFor } from "../harness/wait-for";

describe("patchbay doctor", { timeout: 900_000 }, () => {
  let tmp: string;

  /** `patchbay doctor …` in the temp HOME; only Patchbay's own node_modules/.bin on PATH besides the system's: the
   *  clients checked are the pinned ones. */
  function doctor(args: string[]): Promise<CliRun> {
    const env = inheritedEnv(path.join(tmp, "home"), {}, "/usr/bin:/bin");
    return runPatchbay(path.join(tmp, "data"), ["doctor", ...args], { cwd: tmp, env, timeoutMs: 800_000 });
  }

  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pb-doctor-int-"));
    fs.mkdirSync(path.join(tmp, "home"));
  });
  after(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test("every installed client passes its checks; the passing versions are remembered", async (t) => {
    const r = await doctor(["--json", "--timeout", "240"]);
    t.diagnostic(r.stdout);
    const clients = (JSON.parse(r.stdout) as { clients: DoctorClientResult[] }).clients;
    assert.deepEqual(
      clients.map((c) => c.client),
      ["claude-code", "codex", "copilot"],
    );
    for (const c of clients) {
      assert.ok(c.version, `${c.client} printed a version`);
      // Claude Code and Codex read doctor's PNG with their own file tool and the demo model says it saw the image;
      // Copilot CLI has no image check (and says why).
      const image = c.client === "copilot" ? [] : [["image", true, null]];
      assert.deepEqual(
        c.checks.map((k) => [k.id, k.ok, k.detail]),
        [["plain", true, null], ["tool", true, null], ...image],
        c.client,
      );
      assert.equal(c.image === null, c.client !== "copilot", c.client);
      assert.equal(c.lastPassedVersion, c.version);
    }
    assert.equal(r.code, 0, r.stderr);
    const state = JSON.parse(fs.readFileSync(path.join(tmp, "data", "doctor.json"), "utf8"));
    assert.equal(state.clients.codex.lastPassedVersion, clients[1]!.version);
  });

  test("a broken base URL fails with a readable row and exit code 1", async () => {
    const r = await doctor(["--client", "codex", "--base-url", "http://127.0.0.1:9", "--timeout", "90"]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^Codex\s+\d+\.\d+\.\d+\S*\s+FAILED\s+FAILED\s+FAILED\s+\d+\.\d+\.\d+/m);
    assert.match(
      r.stdout,
      /Failures:\n {2}Codex \S+ plain prompt: nothing answers at http:\/\/127\.0\.0\.1:9 \(ECONNREFUSED\); the client was not run/,
    );
  });

  test("SIGTERM during a check ends the client, stops the throwaway Patchbay and removes its folders (exit 130)", async () => {
    // A stand-in Codex that answers --version and then hangs in its check, as a stuck client would.
    const fake = path.join(tmp, "slow-codex.sh");
    fs.writeFileSync(
      fake,
      '#!/bin/sh\nif [ "$1" = "--version" ]; then echo "codex-cli 0.0.1"; exit 0; fi\necho $$ > "$0.pid"\nexec sleep 300\n',
      {
        mode: 0o755,
      },
    );
    const tmpdir = path.join(tmp, "tmpdir");
    fs.mkdirSync(tmpdir);
    const env = inheritedEnv(path.join(tmp, "home"), { PATCHBAY_CODEX_BIN: fake, TMPDIR: tmpdir }, "/usr/bin:/bin");
    const child = spawn(
      process.execPath,
      [PATCHBAY_BIN, "--data-dir", path.join(tmp, "data"), "doctor", "--client", "codex"],
      {
        env,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    await waitFor("the stand-in client to run its check", () => fs.existsSync(`${fake}.pid`), 120_000);
    const clientPid = Number(fs.readFileSync(`${fake}.pid`, "utf8"));
    assert.ok(processAlive(clientPid));
    child.kill("SIGTERM");
    assert.equal(await exited, 130, stderr);
    assert.match(stderr, /Stopping doctor.*\n.*Doctor stopped; nothing it started is left running\./s);
    await waitFor("the client to be gone", () => !processAlive(clientPid), 10_000);
    // (OpenCode keeps a temp folder of its own, `opencode`, there too; doctor's are `patchbay-doctor-*`.)
    const left = fs.readdirSync(tmpdir).filter((f) => f.startsWith("patchbay-doctor-"));
    assert.deepEqual(left, [], "the throwaway Patchbay's data and the temp homes are removed");
  });
});
