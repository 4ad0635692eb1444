// The dashboard tests' Chromium finder (build/scripts/ensure-browser.mjs): its stdout carries the path and nothing
// else, even when installers print to stdout (issue 21: Playwright's download progress once became the "path").
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

const FINDER = pathToFileURL(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../build/scripts/ensure-browser.mjs"),
).href;

/**
 * Runs the finder's `main` in a child process, as run-tests.mjs does, with no browser on the machine and installers
 * that are real child processes printing to stdout and stderr. Returns the child's stdout, stderr and status.
 */
function runFinder(dir: string, installers: { prints: string; succeeds: boolean; creates?: string }[]) {
  const driver = path.join(dir, "driver.mjs");
  writeFileSync(
    driver,
    `import { main, runQuietly } from ${JSON.stringify(FINDER)};
const installers = ${JSON.stringify(installers)}.map((step, i) => ({
  name: "installer " + i,
  run: () => runQuietly(process.execPath, ["-e", \`
    console.log(\${JSON.stringify(step.prints)});
    console.error("stderr of installer ${"${i}"}");
    \${step.creates ? \`require("node:fs").writeFileSync(\${JSON.stringify(step.creates)}, "")\` : ""}
    process.exit(\${step.succeeds ? 0 : 1});\`], 30000),
  paths: async () => [step.creates ?? null],
}));
await main({ override: "", candidates: [${JSON.stringify(path.join(dir, "no-such-browser"))}], cachedPath: async () => null, installers });
`,
  );
  return spawnSync(process.execPath, [driver], { encoding: "utf8", timeout: 60_000 });
}

test("installers that print to stdout never reach the finder's stdout: it is exactly the path", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "pb-browser-"));
  const browser = path.join(dir, "chromium");
  const r = runFinder(dir, [
    { prints: "Downloading Chrome for Testing 159.0 from https://cdn.example/…", succeeds: false },
    { prints: "Setting up chromium (156.0) ...", succeeds: true, creates: browser },
  ]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, `${browser}\n`);
  // The installers' output is not lost: it went to stderr, where a person reads it.
  assert.match(r.stderr, /Downloading Chrome for Testing/);
  assert.match(r.stderr, /Setting up chromium/);
  assert.match(r.stderr, /installer 0 did not succeed/);
});

test("when nothing installs a browser, stdout stays empty and the exit code says so", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "pb-browser-"));
  const r = runFinder(dir, [{ prints: "Downloading… failed", succeeds: false }]);
  assert.equal(r.status, 1);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /could not find or install Chromium/);
});

test("an installer that succeeds without leaving a browser behind moves on to the next", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "pb-browser-"));
  const browser = path.join(dir, "chrome");
  const r = runFinder(dir, [
    { prints: "done (but nothing written)", succeeds: true },
    { prints: "installed", succeeds: true, creates: browser },
  ]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, `${browser}\n`);
});
