#!/usr/bin/env node
// Runs several test files one after another in ONE process (run with `node --import tsx --test-reporter=spec`), each
// inside a suite named by its path, so the spec output still says which file a failure belongs to. Sharing the process
// saves a Node + tsx start per file, and lets integration files share one Patchbay + OpenCode
// (tests/harness/shared-patchbay.ts), which is stopped once, after the last file.
// Usage: node --import tsx --test-reporter=spec build/scripts/test-group.mjs [--share-patchbay] <file> [<file>...]
// With --share-patchbay the files' useSharedPatchbay() calls get one Patchbay between them; without it each file
// starts its own (the default: see tests/README.md for why sharing is off).
import { readFileSync } from "node:fs";
import { after, before, describe } from "node:test";
import path from "node:path";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
globalThis.__patchbayTestGroup = args[0] === "--share-patchbay";
if (globalThis.__patchbayTestGroup) args.shift();
/** @type {Array<() => Promise<void>>} filled by shared fixtures (tests/harness/shared-patchbay.ts) */
globalThis.__patchbayTestGroupCleanups = [];

/**
 * CPU seconds of this process and its reaped children (an OpenCode, a client CLI, a browser once they exited), from
 * /proc/self/stat (utime + stime + cutime + cstime); null off Linux.
 */
function cpuSeconds() {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100;
  } catch {
    return null;
  }
}

for (const file of args) {
  const rel = path.relative(process.cwd(), path.resolve(file)).split(path.sep).join("/");
  describe(rel, async () => {
    // Suites are collected (every file imported) before any test runs, so the count starts in the first hook.
    let cpu0 = null;
    before(() => {
      cpu0 = cpuSeconds();
    });
    await import(pathToFileURL(path.resolve(file)).href);
    // Registered after the file's own hooks, so it runs once the file has stopped what it started.
    after(() => {
      const cpu1 = cpuSeconds();
      if (cpu0 !== null && cpu1 !== null) console.log(`# cpu ${rel} ${(cpu1 - cpu0).toFixed(1)} s`);
    });
  });
}

after(async () => {
  for (const cleanup of globalThis.__patchbayTestGroupCleanups.splice(0)) await cleanup();
});
