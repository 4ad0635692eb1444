// `npm run bench:store`: the stored-Responses store at scale. Fills one app with N responses (default 100,000; a fast
// non-fsync writer for the fill), then measures on that folder: put latency with the production writer (atomic,
// fsync), get-by-id latency (random ids), the first listing (index build from the folder names), a prune plan over
// all of them, and disk used per response. Not a test: prints a table (and JSON with --json FILE).
//
// Usage: npm run bench:store -- [--count N] [--keep DIR] [--json FILE]
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { execFileSync } from "node:child_process";
import writeFileAtomic from "write-file-atomic";
import { newResponseId, type StoredResponseRecord } from "../../server/responses-store/record";
import { ResponseStore } from "../../server/responses-store/response-store";

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
}
const COUNT = Number(arg("--count") ?? 100_000);
const JSON_OUT = arg("--json");
const APP = "bench";
const TEXT = "The quick brown fox jumps over the lazy dog. ".repeat(4);

/** A three-turn conversation (5 input items, 1 output item, ~2 KB of JSON): a typical chat turn. */
function recordAt(createdAt: number): StoredResponseRecord {
  const id = newResponseId(createdAt);
  const key = id.slice(5);
  const msg = (role: string, n: number) => ({
    id: `msg_${key}_in${n}`,
    type: "message",
    role,
    content: role === "user" ? TEXT : [{ type: "output_text", text: TEXT, annotations: [] }],
  });
  return {
    v: 2,
    id,
    app: APP,
    createdAt,
    sessionId: "ses_0123456789abcdefghijklmnop",
    parent: null,
    input: [msg("user", 0), msg("assistant", 1), msg("user", 2), msg("assistant", 3), msg("user", 4)],
    inputItems: 5,
    response: {
      id,
      object: "response",
      created_at: Math.floor(createdAt / 1000),
      status: "completed",
      model: "openai/gpt-5",
      output: [
        {
          id: `msg_${key}_0`,
          type: "message",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: TEXT, annotations: [], logprobs: [] }],
        },
      ],
      previous_response_id: null,
      instructions: "Be brief.",
      usage: { input_tokens: 120, output_tokens: 40, total_tokens: 160 },
      store: true,
    },
  };
}

function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

async function main(): Promise<void> {
  const dataDir = arg("--keep") ?? fs.mkdtempSync(path.join(os.tmpdir(), "pb-bench-store-"));
  const t0 = Date.now() - COUNT * 1000;
  const ids: string[] = [];

  // Fill: same files, no fsync (the fill is not what is measured).
  const fast = new ResponseStore({ dataDir, writeFile: (file, text) => fsp.writeFile(file, text, { mode: 0o600 }) });
  const fillStart = performance.now();
  const BATCH = 64;
  for (let i = 0; i < COUNT; i += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, COUNT - i) }, (_, j) => recordAt(t0 + (i + j) * 1000));
    await Promise.all(batch.map((r) => fast.put(r)));
    for (const r of batch) ids.push(r.id);
  }
  const fillS = (performance.now() - fillStart) / 1000;
  // Flush the fill's dirty pages first, or the measured fsyncs wait for them.
  execFileSync("sync");

  // Fresh instance, as after a restart.
  const store = new ResponseStore({ dataDir });
  let t = performance.now();
  const total = await store.count(APP);
  const indexMs = performance.now() - t;

  const getMs: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const id = ids[Math.floor(Math.random() * ids.length)] as string;
    t = performance.now();
    await store.get(APP, id);
    getMs.push(performance.now() - t);
  }

  // put: the request path waits only until the record is handed over (validated, readable from memory); the atomic
  // fsynced write then finishes in the background. Both are measured, plus a read while the write is in flight.
  const putMs: number[] = [];
  const handMs: number[] = [];
  const readInFlightMs: number[] = [];
  for (let i = 0; i < 300; i++) {
    const r = recordAt(Date.now() + i);
    t = performance.now();
    const written = store.put(r);
    handMs.push(performance.now() - t);
    const t2 = performance.now();
    await store.get(APP, r.id);
    readInFlightMs.push(performance.now() - t2);
    await written;
    putMs.push(performance.now() - t);
  }

  // The same atomic writer without fsync (temp file + rename only), to show what the fsync costs on this disk.
  const noSync = new ResponseStore({
    dataDir,
    writeFile: (file, text) => writeFileAtomic(file, text, { mode: 0o600, fsync: false }),
  });
  const putNoSyncMs: number[] = [];
  for (let i = 0; i < 300; i++) {
    const r = recordAt(Date.now() + 1000 + i);
    t = performance.now();
    await noSync.put(r);
    putNoSyncMs.push(performance.now() - t);
  }

  t = performance.now();
  const over = await store.overLimits(APP, { maxSessions: Math.floor(COUNT / 2), maxAgeDays: null }, Date.now());
  const planMs = performance.now() - t;

  const appDir = path.join(dataDir, "responses", APP);
  const duKb = Number(execFileSync("du", ["-sk", appDir]).toString().split(/\s+/)[0]);
  const oneFile = fs.statSync(store.fileOf(APP, ids[0] as string) as string).size;

  const results = {
    count: total,
    fillSeconds: Number(fillS.toFixed(1)),
    indexBuildMs: Number(indexMs.toFixed(1)),
    getMs: { p50: pct(getMs, 50), p90: pct(getMs, 90), p99: pct(getMs, 99) },
    handOverMs: { p50: pct(handMs, 50), p90: pct(handMs, 90), p99: pct(handMs, 99) },
    getInFlightMs: { p50: pct(readInFlightMs, 50), p90: pct(readInFlightMs, 90), p99: pct(readInFlightMs, 99) },
    putFsyncMs: { p50: pct(putMs, 50), p90: pct(putMs, 90), p99: pct(putMs, 99) },
    putNoFsyncMs: { p50: pct(putNoSyncMs, 50), p90: pct(putNoSyncMs, 90), p99: pct(putNoSyncMs, 99) },
    prunePlanMs: Number(planMs.toFixed(1)),
    prunePlanned: over.length,
    recordBytes: oneFile,
    diskBytesPerResponse: Math.round((duKb * 1024) / total),
  };
  const f = (x: number) => x.toFixed(2);
  console.log(`stored responses: ${results.count} in one app (fill ${results.fillSeconds} s, no fsync)`);
  console.log(`  index build (first list after start)   ${results.indexBuildMs} ms`);
  console.log(
    `  get by id (2,000 random)               p50 ${f(results.getMs.p50)} ms  p90 ${f(results.getMs.p90)} ms  p99 ${f(results.getMs.p99)} ms`,
  );
  console.log(
    `  put: hand-over on the request path     p50 ${f(results.handOverMs.p50)} ms  p90 ${f(results.handOverMs.p90)} ms  p99 ${f(results.handOverMs.p99)} ms`,
  );
  console.log(
    `  get while its write is in flight       p50 ${f(results.getInFlightMs.p50)} ms  p90 ${f(results.getInFlightMs.p90)} ms  p99 ${f(results.getInFlightMs.p99)} ms`,
  );
  console.log(
    `  put to disk (atomic + fsync, 300)      p50 ${f(results.putFsyncMs.p50)} ms  p90 ${f(results.putFsyncMs.p90)} ms  p99 ${f(results.putFsyncMs.p99)} ms`,
  );
  console.log(
    `  put (atomic, no fsync, 300)            p50 ${f(results.putNoFsyncMs.p50)} ms  p90 ${f(results.putNoFsyncMs.p90)} ms  p99 ${f(results.putNoFsyncMs.p99)} ms`,
  );
  console.log(`  prune plan (maxSessions = N/2)         ${results.prunePlanMs} ms for ${results.prunePlanned} over`);
  console.log(`  record size ${results.recordBytes} B; disk used ${results.diskBytesPerResponse} B per response`);
  if (JSON_OUT) fs.writeFileSync(JSON_OUT, JSON.stringify(results, null, 2));
  if (!arg("--keep")) await fsp.rm(dataDir, { recursive: true, force: true });
}

await main();
