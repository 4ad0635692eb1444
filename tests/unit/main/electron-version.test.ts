// The Electron release Patchbay ships is named in three places that must agree (build/scripts/update-electron.mjs
// updates all three): package.json's optionalDependencies.electron, electron-builder.yml's electronVersion, and the
// type definitions main/ compiles against. It must also be inside Electron's support window (the latest three majors).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import YAML from "yaml";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

test("package.json, electron-builder.yml and main/types/electron.d.ts name the same exact Electron version", () => {
  const pkg = JSON.parse(read("package.json")) as { optionalDependencies: Record<string, string> };
  const declared = pkg.optionalDependencies.electron;
  assert.match(declared ?? "", /^\d+\.\d+\.\d+$/, "an exact version, so the types match the shipped release");
  const builder = YAML.parse(read("electron-builder.yml")) as { electronVersion?: string };
  assert.equal(String(builder.electronVersion), declared);
  const header = read("main/types/electron.d.ts").split("\n", 1)[0];
  assert.equal(header, `// Type definitions for Electron ${declared}`);
});

test("main/ resolves `electron` to the copied types on every machine (npm skips the package on Node < 22.12)", () => {
  const base = JSON.parse(read("tsconfig.base.json")) as { compilerOptions: { paths?: Record<string, string[]> } };
  assert.deepEqual(base.compilerOptions.paths?.electron, ["./main/types/electron.d.ts"]);
});

test("the shipped major is at least 43: Electron 45 is npm's latest as of this release (support = latest three)", () => {
  // Raise this floor with each update; update-electron.mjs picks npm's latest by default.
  const pkg = JSON.parse(read("package.json")) as { optionalDependencies: Record<string, string> };
  assert.ok(Number(pkg.optionalDependencies.electron?.split(".")[0]) >= 43);
});
