#!/usr/bin/env node
// Runs several test files one after another in ONE process (run with `node --import tsx --test-reporter=spec`), each
// inside a suite named by its path, so the spec output still says which file a failure belongs to. Sharing the process
// saves a Node + tsx start per file, and lets integration files share one Patchbay + OpenCode
// (tests/harness/shared-patchbay.ts), which is stopped once, after the last file.
// Usage: node --import tsx --test-reporter=spec build/scripts/test-group.mjs [--share-patchbay] <file> [<file>...]
// With --share-patchbay the files' useSharedPatchbay() calls get one Patchbay between them; without it each file
// starts its own (the default: see tests/README.md for why sharing is off).
import { after, describe } from "node:test";
import path from "node:path";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
globalThis.__patchbayTestGroup = args[0] === "--share-patchbay";
if (globalThis.__patchbayTestGroup) args.shift();
/** @type {Array<() => Promise<void>>} filled by shared fixtures (tests/harness/shared-patchbay.ts) */
globalThis.__patchbayTestGroupCleanups = [];

for (const file of args) {
  const rel = path.relative(process.cwd(), path.resolve(file)).split(path.sep).join("/");
  describe(rel, async () => {
    await import(pathToFileURL(path.resolve(file)).href);
  });
}

after(async () => {
  for (const cleanup of globalThis.__patchbayTestGroupCleanups.splice(0)) await cleanup();
});
