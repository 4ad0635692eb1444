// Binary resolution (option > PATCHBAY_OPENCODE_BIN > pinned package) and the pre-spawn check's reasons.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { checkOpenCodeBinary, resolveOpenCodeBinary } from "../../../../server/opencode/process/binary";

test("resolves the explicit path first, then PATCHBAY_OPENCODE_BIN, then the pinned opencode-ai package", () => {
  assert.equal(resolveOpenCodeBinary("/x/opencode", { PATCHBAY_OPENCODE_BIN: "/y/opencode" }), "/x/opencode");
  assert.equal(resolveOpenCodeBinary(undefined, { PATCHBAY_OPENCODE_BIN: "/y/opencode" }), "/y/opencode");
  const pinned = resolveOpenCodeBinary(undefined, {});
  assert.match(pinned, /node_modules[/\\]opencode-ai[/\\]bin[/\\]opencode\.exe$/);
  assert.equal(checkOpenCodeBinary(pinned), null);
});

test("missing, not a file, not executable: each a clear reason", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-bin-"));
  assert.match(checkOpenCodeBinary(path.join(dir, "nope")) ?? "", /not found at/);
  assert.match(checkOpenCodeBinary(dir) ?? "", /is not a file/);
  const f = path.join(dir, "opencode");
  fs.writeFileSync(f, "#!/bin/sh\n", { mode: 0o644 });
  if (process.getuid?.() !== 0) assert.match(checkOpenCodeBinary(f) ?? "", /not executable/);
  fs.chmodSync(f, 0o755);
  assert.equal(checkOpenCodeBinary(f), null);
  fs.rmSync(dir, { recursive: true });
});
