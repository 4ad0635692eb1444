// `npm run bench -- --footprint` (issue 26 item 3): where Patchbay's own memory goes, phase by phase, in one run of
// headless `patchbay serve --demo` as shipped (the built CLI, bin/patchbay.mjs). Patchbay's process only: the child
// guard and OpenCode are other processes. Each phase prints RSS as Linux sees it (/proc: anonymous and file-backed
// pages, threads) and, after two forced GCs, what V8 holds (heap used/total, external, array buffers), read by a
// preloaded probe (memory-probe.mjs) over IPC:
//   started          API listening, OpenCode ready, a few seconds quiet;
//   wires            after a few requests of each wire (chat, Responses, Messages; streamed and not);
//   count_tokens     after a first count_tokens (the tokenizer worker is up);
//   loop             after N more requests of every wire, 8 at a time (`--requests N`, default 1000);
//   worker idle      `--worker-idle` only: once the tokenizer worker has stopped after its idle period (5 min).
// Options: --requests N, --worker-idle, --snapshots DIR (a heap snapshot at count_tokens and after the loop, to diff
// in Chrome DevTools). Any environment (e.g. MALLOC_ARENA_MAX=2) goes to the measured process. Bounded waits only.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CHAT_STREAM, RESPONSES_STREAM, runConcurrent, sleep, timedJson, timedStream, type Sample } from "./measure";

const ROOT = path.resolve(import.meta.dirname, "../..");
const CLI = path.join(ROOT, "bin/patchbay.mjs");
const PROBE = path.join(import.meta.dirname, "memory-probe.mjs");
const MODEL = "demo/echo";
/** The tokenizer worker's idle stop (server/tokenizer/token-count-pool.ts) plus a margin, ms. */
const WORKER_IDLE_WAIT_MS = 5 * 60_000 + 20_000;

/** One phase's figures, bytes (threads: the process's OS threads; the tokenizer worker adds some). */
interface Reading {
  phase: string;
  rss: number;
  rssAnon: number;
  rssFile: number;
  threads: number;
  gcRss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}

function argValue(flag: string): string | undefined {
  const i = process.argv.indexOf(flag);
  return i > 0 ? process.argv[i + 1] : undefined;
}

/** VmRSS, RssAnon and RssFile of `pid` (bytes) from /proc/<pid>/status. */
function procMemory(pid: number): { rss: number; rssAnon: number; rssFile: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, "latin1");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb("VmRSS"), rssAnon: kb("RssAnon"), rssFile: kb("RssFile") };
}

/** Sends `msg` to the probe and resolves with its answer of the same type (15 s at most). */
function ask<T>(proc: ChildProcess, msg: { type: string } & Record<string, unknown>): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(() => reject(new Error(`memory probe: no answer to ${msg.type}`))), 15_000);
    const onMsg = (m: { type?: string }) => {
      if (m?.type === msg.type) done(() => resolve(m as T));
    };
    const done = (f: () => void) => {
      clearTimeout(timer);
      proc.off("message", onMsg);
      f();
    };
    proc.on("message", onMsg);
    proc.send(msg);
  });
}

async function read(proc: ChildProcess, phase: string): Promise<Reading> {
  const before = procMemory(proc.pid!);
  const { memory, threads } = await ask<{ memory: NodeJS.MemoryUsage; threads: number }>(proc, {
    type: "usage",
    gc: true,
  });
  return {
    phase,
    ...before,
    threads,
    gcRss: memory.rss,
    heapUsed: memory.heapUsed,
    heapTotal: memory.heapTotal,
    external: memory.external,
    arrayBuffers: memory.arrayBuffers,
  };
}

const mb = (b: number) => (b / 1024 ** 2).toFixed(1).padStart(6);

function printTable(readings: Reading[]): void {
  const head = "phase            RSS   anon   file  thr | after GC: RSS  heap used / total  external  arrayBuf";
  process.stdout.write(`\nPatchbay footprint (serve --demo, built CLI, Node ${process.version}, MB)\n${head}\n`);
  for (const r of readings) {
    process.stdout.write(
      `${r.phase.padEnd(14)} ${mb(r.rss)} ${mb(r.rssAnon)} ${mb(r.rssFile)} ${String(r.threads).padStart(4)} |` +
        `          ${mb(r.gcRss)}    ${mb(r.heapUsed)} / ${mb(r.heapTotal)}    ${mb(r.external)}    ${mb(r.arrayBuffers)}\n`,
    );
  }
  const arena = process.env.MALLOC_ARENA_MAX;
  if (arena) process.stdout.write(`(MALLOC_ARENA_MAX=${arena})\n`);
}

/** Runs the footprint benchmark and prints its table. */
export async function runFootprintBench(): Promise<void> {
  const requests = Number(argValue("--requests") ?? "1000");
  const snapshots = argValue("--snapshots");
  const workerIdle = process.argv.includes("--worker-idle");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-bench-footprint-"));
  const cli = (...args: string[]) =>
    execFileSync(process.execPath, [CLI, "--data-dir", dataDir, ...args], { encoding: "utf8" }).trim();
  cli("app", "create", "bench");
  const key = cli("key", "create", "bench").split("\n").at(-1)!.trim();
  const auth = { authorization: `Bearer ${key}` };

  const serve = spawn(
    process.execPath,
    ["--expose-gc", "--import", PROBE, CLI, "--data-dir", dataDir, "serve", "--demo", "--port", "0", "--quiet"],
    { stdio: ["ignore", "pipe", "pipe", "ipc"] },
  );
  let output = "";
  serve.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  serve.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const readings: Reading[] = [];
  try {
    const deadline = Date.now() + 120_000;
    while (!/OpenAI API: http/.test(output)) {
      if (Date.now() > deadline || serve.exitCode !== null) throw new Error(`serve did not start:\n${output}`);
      await sleep(200);
    }
    const base = /OpenAI API: (http\S+)/.exec(output)![1]!;
    await allowConcurrency(dataDir, "bench", 16);
    const anthropic = { ...auth, "anthropic-version": "2023-06-01" };
    const calls: Array<() => Promise<Sample>> = [
      () => timedStream(`${base}/chat/completions`, chatBody(true), auth, CHAT_STREAM),
      () => timedJson(`${base}/chat/completions`, chatBody(false), auth),
      () => timedStream(`${base}/responses`, { model: MODEL, stream: true, input: "hi" }, auth, RESPONSES_STREAM),
      () => timedJson(`${base}/responses`, { model: MODEL, input: "hi" }, auth),
      () => timedJson(`${base}/messages`, messagesBody(), anthropic),
    ];
    // The first request waits for OpenCode; then a quiet moment before the first reading.
    await timedJson(`${base}/chat/completions`, chatBody(false), auth);
    await sleep(5_000);
    readings.push(await read(serve, "started"));

    await runConcurrent(calls.length * 3, 1, (i) => calls[i % calls.length]!());
    await sleep(3_000);
    readings.push(await read(serve, "wires"));

    const count = { model: MODEL, messages: [{ role: "user", content: "The quick brown fox. ".repeat(400) }] };
    await timedJson(`${base}/messages/count_tokens`, count, anthropic);
    await sleep(3_000);
    readings.push(await read(serve, "count_tokens"));
    if (snapshots) await ask(serve, { type: "snapshot", file: path.join(snapshots, "1-count-tokens.heapsnapshot") });

    await runConcurrent(requests, 8, (i) => calls[i % calls.length]!());
    await sleep(3_000);
    readings.push(await read(serve, `loop ${requests}`));
    if (snapshots) await ask(serve, { type: "snapshot", file: path.join(snapshots, "2-after-loop.heapsnapshot") });

    if (workerIdle) {
      process.stderr.write(`[footprint] waiting ${WORKER_IDLE_WAIT_MS / 1000} s for the tokenizer to idle out\n`);
      await sleep(WORKER_IDLE_WAIT_MS);
      readings.push(await read(serve, "worker idle"));
    }
    printTable(readings);
  } finally {
    serve.kill("SIGTERM");
    const killer = setTimeout(() => serve.kill("SIGKILL"), 20_000);
    await new Promise((r) => (serve.exitCode !== null ? r(null) : serve.once("exit", r)));
    clearTimeout(killer);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Raises `app`'s concurrency limit (default 4) through the admin API, so the loop's 8 at a time are not refused. */
async function allowConcurrency(dataDir: string, app: string, concurrency: number): Promise<void> {
  const runtime = JSON.parse(fs.readFileSync(path.join(dataDir, "runtime.json"), "utf8")) as {
    adminUrl: string;
    adminToken: string;
  };
  const res = await fetch(`${runtime.adminUrl}/admin/api/apps/${app}`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${runtime.adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ limits: { concurrency } }),
  });
  if (!res.ok) throw new Error(`admin PATCH apps/${app}: ${res.status} ${await res.text()}`);
}

function chatBody(stream: boolean) {
  return { model: MODEL, stream, messages: [{ role: "user", content: "hi" }] };
}

function messagesBody() {
  return { model: MODEL, max_tokens: 64, messages: [{ role: "user", content: "hi" }] };
}
