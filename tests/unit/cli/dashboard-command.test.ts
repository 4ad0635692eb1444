// `patchbay dashboard` (issue 16 item 14): a fresh one-time login URL from the running Patchbay — found through
// runtime.json and its admin token — printed alone on stdout, opened only with --open; a used link is replaced
// without a restart. Runs against the real admin app (tests/unit/admin/fakes.ts).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { StartedAdmin } from "../admin/fakes";
import { runCli as runCliInProcess, startRunningAdmin, type RunningAdmin } from "./running-admin";
import { PATCHBAY_BIN, runCli } from "../../harness/agent-cli";

describe("patchbay dashboard", () => {
  let running: RunningAdmin;
  let s: StartedAdmin;
  let dir: string;
  before(async () => {
    running = await startRunningAdmin("pb-dashboard-cmd-");
    ({ s, dir } = running);
  });
  after(async () => {
    await running?.close();
  });

  /** Trades a login URL's nonce the way the dashboard page does; returns the HTTP status. */
  async function trade(url: string): Promise<number> {
    const nonce = new URL(url).searchParams.get("token") ?? "";
    const res = await s.request("POST", "/admin/api/dashboard-session", {
      auth: "none",
      headers: { origin: s.origin },
      body: { loginToken: nonce },
    });
    return res.status;
  }

  test("prints a working one-time login URL alone on stdout; does not open anything by default", async () => {
    const r = await runCliInProcess(["--data-dir", dir, "dashboard"]);
    assert.equal(r.code, 0, r.err);
    const lines = r.out.trim().split("\n");
    assert.equal(lines.length, 1, r.out);
    const url = new URL(lines[0] ?? "");
    assert.equal(url.origin, s.origin);
    assert.equal(url.pathname, "/login");
    assert.ok(!r.out.includes(s.token), "the admin token is never printed");
    assert.deepEqual(r.opened, []);
    assert.equal(await trade(url.href), 201, "the link signs in");
    assert.equal(await trade(url.href), 401, "once");
    const again = await runCliInProcess(["--data-dir", dir, "dashboard"]);
    assert.notEqual(again.out.trim(), url.href, "a used link is replaced by a new one, no restart");
    assert.equal(await trade(again.out.trim()), 201);
  });

  test("--open opens the printed URL; a failing opener still leaves the printed link and exit 0", async () => {
    const ok = await runCliInProcess(["--data-dir", dir, "dashboard", "--open"]);
    assert.equal(ok.code, 0, ok.err);
    assert.deepEqual(ok.opened, [ok.out.trim()]);
    const failing = await runCliInProcess(["--data-dir", dir, "dashboard", "--open"], async () => {
      throw new Error("xdg-open exited with 3");
    });
    assert.equal(failing.code, 0);
    assert.match(failing.out.trim(), /^http:\/\/127\.0\.0\.1:\d+\/login\?token=/);
    assert.match(failing.err, /Could not open a browser \(xdg-open exited with 3\)\. Open this URL yourself: http:/);
    assert.ok(failing.err.includes(failing.out.trim()), "the note repeats the URL (stdout may be piped away)");
  });

  test("--open in a real process whose opener fails: the URL is printed and the failure said, exit 0", async () => {
    // The real CLI and opener (server/cli/open-url.ts), with `xdg-open` a script that fails as it does without a
    // browser. The process must wait for it: an unref'd opener let the CLI exit first, silently.
    const bin = path.join(dir, "fake-bin");
    fs.mkdirSync(bin, { recursive: true });
    fs.writeFileSync(path.join(bin, "xdg-open"), "#!/bin/sh\nexit 3\n", { mode: 0o755 });
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PATH: `${bin}${path.delimiter}${process.env.PATH}`,
      DISPLAY: ":0",
    };
    delete env.PATCHBAY_DATA_DIR;
    const r = await runCli(process.execPath, [PATCHBAY_BIN, "--data-dir", dir, "dashboard", "--open"], {
      cwd: dir,
      env,
      timeoutMs: 30_000,
    });
    assert.equal(r.code, 0, r.stderr);
    const url = r.stdout.trim();
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/login\?token=/);
    assert.ok(
      r.stderr.includes(`Could not open a browser (xdg-open exited with 3). Open this URL yourself: ${url}`),
      r.stderr,
    );
    const headless = await runCli(process.execPath, [PATCHBAY_BIN, "--data-dir", dir, "dashboard", "--open"], {
      cwd: dir,
      env: { ...env, DISPLAY: "" },
      timeoutMs: 30_000,
    });
    assert.equal(headless.code, 0, headless.stderr);
    assert.match(headless.stderr, /Could not open a browser \(no desktop session here: DISPLAY and WAYLAND_DISPLAY/);
  });

  test("without a running Patchbay: exit 1 and how to start one", async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "pb-dashboard-none-"));
    try {
      const r = await runCliInProcess(["--data-dir", empty, "dashboard"]);
      assert.equal(r.code, 1);
      assert.equal(r.out, "");
      assert.match(r.err, /Patchbay is not running/);
      // The start command serves this same folder (a plain `serve` would use the default one).
      assert.ok(r.err.includes(`patchbay.mjs --data-dir '${empty}' serve\``), r.err);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
