// `npm run bench -- --idle` (issue 26): what an idle Patchbay costs and what a sleep costs the next request, in one
// run of `patchbay serve --demo` with a short keep-alive. Measures (Linux /proc):
//   - cold start: time to first token of a request sent the moment the API listens (OpenCode starting; today's cold
//     start of a freshly launched Patchbay);
//   - warm: time to first token with OpenCode up (median of a few), after a few requests of each wire;
//   - idle awake: total RSS of every Patchbay process (Patchbay, the child guard, OpenCode and its helpers) while idle;
//   - asleep: the same once the keep-alive has stopped OpenCode;
//   - wake without a probe: first token of a request sent to a sleeping Patchbay;
//   - wake after an early-wake probe: `HEAD /` (Claude Code's probe), then the request PROBE_GAP_MS later.
// Prints the figures and the ratios against the targets. Bounded: every wait has a deadline.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CHAT_STREAM, RESPONSES_STREAM, sleep, timedStream } from "./measure";

/** The keep-alive of the measured Patchbay: long enough to sample an idle awake OpenCode, short enough to wait for. */
const KEEP_ALIVE = "12s";
/** Gap between the probe and the prompt: Claude Code's `HEAD /` comes seconds before its first prompt. */
const PROBE_GAP_MS = 3_000;
const MODEL = "demo/echo";
const ROOT = path.resolve(import.meta.dirname, "../..");
const CLI = path.join(ROOT, "bin/patchbay.mjs");

interface Tree {
  patchbay: number;
  guard: number;
  opencode: number;
  total: number;
}

/** RSS of `root` and all its descendants, by role (the guard's command line names child-guard; below it, OpenCode). */
function treeRss(root: number): Tree {
  const parent = new Map<number, number>();
  for (const d of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, "latin1");
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {}
  }
  const rss = (pid: number): number => {
    try {
      const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "latin1"))?.[1];
      return kb ? Number(kb) * 1024 : 0;
    } catch {
      return 0;
    }
  };
  const cmd = (pid: number): string => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, "latin1");
    } catch {
      return "";
    }
  };
  const out: Tree = { patchbay: rss(root), guard: 0, opencode: 0, total: 0 };
  const walk = (pid: number, underGuard: boolean): void => {
    for (const [child, ppid] of parent) {
      if (ppid !== pid) continue;
      // The guard, and the sh guard's helper subshells (same command line); OpenCode's never names it.
      const isGuard = cmd(child).includes("child-guard");
      if (isGuard) out.guard += rss(child);
      else if (underGuard) out.opencode += rss(child);
      else out.patchbay += rss(child);
      walk(child, underGuard || isGuard);
    }
  };
  walk(root, false);
  out.total = out.patchbay + out.guard + out.opencode;
  return out;
}

const mb = (b: number) => `${Math.round(b / 1024 ** 2)} MB`;
const ms = (v: number) => `${Math.round(v)} ms`;

async function waitFor(label: string, check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await sleep(200);
  }
  throw new Error(`bench --idle: timed out waiting for ${label}`);
}

/** Runs the idle benchmark and prints its table. */
export async function runIdleBench(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-bench-idle-"));
  const cli = (...args: string[]) =>
    execFileSync(process.execPath, [CLI, "--data-dir", dataDir, ...args], { encoding: "utf8" }).trim();
  cli("app", "create", "bench");
  const key = cli("key", "create", "bench").split("\n").at(-1)!.trim();
  const headers = { authorization: `Bearer ${key}` };

  const t0 = performance.now();
  const serve: ChildProcess = spawn(
    process.execPath,
    [CLI, "--data-dir", dataDir, "serve", "--demo", "--port", "0", "--quiet", "--opencode-keep-alive", KEEP_ALIVE],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  serve.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  serve.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  try {
    await waitFor("the API", () => /OpenAI API: http/.test(output), 120_000);
    const base = /OpenAI API: (http\S+)/.exec(output)![1]!;
    const chat = (text: string) =>
      timedStream(
        `${base}/chat/completions`,
        { model: MODEL, stream: true, messages: [{ role: "user", content: text }] },
        headers,
        CHAT_STREAM,
      );
    const cold = await chat("cold");
    const coldFromLaunch = performance.now() - t0;
    const runtime = JSON.parse(fs.readFileSync(path.join(dataDir, "runtime.json"), "utf8")) as {
      adminUrl: string;
      adminToken: string;
    };
    const state = async (): Promise<string> => {
      const res = await fetch(`${runtime.adminUrl}/admin/api/status`, {
        headers: { authorization: `Bearer ${runtime.adminToken}` },
      });
      return ((await res.json()) as { opencode: { state: string } }).opencode.state;
    };

    // A few requests of each wire, then warm first tokens.
    for (let i = 0; i < 3; i++) {
      await chat(`chat ${i}`);
      await timedStream(
        `${base}/responses`,
        { model: MODEL, stream: true, input: `r ${i}` },
        headers,
        RESPONSES_STREAM,
      );
      const m = await fetch(`${base}/messages`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json", "anthropic-version": "2023-06-01" },
        body: JSON.stringify({ model: MODEL, max_tokens: 64, messages: [{ role: "user", content: `m ${i}` }] }),
      });
      if (m.status !== 200) throw new Error(`messages: HTTP ${m.status}`);
      await m.text();
    }
    const warm: number[] = [];
    for (let i = 0; i < 5; i++) warm.push((await chat(`warm ${i}`)).ttftMs);
    warm.sort((a, b) => a - b);
    const warmTtft = warm[2]!;

    // Idle, awake: a few samples a second apart (well inside the keep-alive).
    await sleep(1_000);
    const awakeSamples: Tree[] = [];
    for (let i = 0; i < 3; i++) {
      awakeSamples.push(treeRss(serve.pid!));
      await sleep(1_000);
    }
    const awake = awakeSamples.at(-1)!;

    await waitFor("OpenCode to sleep", async () => (await state()) === "sleeping", 120_000);
    await sleep(2_000);
    const asleep = treeRss(serve.pid!);

    const noProbe = await chat("wake without a probe");
    await waitFor("OpenCode to sleep again", async () => (await state()) === "sleeping", 120_000);
    await sleep(1_000);
    const head = await fetch(base.replace(/\/v1$/, "/"), { method: "HEAD" });
    if (head.status !== 200) throw new Error(`HEAD /: HTTP ${head.status}`);
    await sleep(PROBE_GAP_MS);
    const probed = await chat("wake after a probe");

    const rows: Array<[string, string]> = [
      ["keep-alive of this run", KEEP_ALIVE],
      [
        "idle, OpenCode awake (total)",
        `${mb(awake.total)} = Patchbay ${mb(awake.patchbay)} + guard ${mb(awake.guard)} + OpenCode ${mb(awake.opencode)}`,
      ],
      [
        "idle, OpenCode asleep (total)",
        `${mb(asleep.total)} = Patchbay ${mb(asleep.patchbay)} + guard ${mb(asleep.guard)} + OpenCode ${mb(asleep.opencode)}`,
      ],
      ["asleep / awake (target ≤ 20 %)", `${Math.round((100 * asleep.total) / awake.total)} %`],
      ["first token, warm (median of 5)", ms(warmTtft)],
      [
        "first token, cold start (request sent as the API listens)",
        `${ms(cold.ttftMs)} (launch → token ${ms(coldFromLaunch)})`,
      ],
      ["first token after sleep, no probe", ms(noProbe.ttftMs)],
      [`first token after sleep, HEAD / ${PROBE_GAP_MS / 1000} s before`, ms(probed.ttftMs)],
      ["after probe / warm (target ≤ 1.5)", (probed.ttftMs / warmTtft).toFixed(2)],
      ["no probe / cold start (target ≤ 1)", (noProbe.ttftMs / cold.ttftMs).toFixed(2)],
    ];
    const width = Math.max(...rows.map((r) => r[0].length));
    process.stdout.write(`\nPatchbay idle benchmark (serve --demo, ${os.cpus().length} cores)\n`);
    for (const [k, v] of rows) process.stdout.write(`  ${k.padEnd(width)}  ${v}\n`);
  } finally {
    serve.kill("SIGTERM");
    await new Promise((r) => (serve.exitCode !== null ? r(null) : serve.once("exit", r)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
