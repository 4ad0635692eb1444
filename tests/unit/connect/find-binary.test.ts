// Finding a client's executable for `patchbay launch` (server/connect/find-binary.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { BUNDLED_BIN_DIR, resolveClientBinary } from "../../../server/connect/find-binary";

function binDir(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-bin-"));
  fs.writeFileSync(path.join(dir, name), "#!/bin/sh\n", { mode: 0o755 });
  return dir;
}

test("the override wins, then PATH, then Patchbay's own node_modules/.bin; else null", () => {
  const onPath = binDir("claude");
  const bundled = binDir("claude");
  assert.equal(resolveClientBinary("claude", "X_BIN", { X_BIN: "/opt/claude", PATH: onPath }, bundled), "/opt/claude");
  assert.equal(resolveClientBinary("claude", "X_BIN", { PATH: onPath }, bundled), path.join(onPath, "claude"));
  assert.equal(resolveClientBinary("claude", "X_BIN", { PATH: "/nonexistent" }, bundled), path.join(bundled, "claude"));
  assert.equal(resolveClientBinary("codex", "X_BIN", { PATH: "/nonexistent" }, bundled), null);
});

test("from any folder with an empty PATH, the agent CLIs this repo installs are found in its node_modules/.bin", () => {
  assert.equal(resolveClientBinary("claude", "X_BIN", { PATH: "" }), path.join(BUNDLED_BIN_DIR, "claude"));
  assert.equal(resolveClientBinary("codex", "X_BIN", { PATH: "" }), path.join(BUNDLED_BIN_DIR, "codex"));
});
