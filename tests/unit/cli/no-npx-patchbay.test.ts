// No text a user is shown may tell them to run `npx patchbay`: outside this repo, npx fetches and runs an unrelated
// npm package of that name (issue 16 item 11). Scans every user-facing text source; `npx --no-install patchbay`
// (which cannot fetch) is the only npx form allowed.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../../..");
/** README, the dashboard, shared texts (snippets), the CLI and its hint builders, the tray and desktop main. */
const SOURCES = ["README.md", "renderer/src", "shared", "server/cli", "server/cli.ts", "server/connect", "main", "bin"];
/** `npx [flags] patchbay` — a command that may fetch a package named patchbay. */
const NPX_PATCHBAY = /\bnpx((?:\s+-[-\w=]+)*)\s+patchbay\b/g;

function files(rel: string): string[] {
  const full = path.join(ROOT, rel);
  if (fs.statSync(full).isFile()) return [full];
  return fs.readdirSync(full, { withFileTypes: true }).flatMap((e) => files(path.join(rel, e.name)));
}

test("no user-facing text says `npx patchbay` without --no-install", () => {
  const found: string[] = [];
  for (const file of SOURCES.flatMap(files)) {
    const text = fs.readFileSync(file, "utf8");
    for (const m of text.matchAll(NPX_PATCHBAY)) {
      if (/--no-install\b|--no\b/.test(m[1] ?? "")) continue;
      const line = text.slice(0, m.index).split("\n").length;
      found.push(`${path.relative(ROOT, file)}:${line}: ${m[0]}`);
    }
  }
  assert.deepEqual(found, [], `these would fetch an unrelated npm package:\n${found.join("\n")}`);
});

test("the scan recognises the forms it must refuse and the one it allows", () => {
  const hits = (s: string) => [...s.matchAll(NPX_PATCHBAY)].filter((m) => !/--no-install\b/.test(m[1] ?? "")).length;
  assert.equal(hits("run npx patchbay serve"), 1);
  assert.equal(hits("`npx -y patchbay key create x`"), 1);
  assert.equal(hits("npx --no-install patchbay serve"), 0);
  assert.equal(hits("npm run -s patchbay -- serve"), 0);
});
