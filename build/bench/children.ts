// The benchmark's child processes: (b) OpenCode driven directly (opencode-direct-child.ts) and Patchbay
// (patchbay-child.ts), each talking to bench.ts over IPC, so readings of one process are that process's alone.
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Sample } from "./measure";

const here = path.dirname(fileURLToPath(import.meta.url));

/** Event-loop delay percentiles in ms over a window (how long a ready callback waited for the loop). */
export interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
}

/** (b): OpenCode's own session API in a child process. */
export interface DirectChild {
  request(text: string): Promise<Sample>;
  stop(): Promise<void>;
}

/** Starts opencode-direct-child.ts (its own `opencode serve` driven through the SDK) and waits for it to be ready. */
export async function startDirectChild(dataDir: string, configFile: string, model: string): Promise<DirectChild> {
  const logFile = fs.openSync(path.join(path.dirname(dataDir), "direct-child.log"), "a");
  const proc = fork(path.join(here, "opencode-direct-child.ts"), [], {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, BENCH_DATA_DIR: dataDir, BENCH_USER_CONFIG: configFile, BENCH_MODEL: model },
    stdio: ["ignore", logFile, logFile, "ipc"],
  });
  const exited = new Promise<void>((r) => proc.once("exit", () => r()));
  const pending = new Map<number, { resolve: (s: Sample) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  await new Promise<void>((resolve, reject) => {
    proc.on("message", (m: { type?: string; id?: number; sample?: Sample; message?: string; reason?: string }) => {
      if (m.type === "ready") resolve();
      else if (m.type === "failed") reject(new Error(`OpenCode (b): ${m.reason}`));
      else if (m.type === "sample" || m.type === "error") {
        const p = pending.get(m.id ?? -1);
        pending.delete(m.id ?? -1);
        if (m.type === "sample" && m.sample) p?.resolve(m.sample);
        else p?.reject(new Error(m.message ?? "OpenCode (b) request failed"));
      }
    });
    proc.once("exit", () => {
      reject(new Error("OpenCode (b) child exited (see direct-child.log)"));
      for (const p of pending.values()) p.reject(new Error("OpenCode (b) child exited"));
    });
  });
  return {
    request(text) {
      const id = nextId++;
      return new Promise<Sample>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        proc.send({ type: "request", id, text });
      });
    },
    stop: () => stopChild(proc, exited, logFile),
  };
}

/** Asks a bench child to stop (SIGKILL after 15 s), waits for it to exit, and closes its log file. */
async function stopChild(proc: ChildProcess, exited: Promise<unknown>, logFile: number): Promise<void> {
  if (proc.exitCode === null && proc.connected) proc.send({ type: "stop" });
  const killer = setTimeout(() => proc.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(killer);
  fs.closeSync(logFile);
}

/** Patchbay (createPatchbay + its OpenCode) in a child process: readings of its CPU, memory and event loop. */
export interface PatchbayChild {
  apiBase: string;
  opencodePid: number;
  createKey(app: string): Promise<string>;
  /** Patchbay's CPU so far (user + system), ms. */
  cpuMs(): Promise<number>;
  /** After two forced GCs: RSS and heap, bytes. */
  usage(): Promise<{ rss: number; heapUsed: number }>;
  /** Event-loop delay since the last call (ms percentiles, perf_hooks.monitorEventLoopDelay); resets the histogram. */
  loopDelay(): Promise<LoopDelay>;
  stop(): Promise<void>;
}

/** Starts patchbay-child.ts (with --expose-gc) and waits until its OpenCode is ready. */
export async function startPatchbayChild(
  dataDir: string,
  configFile: string,
  opts: { sessionPool: boolean; profileDir?: string },
): Promise<PatchbayChild> {
  const logFile = fs.openSync(path.join(path.dirname(dataDir), "patchbay-child.log"), "a");
  const proc: ChildProcess = fork(path.join(here, "patchbay-child.ts"), [], {
    execArgv: [
      "--expose-gc",
      "--import",
      "tsx",
      ...(opts.profileDir ? ["--cpu-prof", `--cpu-prof-dir=${opts.profileDir}`] : []),
    ],
    env: {
      ...process.env,
      BENCH_DATA_DIR: dataDir,
      BENCH_USER_CONFIG: configFile,
      BENCH_SESSION_POOL: opts.sessionPool ? "2" : "0",
    },
    stdio: ["ignore", logFile, logFile, "ipc"],
  });
  const exited = new Promise<void>((r) => proc.once("exit", () => r()));
  const next = <T>(type: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const onMsg = (m: { type?: string; reason?: string }) => {
        if (m.type === "failed") return done(() => reject(new Error(`Patchbay child: ${m.reason}`)));
        if (m.type === type) done(() => resolve(m as T));
      };
      const onExit = () => done(() => reject(new Error("Patchbay child exited (see patchbay-child.log)")));
      const done = (f: () => void) => {
        proc.off("message", onMsg);
        proc.off("exit", onExit);
        f();
      };
      proc.on("message", onMsg);
      proc.once("exit", onExit);
    });
  const ready = await next<{ apiBase: string; adminUrl: string; adminToken: string; opencodePid: number }>("ready");
  const admin = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(ready.adminUrl + p, {
      method,
      headers: { authorization: `Bearer ${ready.adminToken}`, "content-type": "application/json" },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    if (!res.ok) throw new Error(`admin ${method} ${p}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  return {
    apiBase: ready.apiBase,
    opencodePid: ready.opencodePid,
    async createKey(app) {
      await admin("POST", "/admin/api/apps", { name: app });
      await admin("PATCH", `/admin/api/apps/${app}`, { limits: { concurrency: 16 } });
      return String((await admin("POST", `/admin/api/apps/${app}/keys`, { label: "bench" })).key);
    },
    async cpuMs() {
      const p = next<{ cpuUserUs: number; cpuSystemUs: number }>("cpu");
      proc.send({ type: "cpu" });
      const u = await p;
      return (u.cpuUserUs + u.cpuSystemUs) / 1000;
    },
    async usage() {
      const p = next<{ rss: number; heapUsed: number }>("usage");
      proc.send({ type: "usage" });
      return p;
    },
    async loopDelay() {
      const p = next<LoopDelay>("loop-delay");
      proc.send({ type: "loop-delay" });
      return p;
    },
    stop: () => stopChild(proc, exited, logFile),
  };
}
