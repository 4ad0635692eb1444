#!/usr/bin/env node
// Runs the test suites with Node's built-in runner, several processes at a time, longest first, then prints how long
// each took. Unit files run in batches and integration files that use the shared Patchbay in groups, one process each
// (build/scripts/test-group.mjs); every other file runs in its own process.
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

// Jobs: a job is one process, and a process costs CPU (Node + tsx start, ~2-5 s) on a CPU-bound machine. So files share
// processes (build/scripts/test-group.mjs runs them one after another): unit files in batches of about UNIT_BATCH_S
// estimated seconds; integration files that use the shared Patchbay (tests/harness/shared-patchbay.ts) in groups of
// about GROUP_S seconds with ONE Patchbay + OpenCode per group; other integration and e2e files (each starts its own
// fixture) in groups of about GROUP_S seconds too. A file that must have a process of its own says so with the line
// `// test-group: alone`.
const UNIT_BATCH_S = Number(process.env.PATCHBAY_TEST_UNIT_BATCH_S ?? "60");
const GROUP_S = Number(process.env.PATCHBAY_TEST_GROUP_S ?? "150");
// Sharing one Patchbay between files is on unless PATCHBAY_TEST_SHARE_PATCHBAY=0 (to rule it out when a shared file
// fails only in the full run).
const SHARE_PATCHBAY = process.env.PATCHBAY_TEST_SHARE_PATCHBAY !== "0";
const text = (f) => readFileSync(f, "utf8");
const alone = (f) => /^\/\/ test-group: alone\b/m.test(text(f));
const groupKind = (f) => {
  if (alone(f)) return null;
  if (!isHeavy(f)) return "unit";
  if (SHARE_PATCHBAY && text(f).includes("useSharedPatchbay(")) return "shared-patchbay";
  return rel(f).split("/")[1];
};

/** Packs files (longest first) into jobs of about `limit` seconds each. */
function pack(kind, groupFiles, limit) {
  const sorted = [...groupFiles].sort((a, b) => estimate(b) - estimate(a));
  const bins = [];
  for (const f of sorted) {
    const bin = bins.find((b) => b.seconds + estimate(f) <= limit);
    if (bin) {
      bin.files.push(f);
      bin.seconds += estimate(f);
    } else bins.push({ files: [f], seconds: estimate(f) });
  }
  return bins.map((b, i) => ({
    name: `${kind} group ${i + 1}`,
    files: b.files,
    heavy: kind !== "unit",
    seconds: b.seconds,
  }));
}

const jobs = [];
const byKind = new Map();
for (const f of files) {
  const kind = groupKind(f);
  if (kind) byKind.set(kind, [...(byKind.get(kind) ?? []), f]);
  else jobs.push({ name: rel(f), files: [f], heavy: isHeavy(f), seconds: estimate(f) });
}
for (const [kind, groupFiles] of byKind) jobs.push(...pack(kind, groupFiles, kind === "unit" ? UNIT_BATCH_S : GROUP_S));
const queue = jobs.sort((a, b) => b.seconds - a.seconds);

/** @type {Set<import("node:child_process").ChildProcess>} */
const running = new Set();
for (const sig of ["SIGINT", "SIGTERM"])
  process.on(sig, () => {
    for (const child of running) child.kill(sig);
    process.exit(130);
  });

/** Each file's duration and result inside a group, from the spec reporter's top-level suite lines. */
function fileResults(job, output, seconds, ok) {
  if (job.files.length === 1) return [{ file: rel(job.files[0]), seconds, ok }];
  const found = new Map();
  for (const m of output.matchAll(/^([✔✖]) (tests\/\S+\.test\.ts) \(([\d.]+)ms\)$/gmu))
    found.set(m[2], { file: m[2], seconds: Number(m[3]) / 1000, ok: m[1] === "✔" });
  // A file with no line of its own (the process died first) failed with the group, unless the group passed.
  return job.files.map((f) => found.get(rel(f)) ?? { file: rel(f), seconds: 0, ok });
}

/**
 * CPU seconds (user + system) of this runner's reaped children so far, from /proc/self/stat (cutime + cstime): a job's
 * whole process tree (its OpenCode, agent CLIs, browser) once reaped, since each process's reaped children count into
 * it. Read when a job's process exits, so the difference is that job's CPU. null off Linux.
 */
function childCpuSeconds() {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields after the command name start at field 3 (state); cutime and cstime are fields 16 and 17.
    return (Number(fields[13]) + Number(fields[14])) / clockTicks;
  } catch {
    return null;
  }
}
const clockTicks = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout?.trim()) || 100;
let lastCpu = childCpuSeconds();

/** Runs one job in its own process; its output is printed in one piece when it ends (no interleaving). */
function runJob(job) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    // Even a lone file goes through test-group.mjs: `node --test <file>` would start a second process for it.
    const share = job.name.startsWith("shared-patchbay") ? ["--share-patchbay"] : [];
    const argv = [
      "--import",
      "tsx",
      "--test-reporter=spec",
      "build/scripts/test-group.mjs",
      ...share,
      ...job.files.map(rel),
    ];
    const child = spawn(process.execPath, argv, { cwd: root, stdio: ["ignore", "pipe", "pipe"], env });
    running.add(child);
    const chunks = [];
    child.stdout.on("data", (c) => chunks.push(c));
    child.stderr.on("data", (c) => chunks.push(c));
    let cpu = null;
    child.on("exit", () => {
      const now = childCpuSeconds();
      if (now !== null && lastCpu !== null) cpu = now - lastCpu;
      lastCpu = now;
    });
    child.on("close", (code, signal) => {
      running.delete(child);
      const seconds = (Date.now() - t0) / 1000;
      const ok = code === 0;
      const output = Buffer.concat(chunks).toString("utf8");
      const title = job.files.length === 1 ? job.name : `${job.name}: ${job.files.length} files`;
      const cpuText = cpu === null ? "" : `, ${cpu.toFixed(1)} s CPU`;
      process.stdout.write(
        `\n── ${title} (${seconds.toFixed(1)} s${cpuText}, ${ok ? "passed" : `FAILED: ${signal ?? code}`})\n`,
      );
      process.stdout.write(output);
      resolve({ job, seconds, cpu, ok, output, files: fileResults(job, output, seconds, ok) });
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
      // The longest waiting job that fits: a heavy one needs a heavy slot; unit batches take the other slots.
      const i = queue.findIndex((j) => !j.heavy || heavy < heavySlots);
      if (i < 0) break;
      const [job] = queue.splice(i, 1);
      if (job.heavy) heavy++;
      void runJob(job).then((r) => {
        if (job.heavy) heavy--;
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
console.log(`\nJobs by duration (${heavySlots} heavy / ${processSlots} processes at once; wall s, CPU s):`);
for (const r of results.slice(0, 40))
  console.log(
    `  ${r.seconds.toFixed(1).padStart(7)} s ${r.cpu === null ? "" : r.cpu.toFixed(0).padStart(5)}  ` +
      `${r.ok ? "    " : "FAIL"}  ${r.job.name}` +
      (r.job.files.length > 1 ? ` (${r.job.files.length} files)` : ""),
  );
const totalCpu = results.every((r) => r.cpu !== null) ? results.reduce((s, r) => s + r.cpu, 0) : null;
// CPU seconds per file, as build/scripts/test-group.mjs printed them (a file's own process and what it started).
const fileCpu = results
  .flatMap((r) => [...r.output.matchAll(/^# cpu (\S+) ([\d.]+) s$/gm)].map((m) => ({ file: m[1], cpu: Number(m[2]) })))
  .sort((a, b) => b.cpu - a.cpu);
if (fileCpu.length > 1) {
  console.log(`\nFiles by CPU seconds (the ${Math.min(25, fileCpu.length)} most of ${fileCpu.length}):`);
  for (const f of fileCpu.slice(0, 25)) console.log(`  ${f.cpu.toFixed(1).padStart(7)}  ${f.file}`);
}
const fileRows = results.flatMap((r) => r.files);
const failed = fileRows.filter((r) => !r.ok);
console.log(
  `\n${fileRows.length} files in ${results.length} processes, ${totalSeconds.toFixed(0)} s` +
    (totalCpu === null ? "; " : ` (${totalCpu.toFixed(0)} CPU s); `) +
    (failed.length ? `${failed.length} FAILED: ${failed.map((r) => r.file).join(", ")}` : "all passed"),
);
try {
  mkdirSync(path.dirname(durationsFile), { recursive: true });
  const next = readJson(durationsFile);
  for (const r of fileRows) if (r.seconds > 0) next[r.file] = Math.round(r.seconds * 10) / 10;
  writeFileSync(durationsFile, JSON.stringify(next, null, 2) + "\n");
} catch {
  // Only an ordering hint; a read-only checkout just keeps the committed estimates.
}
process.exit(failed.length || results.some((r) => !r.ok) ? 1 : 0);
