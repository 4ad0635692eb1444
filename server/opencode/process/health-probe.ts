// The wedge probe of a running OpenCode: `GET /global/health` on a timer, and when answers stop, whether the process
// is stuck or just busy (wedge-policy.ts decides from /proc). Owns the timer and the miss streak; killing
// the process is the caller's (`onWedged`).
import { checkHealth } from "./child-process";
import { readProcStat } from "./process-memory";
import type { OpenCodeSupervisorOptions } from "./supervisor-options";
import { isWedged, shouldProbe } from "./wedge-policy";

/** Options of {@link startHealthProbe}. Times in ms. */
export interface HealthProbeOptions {
  url: string;
  authorization: string;
  /** OpenCode's pid (for /proc reads), null when unknown. */
  pid: number | null;
  /** Probe period while requests need OpenCode. */
  periodMs: number;
  /** Period while `isIdle()`. */
  idlePeriodMs: number;
  /** Per-probe timeout. */
  timeoutMs: number;
  /** Misses in a row that mean wedged when the process is not working (a working one gets 10 more). */
  minMisses: number;
  isIdle: () => boolean;
  /** False once the process is no longer the one to watch (replaced, stopping): probes stop counting. */
  stillWatched: () => boolean;
  /** Called once when the process is judged wedged, with a sentence for the log. */
  onWedged: (detail: string) => void;
  log: (line: string) => void;
}

/** The probe of one running process with the supervisor's timings (defaults: every 5 s, every 60 s while idle, 3 s
 *  timeout, 2 misses). A wedge — port open but no answer (the upstream tracker's "hangs after days"; SIGSTOP
 *  reproduces it) — is killed with SIGKILL (a frozen process ignores SIGTERM); the supervisor's exit handler starts a
 *  fresh one and in-flight requests fail through the event hub's "down" notice. */
export function probeOptions(
  opts: OpenCodeSupervisorOptions,
  target: Pick<HealthProbeOptions, "url" | "authorization" | "pid">,
  log: (line: string) => void,
  run: { stillWatched: () => boolean; kill: () => void },
): HealthProbeOptions {
  return {
    ...target,
    periodMs: opts.healthIntervalMs ?? 5_000,
    idlePeriodMs: opts.idleHealthIntervalMs ?? 60_000,
    timeoutMs: opts.healthTimeoutMs ?? 3_000,
    minMisses: opts.healthMisses ?? 2,
    isIdle: () => opts.isIdle?.() ?? false,
    stillWatched: run.stillWatched,
    onWedged: (detail) => {
      log(`[opencode] wedged: ${detail}; killing it`);
      run.kill();
    },
    log,
  };
}

/** Starts probing; returns the function that stops it. */
export function startHealthProbe(o: HealthProbeOptions): () => void {
  let misses = 0;
  let probing = false;
  let firstMiss: { at: number; cpuTicks: number | null } | null = null;
  let lastProbeAt = -Infinity;
  const timer = setInterval(() => {
    if (!o.stillWatched() || probing) return;
    if (
      !shouldProbe({
        misses,
        idle: o.isIdle(),
        sinceLastProbeMs: Date.now() - lastProbeAt,
        idlePeriodMs: o.idlePeriodMs,
      })
    )
      return;
    probing = true;
    const startedAt = Date.now();
    lastProbeAt = startedAt;
    const before = o.pid ? readProcStat(o.pid) : Promise.resolve(null);
    void Promise.all([checkHealth(o.url, o.authorization, o.timeoutMs), before]).then(async ([h, statBefore]) => {
      probing = false;
      if (h) {
        misses = 0;
        firstMiss = null;
        return;
      }
      misses++;
      firstMiss ??= { at: startedAt, cpuTicks: statBefore?.cpuTicks ?? null };
      const now = o.pid ? await readProcStat(o.pid) : null;
      const cpu = now && firstMiss.cpuTicks !== null ? now.cpuTicks - firstMiss.cpuTicks : null;
      const wedged = isWedged({
        misses,
        state: now?.state ?? null,
        cpuTicksSinceFirstMiss: cpu,
        msSinceFirstMiss: Date.now() - firstMiss.at,
        minMisses: o.minMisses,
        // A starved machine (load 15+ on 2 cores was seen) keeps a booting OpenCode from answering for 20 s and
        // more while it works: only a minute of that counts as a spin.
        maxMisses: o.minMisses + 10,
      });
      if (!wedged || !o.stillWatched()) {
        if (misses >= o.minMisses)
          o.log(`[opencode] ${misses} health probes missed but it is working (${cpu} CPU ticks); waiting`);
        return;
      }
      clearInterval(timer);
      o.onWedged(
        `${misses} health probes in a row got no answer within ${o.timeoutMs} ms ` +
          `(state ${now?.state ?? "?"}, ${cpu ?? "?"} CPU ticks since the first miss)`,
      );
    });
  }, o.periodMs);
  timer.unref();
  return () => clearInterval(timer);
}
