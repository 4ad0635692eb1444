// The one helper every hint uses to name the patchbay command: `npx patchbay …` unless `patchbay` is on PATH.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { patchbayCommand } from "../../../server/connect/patchbay-command";

describe("patchbayCommand", () => {
  test("npx patchbay … when no patchbay is on PATH", () => {
    assert.equal(patchbayCommand("connect claude", { PATH: "" }), "npx patchbay connect claude");
  });

  test("patchbay … when it is installed globally (on PATH)", { skip: process.platform === "win32" }, () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-cmd-"));
    try {
      fs.writeFileSync(path.join(dir, "patchbay"), "#!/bin/sh\n", { mode: 0o755 });
      assert.equal(patchbayCommand("serve", { PATH: dir }), "patchbay serve");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
