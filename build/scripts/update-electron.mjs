#!/usr/bin/env node
// Moves Patchbay to an Electron release in one step, keeping its three copies of the version in agreement:
// package.json's optionalDependencies.electron (exact), electron-builder.yml's electronVersion, and the type
// definitions main/ is compiled against (main/types/electron.d.ts, taken from that release's npm package, because npm
// skips the `electron` package on Node.js < 22.12 and CI type-checks on Node 20).
// Usage: node build/scripts/update-electron.mjs [version]   (default: npm's latest). Then: npm install && npm test.
// tests/unit/main/electron-version.test.ts checks that the three agree.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

const requested = process.argv[2];
const version = execFileSync(npm, ["view", `electron@${requested ?? "latest"}`, "version"], { encoding: "utf8" })
  .trim()
  .split("\n")
  .at(-1)
  .replace(/^.*'(.+)'$/, "$1");
if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`npm did not name an Electron version: ${version}`);

const work = mkdtempSync(path.join(tmpdir(), "electron-types-"));
try {
  const tarball = execFileSync(npm, ["pack", `electron@${version}`, "--silent", "--pack-destination", work], {
    encoding: "utf8",
  }).trim();
  execFileSync("tar", ["-xzf", path.join(work, tarball), "-C", work, "package/electron.d.ts"]);
  const types = readFileSync(path.join(work, "package", "electron.d.ts"), "utf8");
  if (!types.startsWith(`// Type definitions for Electron ${version}\n`)) {
    throw new Error(`electron@${version}'s electron.d.ts does not name that version`);
  }
  writeFileSync(path.join(ROOT, "main", "types", "electron.d.ts"), types);
} finally {
  rmSync(work, { recursive: true, force: true });
}

const pkgPath = path.join(ROOT, "package.json");
const pkg = JSON.parse(readFileSync(pkgPath, "utf8"));
pkg.optionalDependencies.electron = version;
writeFileSync(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);

const ymlPath = path.join(ROOT, "electron-builder.yml");
const yml = readFileSync(ymlPath, "utf8");
if (!/^electronVersion: .*$/m.test(yml)) throw new Error("electron-builder.yml has no electronVersion line");
writeFileSync(ymlPath, yml.replace(/^electronVersion: .*$/m, `electronVersion: ${version}`));

console.log(`Electron ${version}: package.json, electron-builder.yml and main/types/electron.d.ts updated.`);
console.log("Next: npm install && npm test (main/ now type-checks against the new API; fix what it reports).");
