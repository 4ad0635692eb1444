// `patchbay install-cli`: writes a `patchbay` shim into ~/.local/bin (a temp HOME here) that runs this checkout's CLI,
// refuses to replace a file it did not write, and removes only its own shim.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const BIN = path.join(ROOT, "bin", "patchbay.mjs");

function run(
  cmd: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

describe("patchbay install-cli", { skip: process.platform === "win32" }, () => {
  let home: string;
  let dataDir: string;
  before(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), "pb-home-"));
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-data-"));
  });
  after(() => {
    fs.rmSync(home, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test("writes ~/.local/bin/patchbay, says how to put it on PATH and remove it; the shim runs this CLI", async () => {
    const env = { HOME: home, PATH: process.env.PATH ?? "" };
    const r = await run(process.execPath, [BIN, "install-cli"], env);
    assert.equal(r.code, 0, r.stderr);
    const shim = path.join(home, ".local", "bin", "patchbay");
    assert.match(r.stdout, new RegExp(`Wrote ${shim.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
    assert.match(r.stdout, /is not on your PATH yet/);
    // Not on PATH yet, so the hint names the command as it runs now.
    assert.match(r.stdout, /Remove it with: \S+ \S*bin\/patchbay\.mjs install-cli --remove/);
    assert.equal(fs.statSync(shim).mode & 0o777, 0o755);
    assert.ok(fs.readFileSync(shim, "utf8").includes(BIN));

    const viaShim = await run(shim, ["--data-dir", dataDir, "app", "create", "via-shim"], env);
    assert.equal(viaShim.code, 0, viaShim.stderr);
    assert.match(viaShim.stdout, /Created app "via-shim"/);

    // Hints now name the short form, since the patchbay on PATH is ours.
    const onPath = { HOME: home, PATH: `${path.dirname(shim)}${path.delimiter}${process.env.PATH ?? ""}` };
    const again = await run(process.execPath, [BIN, "install-cli"], onPath);
    assert.match(again.stdout, /Already up to date/);
    assert.doesNotMatch(again.stdout, /not on your PATH/);

    const removed = await run(process.execPath, [BIN, "install-cli", "--remove"], env);
    assert.equal(removed.code, 0, removed.stderr);
    assert.ok(!fs.existsSync(shim));
  });

  test("refuses to overwrite or remove a patchbay it did not write", async () => {
    const dir = path.join(home, "other-bin");
    fs.mkdirSync(dir, { recursive: true });
    const foreign = path.join(dir, "patchbay");
    fs.writeFileSync(foreign, "#!/bin/sh\necho the unrelated npm package\n", { mode: 0o755 });
    for (const extra of [[], ["--remove"]]) {
      const r = await run(process.execPath, [BIN, "install-cli", "--dir", dir, ...extra], { HOME: home });
      assert.equal(r.code, 1);
      assert.match(r.stderr, /exists and was not written by patchbay install-cli; it is left alone/);
      assert.equal(fs.readFileSync(foreign, "utf8"), "#!/bin/sh\necho the unrelated npm package\n");
    }
  });

  test("--remove leaves alone a shim the user edited; an untouched one (any paths, quotes included) goes", async () => {
    const dir = path.join(home, "it's bin");
    const env = { HOME: home, PATH: process.env.PATH ?? "" };
    assert.equal((await run(process.execPath, [BIN, "install-cli", "--dir", dir], env)).code, 0);
    const shim = path.join(dir, "patchbay");
    const original = fs.readFileSync(shim, "utf8");
    const edited = original.replace(/^exec /m, "export PATCHBAY_DATA_DIR=/srv/pb\nexec ");
    fs.writeFileSync(shim, edited);
    const r = await run(process.execPath, [BIN, "install-cli", "--dir", dir, "--remove"], env);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stderr, /was written by patchbay install-cli but edited since; it is left alone/);
    assert.equal(fs.readFileSync(shim, "utf8"), edited);
    // As written (by another checkout and node: other paths), it is ours to remove.
    fs.writeFileSync(shim, original.replaceAll(BIN, "/opt/other checkout/bin/patchbay.mjs"));
    const removed = await run(process.execPath, [BIN, "install-cli", "--dir", dir, "--remove"], env);
    assert.equal(removed.code, 0, removed.stderr);
    assert.ok(!fs.existsSync(shim));
  });

  test("a symlink named patchbay (even a dangling one) is never written through or removed", async () => {
    const dir = path.join(home, "link-bin");
    fs.mkdirSync(dir, { recursive: true });
    const victim = path.join(home, "victim");
    fs.symlinkSync(victim, path.join(dir, "patchbay"));
    for (const extra of [[], ["--remove"]]) {
      const r = await run(process.execPath, [BIN, "install-cli", "--dir", dir, ...extra], { HOME: home });
      assert.equal(r.code, 1, r.stdout);
      assert.match(r.stderr, /was not written by patchbay install-cli/);
      assert.equal(fs.existsSync(victim), false, "nothing was created where the link points");
      assert.ok(fs.lstatSync(path.join(dir, "patchbay")).isSymbolicLink(), "the link is left alone");
    }
  });

  test("bad folders end with a clear error, never a hang; hints quote the folder as one shell word", async () => {
    const file = path.join(home, "a-file");
    fs.writeFileSync(file, "");
    for (const [dir, message] of [
      ["/proc/self/nonexist", /cannot be created there \(ENOENT\)/],
      [path.join(file, "x"), /a part of the path is a file, not a folder \(ENOTDIR\)/],
      ["", /--dir needs a folder/],
    ] as const) {
      const r = await run("timeout", ["20", process.execPath, BIN, "install-cli", "--dir", dir], { HOME: home });
      assert.notEqual(r.code, 124, `install-cli --dir ${dir} hung`);
      assert.ok(r.code === 1 || r.code === 2, `exit ${r.code}`);
      assert.match(r.stderr, message);
    }
    const odd = path.join(home, `q'"$(id)`);
    const r = await run(process.execPath, [BIN, "install-cli", "--dir", odd], {
      HOME: home,
      PATH: process.env.PATH ?? "",
    });
    assert.equal(r.code, 0, r.stderr);
    const quoted = `'${odd.replace(/'/g, `'\\''`)}'`;
    assert.ok(r.stdout.includes(`export PATH=${quoted}:"$PATH"`), r.stdout);
    assert.ok(r.stdout.includes(`--remove --dir ${quoted}`), r.stdout);
  });
});
