// Hints printed under `--data-dir X` (or PATCHBAY_DATA_DIR=X) name X (issue 21 §3.7): following "No apps yet. Create one with: …" or "Create
// one with: patchbay key create …" must act on the same data folder.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runCli } from "./running-admin";
import { cliCommandFor, dataDirArg, patchbayCommand, shellQuote } from "../../../server/connect/patchbay-command";
import { execFileSync } from "node:child_process";
import { main } from "../../../server/cli";
import type { CliIO } from "../../../server/cli/context";
import { defaultDataDir, resolveDataDir } from "../../../server/data-dir";

test("app list / key list hints keep --data-dir", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-hints-"));
  const apps = await runCli(["--data-dir", dir, "app", "list"]);
  assert.equal(apps.code, 0, apps.err);
  // The command that works here: `patchbay` when ours is on PATH, else `node …/bin/patchbay.mjs` (runCli's PATH is empty).
  const cmd = (args: string) => patchbayCommand(args, { PATH: "" });
  assert.equal(apps.out, `No apps yet. Create one with: ${cmd(`--data-dir '${dir}' app create NAME`)}\n`);
  assert.equal((await runCli(["--data-dir", dir, "app", "create", "hint-app"])).code, 0);
  const keys = await runCli(["--data-dir", dir, "key", "list", "hint-app"]);
  assert.equal(keys.code, 0, keys.err);
  assert.ok(keys.out.endsWith(`Create one with: ${cmd(`--data-dir '${dir}' key create hint-app`)}\n`), keys.out);
  fs.rmSync(dir, { recursive: true, force: true });
});

test("a data folder from PATCHBAY_DATA_DIR is named too: the hint may be followed in a shell without it", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-hints-env-"));
  let out = "";
  const io: CliIO = {
    out: (t) => void (out += t),
    err: () => undefined,
    env: { PATH: "", PATCHBAY_DATA_DIR: dir },
    stdoutIsTTY: false,
    exit: () => undefined,
    onSignal: () => undefined,
    openUrl: async () => undefined,
  };
  assert.equal(await main(["node", "patchbay", "app", "list"], io), 0);
  assert.equal(
    out,
    `No apps yet. Create one with: ${patchbayCommand(`--data-dir '${dir}' app create NAME`, { PATH: "" })}\n`,
  );
  fs.rmSync(dir, { recursive: true, force: true });
});

test("the default data folder needs no --data-dir; a quote in a folder's name is shell-quoted", () => {
  assert.equal(dataDirArg(defaultDataDir()), "");
  assert.equal(dataDirArg("/tmp/it's here"), `--data-dir '/tmp/it'\\''s here' `);
  const cli = cliCommandFor("/tmp/x", { PATH: "" });
  assert.equal(cli("app list"), patchbayCommand("--data-dir '/tmp/x' app list", { PATH: "" }));
});

test("a folder name with control or bidi characters: the hint shows none raw, and pasted names the same folder", () => {
  for (const name of [
    "/tmp/esc\u001b[31mred",
    "/tmp/bidi\u202eevil",
    "/tmp/it's \\ \u0007 \u{e0001}x",
    "/tmp/plain dir",
    "/tmp/soft\u00adhyphen \u0085nel",
  ]) {
    const word = shellQuote(name);
    assert.doesNotMatch(word, /[\p{Cc}\p{Cf}]/u, JSON.stringify(word));
    // bash writes \u escapes as UTF-8 in a UTF-8 locale (a terminal's usual one).
    const env = { ...process.env, LC_ALL: "C.UTF-8" };
    assert.equal(execFileSync("bash", ["-c", `printf %s ${word}`], { encoding: "utf8", env }), name);
  }
});

test("PATCHBAY_DATA_DIR is trimmed, as the desktop app reads it: a stray space names no folder in the current one", () => {
  assert.equal(resolveDataDir(undefined, { PATCHBAY_DATA_DIR: " /tmp/pb-sp \n" }), "/tmp/pb-sp");
  assert.equal(resolveDataDir(undefined, { PATCHBAY_DATA_DIR: "  " }), defaultDataDir());
  assert.equal(resolveDataDir("/x", { PATCHBAY_DATA_DIR: "/y" }), "/x");
});
