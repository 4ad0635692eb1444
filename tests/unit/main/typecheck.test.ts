// main/ type-checks against Electron's own types (node_modules/electron/electron.d.ts): the Electron glue cannot run
// here (no Electron binary), so the compiler is what checks every Electron call it makes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const TSC = path.join(ROOT, "node_modules", "typescript", "bin", "tsc");

function tsc(args: string[]) {
  const r = spawnSync(process.execPath, [TSC, ...args], { cwd: ROOT, encoding: "utf8", timeout: 240_000 });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

test("tsc -b main: the main/ project (and what it references) compiles with no errors", { timeout: 300_000 }, () => {
  const r = tsc(["-b", "main/tsconfig.json"]);
  assert.equal(r.status, 0, r.output);
});

test("control: a misuse of the Electron API in the same setup is a compile error", { timeout: 120_000 }, () => {
  // Proves electron.d.ts is really resolved and enforced (a silently `any`-typed electron would pass anything).
  // Inside .tsbuild/ (git-ignored) so that node_modules/electron resolves exactly as for main/.
  mkdirSync(path.join(ROOT, ".tsbuild"), { recursive: true });
  const dir = mkdtempSync(path.join(ROOT, ".tsbuild", "electron-canary-"));
  try {
    writeFileSync(
      path.join(dir, "canary.ts"),
      'import { BrowserWindow } from "electron";\nnew BrowserWindow({ webPreferences: { sandbox: "yes" } });\n',
    );
    writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({
        extends: "../../tsconfig.base.json",
        compilerOptions: {
          composite: false,
          declaration: false,
          emitDeclarationOnly: false,
          noEmit: true,
          types: ["node"],
        },
        include: ["canary.ts"],
      }),
    );
    const r = tsc(["-p", path.join(dir, "tsconfig.json")]);
    assert.notEqual(r.status, 0);
    assert.match(
      r.output,
      /canary\.ts\(2,\d+\): error TS2322: Type 'string' is not assignable to type 'boolean \| undefined'/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
