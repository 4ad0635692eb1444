// The one helper every hint uses to name the patchbay command: `patchbay …` only when the `patchbay` on PATH is this
// Patchbay, else `node <checkout>/bin/patchbay.mjs …`; never `npx patchbay` (outside the repo npx fetches an
// unrelated npm package of that name).
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PATCHBAY_BIN_SCRIPT, patchbayCommand } from "../../../server/connect/patchbay-command";
import { installCliShim } from "../../../server/cli/cli-shim";

describe("patchbayCommand", () => {
  test("node <absolute bin/patchbay.mjs> … when no patchbay is on PATH", () => {
    assert.equal(patchbayCommand("connect claude", { PATH: "" }), `node ${PATCHBAY_BIN_SCRIPT} connect claude`);
    assert.ok(path.isAbsolute(PATCHBAY_BIN_SCRIPT) && fs.existsSync(PATCHBAY_BIN_SCRIPT));
  });

  test(
    "patchbay … when the patchbay on PATH is install-cli's shim",
    { skip: process.platform === "win32" },
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-cmd-"));
      try {
        await installCliShim({ dir, binScript: PATCHBAY_BIN_SCRIPT, nodePath: process.execPath, platform: "linux" });
        assert.equal(patchbayCommand("serve", { PATH: dir }), "patchbay serve");
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  test(
    "patchbay … when the patchbay on PATH links to this checkout's launcher",
    { skip: process.platform === "win32" },
    () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-cmd-"));
      try {
        fs.symlinkSync(PATCHBAY_BIN_SCRIPT, path.join(dir, "patchbay"));
        assert.equal(patchbayCommand("serve", { PATH: dir }), "patchbay serve");
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  test(
    "a foreign patchbay on PATH (e.g. the unrelated npm package) is not named",
    { skip: process.platform === "win32" },
    () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-cmd-"));
      try {
        fs.writeFileSync(path.join(dir, "patchbay"), "#!/bin/sh\necho someone else\n", { mode: 0o755 });
        assert.equal(patchbayCommand("serve", { PATH: dir }), `node ${PATCHBAY_BIN_SCRIPT} serve`);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  test("paths with spaces are quoted; no launcher (packaged app) gives plain patchbay", () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pb cmd "));
    try {
      const bin = path.join(tmp, "patchbay.mjs");
      fs.writeFileSync(bin, "");
      assert.equal(patchbayCommand("serve", { PATH: "" }, bin), `node '${bin}' serve`);
      assert.equal(patchbayCommand("serve", { PATH: "" }, path.join(tmp, "absent.mjs")), "patchbay serve");
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  test("a backslash in a POSIX path is quoted (the shell would eat it)", () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pb-cmd-"));
    try {
      const bin = path.join(tmp, "we\\ird", "patchbay.mjs");
      fs.mkdirSync(path.dirname(bin));
      fs.writeFileSync(bin, "");
      if (process.platform !== "win32") assert.equal(patchbayCommand("x", { PATH: "" }, bin), `node '${bin}' x`);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  test("a checkout path with shell syntax in it: the pasted hint runs only Patchbay", () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pb-cmd-"));
    const dir = path.join(tmp, "w$(touch pwned)`touch pwned2`\"'");
    try {
      fs.mkdirSync(dir);
      const bin = path.join(dir, "patchbay.mjs");
      fs.writeFileSync(bin, "process.stdout.write(process.argv.slice(2).join(','))");
      const hint = patchbayCommand("app list", { PATH: "" }, bin);
      const out = execFileSync("sh", ["-c", hint], { cwd: tmp, encoding: "utf8" });
      assert.equal(out, "app,list");
      assert.deepEqual(fs.readdirSync(tmp).sort(), [path.basename(dir)], "nothing else was run");
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
