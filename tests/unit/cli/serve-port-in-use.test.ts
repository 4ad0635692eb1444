// `patchbay serve` on a port another program holds, with the real composition root (OpenCode replaced by a missing
// binary, so nothing heavy starts): the failure is told once, with what to do (issue 16 item 16).
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { main } from "../../../server/cli";
import type { CliIO } from "../../../server/cli/context";
import { createPatchbay } from "../../../server/index";

test("port in use: one message naming the port, another Patchbay as a possible holder, and --port 0", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-port-"));
  const blocker = net.createServer();
  await new Promise<void>((r) => blocker.listen(0, "127.0.0.1", () => r()));
  const port = (blocker.address() as net.AddressInfo).port;
  let out = "";
  let err = "";
  let resolveExit: (code: number) => void = () => undefined;
  const exited = new Promise<number>((r) => (resolveExit = r));
  const io: CliIO = {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    env: {},
    stdoutIsTTY: false,
    exit: (code) => resolveExit(code),
    onSignal: () => undefined,
  };
  try {
    void main(["node", "patchbay", "serve", "--port", String(port), "--data-dir", dataDir], io, {
      createPatchbay: (deps) => createPatchbay({ ...deps, opencodeBinary: path.join(dataDir, "no-opencode") }),
    });
    const code = await Promise.race([exited, new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 20_000))]);
    assert.equal(code, 1, `stdout:\n${out}\nstderr:\n${err}`);
    assert.equal(err.split(`port ${port} is in use`).length - 1, 1, `said once:\n${err}`);
    assert.match(err, /it may be another Patchbay/);
    assert.match(err, /Use --port 0 to pick a free port/);
  } finally {
    blocker.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
