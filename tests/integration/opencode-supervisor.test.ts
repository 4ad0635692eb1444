// The supervisor for real: start/ready/version, crash → restarting → ready, missing binary → failed, clean stop,
// no orphan when Patchbay is SIGKILLed, and a request in flight when OpenCode dies ends with an error.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import type { OpenCodeState } from "../../shared/status";
import { PatchbayError } from "../../server/core/errors";
import { SideChannel } from "../../server/opencode/protocol/side-channel";
import { OpenCodeSupervisor } from "../../server/opencode/process/supervisor";
import {
  backendRequest,
  neutralRequest,
  processAlive,
  runStream,
  startBridgeStack,
  waitFor,
  type BridgeStack,
} from "../harness/opencode-stack";

let stack: BridgeStack;

describe("OpenCode supervisor (real opencode serve)", () => {
  before(async () => {
    stack = await startBridgeStack({ supervisor: { backoff: { initialMs: 200, maxMs: 2000 } } });
  });
  after(async () => {
    await stack?.stop();
  });

  test("starts, reports ready with version, URL and pid", (t) => {
    const s = stack.supervisor.status();
    assert.equal(s.state, "ready");
    assert.equal(s.version, "1.18.33");
    assert.match(s.url ?? "", /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(s.pid && processAlive(s.pid));
    t.diagnostic(`opencode startup to ready: ${stack.startupMs} ms`);
  });

  test("the server requires the password: a request without it is refused", async () => {
    const res = await fetch(new URL("/global/health", stack.supervisor.status().url!));
    assert.equal(res.status, 401);
    const ok = await stack.supervisor.client().global.health();
    assert.equal(ok.data?.healthy, true);
  });

  test("the generated home: isolated dirs, pre-seeded config dir, plugin copy, bridge agent", () => {
    const root = path.join(stack.dataDir, "opencode");
    const configDir = path.join(root, "config", "opencode");
    const config = JSON.parse(fs.readFileSync(path.join(configDir, "opencode.json"), "utf8")) as Record<
      string,
      unknown
    >;
    assert.equal(config.autoupdate, false);
    assert.deepEqual(config.disabled_providers, ["opencode"]);
    // The user's provider, and Patchbay's hidden warm-up model (prime-instance.ts).
    assert.deepEqual(Object.keys(config.provider as object), ["mock", "patchbay-warm-up"]);
    assert.ok(fs.existsSync(path.join(configDir, "package-lock.json")));
    assert.ok(fs.statSync(path.join(configDir, "node_modules")).isDirectory());
    const plugin = (config.plugin as string[])[0]!;
    assert.ok(fs.existsSync(new URL(plugin)), "the plugin copy exists");
    assert.deepEqual((config.agent as Record<string, { permission: unknown }>).bridge!.permission, {
      "*": "deny",
      patchbay_client_tool: "ask",
    });
  });

  test("kill -9 of the child → restarting → ready again, and requests work afterwards", async () => {
    const before = stack.supervisor.status();
    const seen: OpenCodeState[] = [];
    const off = stack.supervisor.onStatus((s) => seen.push(s.state));
    process.kill(before.pid!, "SIGKILL");
    await waitFor("restarting", () => seen.includes("restarting"), 5000);
    await waitFor("ready again", () => stack.supervisor.status().state === "ready", 30_000);
    off();
    const after = stack.supervisor.status();
    assert.notEqual(after.pid, before.pid);
    assert.equal(after.restarts, before.restarts + 1);
    stack.mock.reset();
    stack.mock.script({ text: "back" });
    const r = await runStream(stack.backend, backendRequest(neutralRequest()));
    assert.equal(r.text, "back", `after the restart: ${JSON.stringify(r.error)}`);
  });

  test("OpenCode dying mid-request ends the stream with an error (not the stream's timeout)", async () => {
    stack.mock.reset();
    stack.mock.script({ text: "streaming forever", chunks: 2, hold: true });
    let killedAt = 0;
    let errorAt = 0;
    const pid = stack.supervisor.status().pid!;
    const r = await runStream(stack.backend, backendRequest(neutralRequest()), {
      onEvent: (e) => {
        if (e.type === "text-delta" && !killedAt) {
          killedAt = Date.now();
          process.kill(pid, "SIGKILL");
        }
        if (e.type === "error") errorAt = Date.now();
      },
    });
    assert.ok(killedAt > 0);
    // runStream's own bound would end it as an abort; backend_unavailable after the kill is the crash seen.
    assert.equal(r.error?.code, "backend_unavailable");
    assert.ok(errorAt >= killedAt, "the error came before the crash");
    stack.mock.release();
    await waitFor("ready after the crash", () => stack.supervisor.status().state === "ready", 30_000);
  });

  test("whenReady throws backend_starting while starting and backend_unavailable when stopped", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-sup-"));
    const sc = new SideChannel();
    const sup = new OpenCodeSupervisor({
      dataDir,
      user: { authFile: null, configFile: null },
      sideChannel: sc,
      log: () => {},
    });
    await assert.rejects(
      sup.whenReady(10),
      (e: unknown) => e instanceof PatchbayError && e.code === "backend_unavailable",
    );
    const started = sup.start();
    await assert.rejects(
      sup.whenReady(10),
      (e: unknown) =>
        e instanceof PatchbayError && e.code === "backend_starting" && e.status === 503 && e.retryAfter !== undefined,
    );
    await started;
    await sup.whenReady(10);
    const pid = sup.status().pid!;
    await sup.stop();
    assert.equal(sup.status().state, "stopped");
    assert.equal(processAlive(pid), false, "stop leaves no process");
    await sc.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test("a missing binary → failed with a clear reason, quickly, without throwing", { timeout: 60_000 }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-sup-"));
    const sc = new SideChannel();
    const sup = new OpenCodeSupervisor({
      dataDir,
      user: { authFile: null, configFile: null },
      sideChannel: sc,
      binaryPath: path.join(dataDir, "nope", "opencode"),
      // "Quickly" by construction, not by stopwatch: start() must settle long before any timeout could end it.
      startupTimeoutMs: 3_600_000,
      log: () => {},
    });
    await sup.start();
    assert.equal(sup.status().state, "failed");
    assert.match(sup.status().reason ?? "", /not found at .*nope/);
    await assert.rejects(
      sup.whenReady(100),
      (e: unknown) => e instanceof PatchbayError && e.code === "backend_unavailable" && /not found/.test(e.message),
    );
    await sup.stop();
    await sc.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test("a binary that exits at startup → failed after a few attempts, with its output in the reason", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-sup-"));
    const fake = path.join(dataDir, "fake-opencode");
    fs.writeFileSync(fake, "#!/bin/sh\necho 'fatal: broken install' >&2\nexit 3\n", { mode: 0o755 });
    const sc = new SideChannel();
    const sup = new OpenCodeSupervisor({
      dataDir,
      user: { authFile: null, configFile: null },
      sideChannel: sc,
      binaryPath: fake,
      backoff: { initialMs: 50, maxMs: 100 },
      log: () => {},
    });
    await sup.start();
    assert.equal(sup.status().state, "failed");
    assert.match(sup.status().reason ?? "", /3 times.*exit code 3.*broken install/);
    await sup.stop();
    await sc.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test("when the Patchbay process is SIGKILLed, the opencode child exits within a few seconds", async () => {
    const helper = fileURLToPath(new URL("../harness/supervised-parent.ts", import.meta.url));
    const parent = spawn(process.execPath, ["--import", "tsx", helper], { stdio: ["ignore", "pipe", "inherit"] });
    const line = await new Promise<string>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error("helper did not report ready")), 60_000);
      readline.createInterface({ input: parent.stdout! }).once("line", (l) => {
        clearTimeout(t);
        resolve(l);
      });
    });
    const info = JSON.parse(line) as { state: string; opencodePid: number; dataDir: string };
    assert.equal(info.state, "ready");
    assert.ok(processAlive(info.opencodePid));
    parent.kill("SIGKILL");
    await waitFor("the orphaned opencode to exit", () => !processAlive(info.opencodePid), 8000);
    fs.rmSync(info.dataDir, { recursive: true, force: true });
  });
});
