// The benchmark (`npm run bench`) in its smoke mode (a few requests per cell, a 1 s idle window): every step of the
// script must run and print its table with a figure in each line. The figures themselves are not judged here: a
// performance claim is the benchmark's to make on a quiet machine (`npm run bench`), never the shared test pass's.
// Note: the bench runs (b) on its own OpenCode next to Patchbay's, so this file briefly has two OpenCode processes;
// its bound is generous because two OpenCode boots next to other files' OpenCodes can take minutes on 2 loaded cores.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";

test("npm run bench -- --smoke runs every step and prints the whole table", { timeout: 480_000 }, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-bench-test-"));
  const jsonFile = path.join(dir, "bench.json");
  try {
    const child = spawn(process.execPath, ["--import", "tsx", "build/bench/bench.ts", "--smoke", "--json", jsonFile], {
      cwd: path.resolve(import.meta.dirname, "../.."),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const killer = setTimeout(() => child.kill("SIGTERM"), 450_000);
    const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
    clearTimeout(killer);
    for (const line of stdout.split("\n")) t.diagnostic(line);
    assert.equal(code, 0, `bench exited with ${code}\n${stderr.slice(-3000)}`);

    for (const label of [
      "(a) mock direct",
      "(b) OpenCode direct",
      "(c) Patchbay chat",
      "(d) Patchbay responses",
      "c/b at p50",
      "d/b at p50",
      "Patchbay CPU per request",
      "Patchbay RSS",
      "Patchbay idle CPU",
      "Patchbay event-loop delay under load",
      "Idle RSS: Patchbay",
    ]) {
      assert.ok(stdout.includes(label), `the table has no "${label}" line`);
    }
    const r = JSON.parse(fs.readFileSync(jsonFile, "utf8")) as {
      cells: Record<
        string,
        Record<string, { ttft: { p50: number; p90: number }; total: { p50: number; p90: number }; n: number }>
      >;
      cpu: { chatPerRequestMs: number; responsesPerRequestMs: number; perChunkMs: number };
      rss: { beforeMb: number; afterMb: number; requests: number };
      idle: { patchbayCpuPct: number; seconds: number };
      loopDelay: { load: { p50: number; p99: number; max: number }; idle: { p99: number } };
      idleRss: { patchbayMb: number; opencodeMb: number; baselineMb: number };
    };
    assert.equal((r as { mode?: string }).mode, "smoke");
    for (const conc of ["1", "8"]) {
      for (const target of ["a", "b", "c", "d"]) {
        const cell = r.cells[conc]?.[target];
        assert.ok(cell, `no cell ${target} at concurrency ${conc}`);
        assert.ok(cell.n >= 3, `${target}@${conc}: only ${cell.n} requests`);
        for (const v of [cell.ttft.p50, cell.ttft.p90, cell.total.p50, cell.total.p90])
          assert.ok(Number.isFinite(v) && v > 0, `${target}@${conc}: ${v}`);
        assert.ok(cell.total.p50 >= cell.ttft.p50);
      }
    }
    assert.ok(r.cpu.chatPerRequestMs > 0 && r.cpu.responsesPerRequestMs > 0 && Number.isFinite(r.cpu.perChunkMs));
    assert.ok(r.rss.beforeMb > 0 && r.rss.afterMb > 0 && r.rss.requests >= 8);
    assert.ok(Number.isFinite(r.idle.patchbayCpuPct) && r.idle.patchbayCpuPct >= 0 && r.idle.seconds >= 0.9);
    const { load, idle } = r.loopDelay;
    assert.ok(
      load.p50 > 0 && load.p99 >= load.p50 && load.max >= load.p99 && idle.p99 > 0,
      JSON.stringify(r.loopDelay),
    );
    for (const v of Object.values(r.idleRss)) assert.ok(Number.isFinite(v) && v > 0, JSON.stringify(r.idleRss));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
