// The bounded OpenCode runtime (issue 15), wired once by the composition root: the memory recycler, the instance and
// folder reapers, pre-warming after every (re)start, and the runtime part of the status. Owns timers and the order of
// things; the policies are pure modules next to it, the process is the supervisor's, instances are the backend's.
import os from "node:os";
import path from "node:path";
import type { OpencodeClient } from "@opencode-ai/sdk/v2";
import type { OpenCodeStatus, RecycleInfo, RuntimeStatus } from "../../../shared/status";
import type { OpenCodeBackend } from "../session/backend";
import { reapToolsetFolders } from "./folder-reaper";
import { effectiveMemoryLimitBytes, lowWatermarkBytes } from "./memory-limit";
import { listToolsetFolders, planPrewarm } from "./prewarm";
import { primeInstance, type PrimingSpecs } from "../process/prime-instance";
import { readRssBytes } from "../process/process-memory";
import { Recycler, type RecyclableProcess } from "./recycler";
import type { RequestGate } from "../session/request-gate";

/** Timings of the runtime (ms). Every field has a default; tests and the soak bench shorten them. */
export interface RuntimeTimings {
  /** Memory check period (default 10 000). */
  memoryCheckMs?: number;
  /** Over the limit while busy this long → hold, drain, recycle (default 30 000). */
  busyGraceMs?: number;
  /** Idle this long above the low watermark → recycle (default 30 min). */
  idleRecycleMs?: number;
  /** No recycle of a process younger than this (default 60 000). */
  minUptimeMs?: number;
  /** Longest wait, requests flowing, for a moment with none in flight (default 60 000), then longest hold of new
   *  requests while the last ones finish (default 5 000) before a recycle is postponed. */
  drainTimeoutMs?: number;
  maxHoldMs?: number;
  /** Instance reaper period (default 60 000) and idle time before disposal (default 10 min). */
  reapEveryMs?: number;
  instanceIdleMs?: number;
  /** Folder reaper period (default 6 h) and unused age before removal (default 7 days). */
  folderReapEveryMs?: number;
  folderMaxAgeMs?: number;
  /** Pre-warm: tool sets per app (default 2), in total (default 4, under the live cap of 6), used within (7 days). */
  prewarmPerApp?: number;
  prewarmMax?: number;
  prewarmMaxAgeMs?: number;
  /** Pre-warm waits at most this long (default 30 000) for requests in flight to end before each boot. */
  prewarmYieldMs?: number;
}

/** The supervisor as the runtime sees it. */
export interface RuntimeProcess extends RecyclableProcess {
  onStatus(listener: (s: OpenCodeStatus) => void): () => void;
  readonly stopRequested: boolean;
  /** See OpenCodeSupervisor.prepareSuccessor. */
  prepareSuccessor?(warm?: (client: (directory?: string) => OpencodeClient) => Promise<void>): Promise<boolean>;
  /** See OpenCodeSupervisor.discardSuccessor. */
  discardSuccessor?(): void;
}

/** Inputs of {@link createOpenCodeRuntime}. */
export interface OpenCodeRuntimeDeps {
  process: RuntimeProcess;
  backend: OpenCodeBackend;
  gate: RequestGate;
  dataDir: string;
  /** The `opencodeMemoryLimitMB` setting (null = automatic, 0 = off). */
  memoryLimitMB: () => number | null;
  /** Serves the priming prompts' specs to the companion plugin (the SideChannel). */
  sideChannel: PrimingSpecs;
  /** History listing of a folder: true when it still holds a session (folder reaper). */
  hasSessions: (directory: string) => Promise<boolean>;
  timings?: RuntimeTimings;
  /** Total RAM in bytes (default os.totalmem()). */
  totalMemBytes?: number;
  log: (line: string) => void;
  now?: () => number;
  /** Called when the runtime status changes noticeably (a recycle). */
  onChange?: () => void;
}

/** The runtime handle. */
export interface OpenCodeRuntime {
  start(): void;
  stop(): Promise<void>;
  status(): RuntimeStatus;
  /** Runs one memory check now (tests; the timer does it periodically). */
  checkMemory(): Promise<void>;
  /** The last pre-warm run (resolves when its boots are done). */
  prewarmed(): Promise<void>;
  lastRecycle(): RecycleInfo | null;
}

/** Builds the runtime; nothing runs until `start()`. */
export function createOpenCodeRuntime(d: OpenCodeRuntimeDeps): OpenCodeRuntime {
  const now = d.now ?? Date.now;
  const t = d.timings ?? {};
  const total = d.totalMemBytes ?? os.totalmem();
  const appsRoot = path.join(d.dataDir, "apps");
  const limit = () => effectiveMemoryLimitBytes(d.memoryLimitMB(), total);
  const recycler = new Recycler({
    process: d.process,
    gate: d.gate,
    readRss: (pid) => readRssBytes(pid),
    limitBytes: limit,
    lowWatermarkBytes,
    now,
    log: d.log,
    ...(t.memoryCheckMs !== undefined ? { intervalMs: t.memoryCheckMs } : {}),
    ...(t.busyGraceMs !== undefined ? { busyGraceMs: t.busyGraceMs } : {}),
    ...(t.idleRecycleMs !== undefined ? { idleRecycleMs: t.idleRecycleMs } : {}),
    ...(t.minUptimeMs !== undefined ? { minUptimeMs: t.minUptimeMs } : {}),
    ...(t.drainTimeoutMs !== undefined ? { drainTimeoutMs: t.drainTimeoutMs } : {}),
    ...(t.maxHoldMs !== undefined ? { maxHoldMs: t.maxHoldMs } : {}),
    onRecycle: () => d.onChange?.(),
    ...(d.process.prepareSuccessor
      ? { prepareSuccessor: () => d.process.prepareSuccessor!((client) => bootInstancesInUse(client)) }
      : {}),
    ...(d.process.discardSuccessor ? { discardSuccessor: () => d.process.discardSuccessor!() } : {}),
  });

  /** Tool-set folders primed in a replacement, for the pre-warm that follows its swap. */
  const primedForSwap: string[] = [];
  /** Boots and primes, in the replacement OpenCode, the default instance and the instances most recently in use (one at a time,
   *  each bounded), so requests after the swap find them booted. */
  const bootInstancesInUse = async (client: (directory?: string) => OpencodeClient): Promise<void> => {
    const inUse = d.backend
      .liveInstances()
      .slice(-(t.prewarmMax ?? 4))
      .reverse();
    primedForSwap.splice(0, primedForSwap.length, ...inUse);
    for (const dir of [undefined, ...inUse]) {
      if (stopped) return;
      const t0 = now();
      const name = dir ? path.relative(appsRoot, dir) : "the default instance";
      await primeInstance(client(dir), d.sideChannel).then(
        () => d.log(`[opencode] replacement: primed ${name} in ${now() - t0} ms`),
        (err: unknown) => d.log(`[opencode] replacement: priming ${name} failed: ${String(err)}`),
      );
    }
  };
  const timers: NodeJS.Timeout[] = [];
  let offStatus: (() => void) | null = null;
  let lastUrl: string | null = null;
  let prewarming: Promise<void> = Promise.resolve();
  let stopped = false;

  const prewarm = async (): Promise<void> => {
    const planned = planPrewarm(await listToolsetFolders(appsRoot), {
      now: now(),
      perApp: t.prewarmPerApp ?? 2,
      maxTotal: t.prewarmMax ?? 4,
      maxAgeMs: t.prewarmMaxAgeMs ?? 7 * 24 * 3600_000,
    });
    // After a swap, the instances primed in the replacement come first: booting them again is quick, and it is how
    // the backend's instance pool learns they are live (so the reaper and the live-instance cap count them).
    const dirs = [...new Set([...primedForSwap.splice(0), ...planned])].slice(0, t.prewarmMax ?? 4);
    // One at a time: each boot costs seconds of CPU, and requests must keep theirs.
    for (const dir of dirs) {
      // Requests first: one that waited for this start boots what it needs itself, and priming beside it (a model
      // call on the warm-up model) would only take its CPU. Bounded, so sustained load does not skip pre-warming.
      await d.gate.drained(t.prewarmYieldMs ?? 30_000);
      if (stopped || d.process.stopRequested || d.process.status().state !== "ready") return;
      const t0 = now();
      await d.backend
        .bootDirectory(dir)
        .then(() => d.log(`[opencode] pre-warmed ${path.relative(appsRoot, dir)} in ${now() - t0} ms`))
        .catch((err: unknown) => d.log(`[opencode] pre-warming ${dir} failed: ${String(err)}`));
    }
  };

  const reapInstances = () => {
    const gone = d.backend.reapIdleInstances(t.instanceIdleMs ?? 10 * 60_000);
    if (gone.length) d.log(`[opencode] disposed ${gone.length} idle instance(s)`);
  };
  const reapFolders = async () => {
    if (d.process.status().state === "sleeping") return; // its session check would wake OpenCode; next time
    const removed = await reapToolsetFolders({
      appsRoot,
      liveDirectories: () => d.backend.liveInstances(),
      hasSessions: d.hasSessions,
      now: now(),
      maxAgeMs: t.folderMaxAgeMs ?? 7 * 24 * 3600_000,
    });
    if (removed.length) d.log(`[opencode] removed ${removed.length} unused tool-set folder(s)`);
  };

  return {
    start() {
      if (offStatus) return;
      offStatus = d.process.onStatus((s) => {
        if (s.state !== "ready" || s.url === lastUrl) {
          if (s.state !== "ready") lastUrl = null;
          return;
        }
        lastUrl = s.url;
        prewarming = prewarm().catch((err: unknown) => d.log(`[opencode] pre-warm failed: ${String(err)}`));
      });
      recycler.start();
      const every = (ms: number, fn: () => unknown) => {
        const h = setInterval(
          () =>
            void Promise.resolve()
              .then(fn)
              .catch(() => {}),
          ms,
        );
        h.unref();
        timers.push(h);
      };
      every(t.reapEveryMs ?? 60_000, reapInstances);
      every(t.folderReapEveryMs ?? 6 * 3600_000, reapFolders);
    },
    async stop() {
      stopped = true;
      offStatus?.();
      for (const h of timers.splice(0)) clearInterval(h);
      await recycler.stop();
    },
    status() {
      return {
        patchbayRssBytes: process.memoryUsage().rss,
        opencodeRssBytes: d.process.status().state === "ready" ? recycler.lastRssBytes : null,
        memoryLimitBytes: limit(),
        liveInstances: d.backend.liveInstances().length,
        recycles: recycler.recycles,
        lastRecycle: recycler.lastRecycle(),
      };
    },
    checkMemory: () => recycler.tick(),
    prewarmed: () => prewarming,
    lastRecycle: () => recycler.lastRecycle(),
  };
}
