// `npm run bench:cli`: how long a short CLI command takes, end to end (spawn to exit), compiled (dist/cli, what
// bin/patchbay.mjs runs) against the old path (the TypeScript sources through tsx, PATCHBAY_CLI_TSX=1), measured in
// the same run, interleaved, on a temp data folder with one app and one key. `node -e 0` is printed as the floor
// (Node's own start on this machine). Not a test: prints medians and the ratio.
//
// Usage: npm run bench:cli -- [--runs N]
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const BIN = path.join(ROOT, "bin", "patchbay.mjs");
const i = process.argv.indexOf("--runs");
const RUNS = i > 0 ? Number(process.argv[i + 1]) : 9;
const dataDir = mkdtempSync(path.join(os.tmpdir(), "pb-bench-cli-"));

/** Runs `node args…` once and returns its wall time (ms); fails loudly on a non-zero exit. */
function timed(args, env = {}) {
  const t = performance.now();
  const r = spawnSync(process.execPath, args, { env: { ...process.env, ...env }, encoding: "utf8" });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`node ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return ms;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

try {
  const cli = (...args) => [BIN, "--data-dir", dataDir, ...args];
  timed(cli("app", "create", "bench")); // also builds dist/cli when it is missing or stale, outside the timings
  timed(cli("key", "create", "bench"));
  const commands = [
    ["app", "list"],
    ["key", "list", "bench"],
    ["app", "models", "bench"],
    ["app", "alias", "bench"],
  ];
  const floor = [];
  const rows = [];
  for (const command of commands) {
    const compiled = [];
    const tsx = [];
    for (let run = 0; run < RUNS; run++) {
      // Interleaved, so a change in the machine's load hits both alike.
      tsx.push(timed(cli(...command), { PATCHBAY_CLI_TSX: "1" }));
      compiled.push(timed(cli(...command)));
      floor.push(timed(["-e", "0"]));
    }
    rows.push([`patchbay ${command.join(" ")}`, median(tsx), median(compiled)]);
  }
  const ms = (x) => `${Math.round(x)} ms`;
  const table = [
    ["command", "before (tsx)", "after (compiled)", "ratio"],
    ...rows.map(([name, before, after]) => [name, ms(before), ms(after), `${(before / after).toFixed(1)}x`]),
    ["node -e 0 (floor)", "", ms(median(floor)), ""],
  ];
  const widths = table[0].map((_, c) => Math.max(...table.map((r) => r[c].length)));
  console.log(
    `CLI start to exit, median of ${RUNS} runs each (${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}):`,
  );
  for (const r of table) console.log(r.map((cell, c) => cell.padEnd(widths[c])).join("  "));
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
