#!/usr/bin/env node
// Runs the test suites with Node's built-in runner (one process per test file, so each integration file owns
// exactly one OpenCode). Usage: node build/scripts/run-tests.mjs [unit|integration|e2e ...] [--only <substring>]
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
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

const files = suites.flatMap((s) => collect(path.join(root, "tests", s))).filter((f) => !only || f.includes(only));
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
// Files whose assertions compare timings (latency ratios, "at once"): they run after the others, one at a time,
// so a neighbour file's OpenCode bursts do not land in their measurements (seen in CI rehearsals).
const ALONE = ["history-sweep.test.ts", "opencode-upstream-faults.test.ts"];
const alone = files.filter((f) => ALONE.includes(path.basename(f)));
const shared = files.filter((f) => !alone.includes(f));
// Two files at a time on two cores: integration files each run an OpenCode, which is CPU-hungry.
const concurrency = process.env.PATCHBAY_TEST_CONCURRENCY ?? "2";

let current = null;
function run(list, testConcurrency) {
  return new Promise((resolve) => {
    if (list.length === 0) return resolve(0);
    current = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "--test",
        `--test-concurrency=${testConcurrency}`,
        "--test-reporter=spec",
        ...list.map((f) => path.relative(root, f)),
      ],
      { cwd: root, stdio: "inherit", env },
    );
    current.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => current?.kill(sig));
const first = await run(shared, concurrency);
if (alone.length)
  console.log(`Timing-sensitive files, one at a time: ${alone.map((f) => path.basename(f)).join(", ")}`);
const second = await run(alone, "1");
process.exit(first || second);
