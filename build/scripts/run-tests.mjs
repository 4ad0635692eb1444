#!/usr/bin/env node
// Runs the test suites with Node's built-in runner: one process per test file (so each integration file owns its
// OpenCode), several files at a time, longest first, then prints how long each took.
// Usage: node build/scripts/run-tests.mjs [unit|integration|e2e ...] [--only <substring>[,<substring>...]]
// Env: PATCHBAY_TEST_CONCURRENCY = files that boot an OpenCode or a browser at once (default 3);
//      PATCHBAY_TEST_PROCESSES = test processes at once in all (default heavy + 1, so unit files fill the gaps).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const args = process.argv.slice(2);
const onlyIdx = args.indexOf("--only");
const only = onlyIdx >= 0 ? args.splice(onlyIdx, 2)[1] : undefined;
const suites = args.length ? args : ["unit", "integration", "e2e"];

function collect(dir) {
  let out = [];
  let entries = [];
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries.sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out = out.concat(collect(full));
    else if (name.endsWith(".test.ts")) out.push(full);
  }
  return out;
}

// `--only a,b`: files whose path contains any of the substrings.
const wanted = only?.split(",").filter(Boolean);
const files = suites
  .flatMap((s) => collect(path.join(root, "tests", s)))
  .filter((f) => !wanted || wanted.some((w) => f.includes(w)));
if (files.length === 0) {
  console.error(`No test files found for: ${suites.join(", ")}${only ? ` (--only ${only})` : ""}`);
  process.exit(1);
}
// The dashboard tests need a Chromium: find one or fetch it (build/scripts/ensure-browser.mjs says how) before any
// test starts, so a missing browser is one clear message instead of every e2e test failing.
const env = { ...process.env, PATCHBAY_TEST: "1" };
if (files.some((f) => f.includes(`${path.sep}e2e${path.sep}`))) {
  const found = spawnSync(process.execPath, [path.join(root, "build/scripts/ensure-browser.mjs")], {
    stdio: ["ignore", "pipe", "inherit"],
    encoding: "utf8",
  });
  // Its stdout is exactly one line, the path (the finder keeps installers' output on stderr); check it anyway, so a
  // broken contract is one clear line here instead of 35 dashboard failures.
  const browser = found.stdout.trim();
  if (found.status !== 0) process.exit(1);
  if (browser.includes("\n") || !existsSync(browser)) {
    console.error(`The Chromium finder printed something that is not a browser path:\n${found.stdout.slice(0, 400)}`);
    process.exit(1);
  }
  env.PATCHBAY_CHROMIUM = browser;
  console.log(`Dashboard tests use Chromium at ${env.PATCHBAY_CHROMIUM}`);
}

// Longest first, so the slowest files do not start last and stretch the run. Durations (seconds) come from this
// machine's last run (.tsbuild/test-durations.json) or, on a fresh clone, from tests/durations.json.
const durationsFile = path.join(root, ".tsbuild", "test-durations.json");
const readJson = (file) => {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return {};
  }
};
const known = { ...readJson(path.join(root, "tests", "durations.json")), ...readJson(durationsFile) };
const rel = (f) => path.relative(root, f).split(path.sep).join("/");
const isHeavy = (f) => !rel(f).startsWith("tests/unit/");
const estimate = (f) => known[rel(f)] ?? (isHeavy(f) ? 60 : 3);

const heavySlots = Math.max(1, Number(process.env.PATCHBAY_TEST_CONCURRENCY ?? "3"));
const processSlots = Math.max(heavySlots, Number(process.env.PATCHBAY_TEST_PROCESSES ?? heavySlots + 1));
const queue = [...files].sort((a, b) => estimate(b) - estimate(a));

/** @type {Set<import("node:child_process").ChildProcess>} */
const running = new Set();
for (const sig of ["SIGINT", "SIGTERM"])
  process.on(sig, () => {
    for (const child of running) child.kill(sig);
    process.exit(130);
  });

/** Runs one file in its own `node --test`; its output is printed in one piece when it ends (no interleaving). */
function runFile(file) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, ["--import", "tsx", "--test", "--test-reporter=spec", rel(file)], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      env,
    });
    running.add(child);
    const chunks = [];
    child.stdout.on("data", (c) => chunks.push(c));
    child.stderr.on("data", (c) => chunks.push(c));
    child.on("close", (code, signal) => {
      running.delete(child);
      const seconds = (Date.now() - t0) / 1000;
      const ok = code === 0;
      process.stdout.write(
        `\n── ${rel(file)} (${seconds.toFixed(1)} s, ${ok ? "passed" : `FAILED: ${signal ?? code}`})\n`,
      );
      process.stdout.write(Buffer.concat(chunks));
      resolve({ file: rel(file), seconds, ok });
    });
  });
}

const t0 = Date.now();
const results = [];
await new Promise((resolve) => {
  let heavy = 0;
  const pump = () => {
    if (queue.length === 0 && running.size === 0) return resolve();
    while (running.size < processSlots) {
      // The longest waiting file that fits: a heavy one needs a heavy slot; unit files take the other slots.
      const i = queue.findIndex((f) => !isHeavy(f) || heavy < heavySlots);
      if (i < 0) break;
      const [file] = queue.splice(i, 1);
      if (isHeavy(file)) heavy++;
      void runFile(file).then((r) => {
        if (isHeavy(file)) heavy--;
        results.push(r);
        pump();
      });
    }
  };
  pump();
});
const totalSeconds = (Date.now() - t0) / 1000;

// The duration table (slowest first) and this run's durations for the next run's ordering.
results.sort((a, b) => b.seconds - a.seconds);
console.log(`\nTest files by duration (${heavySlots} heavy / ${processSlots} processes at once):`);
for (const r of results.slice(0, 40))
  console.log(`  ${r.seconds.toFixed(1).padStart(7)} s  ${r.ok ? "    " : "FAIL"}  ${r.file}`);
if (results.length > 40) console.log(`  … and ${results.length - 40} more under ${results[40].seconds.toFixed(1)} s`);
const failed = results.filter((r) => !r.ok);
console.log(
  `\n${results.length} files in ${totalSeconds.toFixed(0)} s; ` +
    (failed.length ? `${failed.length} FAILED: ${failed.map((r) => r.file).join(", ")}` : "all passed"),
);
try {
  mkdirSync(path.dirname(durationsFile), { recursive: true });
  const next = readJson(durationsFile);
  for (const r of results) next[r.file] = Math.round(r.seconds * 10) / 10;
  writeFileSync(durationsFile, JSON.stringify(next, null, 2) + "\n");
} catch {
  // Only an ordering hint; a read-only checkout just keeps the committed estimates.
}
process.exit(failed.length ? 1 : 0);
