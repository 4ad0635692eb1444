// Supervises Patchbay's own `opencode serve` child: its lifecycle (start, readiness, health, restart with backoff,
// recycle, clean stop) and status. Spawning is spawn.ts, the recycle's replacement successor.ts, the credential and
// SDK clients connection.ts. Owns the process only: it never creates sessions or interprets OpenCode events.
import type { OpencodeClient } from "@opencode-ai/sdk/v2";
import type { OpenCodeStatus } from "../../../shared/status";
import { checkHealth, signalGuard, sleep, STOP_GRACE_MS, type Running } from "./child-process";
import { downError, FailedRetry, startingError, WAKE_WAIT_MS } from "./retry-policy";
import { untilSettled, WakeSlot } from "./wake-slot";
import { OpenCodeCredential, openCodeClient, type OpenCodeConnection } from "./connection";
import type { OpenCodeHome } from "./home/home";
import { probeOptions, startHealthProbe } from "./health-probe";
import { spawnOpenCode, type SpawnHost } from "./spawn";
import { SuccessorSlot, type WarmSuccessor } from "./successor";
import type { OpenCodeSupervisorOptions } from "./supervisor-options";

export type { OpenCodeSupervisorOptions } from "./supervisor-options";

type Listener = (status: OpenCodeStatus) => void;

const STABLE_AFTER_MS = 60_000;

/**
 * The supervised `opencode serve`. States: stopped → starting → ready; a crash → restarting (backoff) → ready;
 * `failed` (reason, `nextRetryAt`) when the binary is missing or startups keep failing, retried with a backoff or by
 * {@link retryNow}; ready → `sleeping` ({@link sleep}) → starting ({@link wake}, `whenReady()`). `start()` never throws
 * for a failing child; `whenReady()` throws PatchbayError `backend_starting` / `backend_unavailable`.
 *
 * @example
 *   const sideChannel = new SideChannel();
 *   const oc = new OpenCodeSupervisor({ dataDir, user: { authFile, configFile }, sideChannel });
 *   await oc.start();               // ready or failed
 *   await oc.whenReady(10_000);     // throws PatchbayError when not ready in time
 *   const client = oc.client(dir);  // SDK v2 client with the Basic auth header
 */
export class OpenCodeSupervisor {
  private readonly log: (line: string) => void;
  private readonly listeners = new Set<Listener>();
  private readonly credential = new OpenCodeCredential();
  private state: OpenCodeStatus = { state: "stopped", reason: null, version: null, url: null, pid: null, restarts: 0 };
  private running: Running | null = null;
  private stopping = false;
  private startupFailures = 0;
  private crashes = 0;
  private readonly retry = new FailedRetry();
  private readonly wakeSlot = new WakeSlot({
    stillAsleep: () => !this.stopping && this.state.state === "sleeping",
    start: () => this.start(),
    log: (line) => this.log(line),
  });
  private restartTimer: NodeJS.Timeout | null = null;
  private stopHealth: (() => void) | null = null;
  private settle: Promise<void> | null = null;
  private home: OpenCodeHome | null = null;
  /** The next process while {@link prepareSuccessor} runs or after it succeeded (until recycle() or stop()). */
  private readonly successor = new SuccessorSlot({
    log: (line) => this.log(line),
    spawnDeferred: (onProblem) => spawnOpenCode(this.spawnHost, onProblem, { deferPidFile: true }),
    retire: (run) => this.retire(run),
    recordPid: () => this.recordPid(),
    stopping: () => this.stopping,
  });
  /** How spawn.ts reports back (handlers check whether the run is still the current one or the successor). */
  private readonly spawnHost: SpawnHost;
  /** Former processes still exiting (after a swap). */
  private readonly retiring = new Set<Running>();

  constructor(private readonly opts: OpenCodeSupervisorOptions) {
    this.log = opts.log ?? ((line) => process.stderr.write(line + "\n"));
    this.spawnHost = {
      opts: this.opts,
      credential: this.credential,
      log: (line) => this.log(line),
      stopping: () => this.stopping,
      owns: (run) => this.owns(run),
      homePrepared: (home) => (this.home = home),
      spawned: (run, pid) => {
        if (this.running === run) this.setState({ pid });
      },
      listening: (run, url) => void this.onListening(run, url),
      exited: (run, reason) => this.onExit(run, reason),
    };
  }

  /** Current status (a copy). */
  status(): OpenCodeStatus {
    return { ...this.state };
  }

  /** Calls `listener` on every status change. Returns the unsubscribe function. */
  onStatus(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Notices from preparing the home (corrupt user config, auth link problems); empty before the first start. */
  notices(): string[] {
    return this.home ? [...this.home.notices] : [];
  }

  /** The directory of the default instance (no client tools): used for model lists and built-in tool ids. */
  defaultDirectory(): string | null {
    return this.home?.workDir ?? null;
  }

  /** Starts the child unless it is already running. Resolves once `ready` or `failed`; never throws for the child. */
  start(): Promise<void> {
    if (this.state.state === "ready") return Promise.resolve();
    if (this.settle && (this.state.state === "starting" || this.state.state === "restarting")) return this.settle;
    this.stopping = false;
    this.startupFailures = 0;
    this.crashes = 0;
    this.settle = this.untilSettled();
    void this.launch();
    return this.settle;
  }

  /**
   * Resolves when ready. Throws PatchbayError `backend_unavailable` when stopped/failed (or it fails while waiting),
   * `backend_starting` (503, retryAfter seconds) when still starting after `timeoutMs`.
   */
  async whenReady(timeoutMs: number): Promise<void> {
    const ready = () => this.state.state === "ready";
    if (ready()) return;
    this.throwIfDown();
    if (this.state.state === "sleeping") void this.wake();
    // A wake is an expected start (1–3 s quiet, 20–30 s on a starved machine): waiting beats a 503 and a retry.
    const waitMs = this.wakeSlot.active ? Math.max(timeoutMs, this.opts.wakeWaitMs ?? WAKE_WAIT_MS) : timeoutMs;
    await untilSettled((l) => this.onStatus(l), waitMs);
    if (ready()) return;
    this.throwIfDown();
    throw startingError();
  }

  /** SDK v2 client for the running server (Basic auth header set), scoped to `directory` when given. */
  client(directory?: string): OpencodeClient {
    const conn = this.connection();
    if (!conn) {
      this.throwIfDown();
      throw startingError();
    }
    return openCodeClient(conn, directory);
  }

  /** URL and Authorization header of the running server, or null (for raw HTTP such as the event stream). */
  connection(): OpenCodeConnection | null {
    const url = this.running?.url;
    if (!url || this.state.state !== "ready") return null;
    return this.credential.at(url);
  }

  /** True from the moment stop() is called (the state says `ready` until the child has exited). */
  get stopRequested(): boolean {
    return this.stopping;
  }

  /** When the current process became ready (epoch ms), null when not ready. */
  readyAt(): number | null {
    return this.state.state === "ready" ? (this.running?.readyAt ?? null) : null;
  }

  /** Stops OpenCode after the keep-alive period (`sleeping`) until {@link wake} or the next `whenReady()`; the caller
   *  holds requests (runtime/keep-alive.ts). Resolves true once it has exited; false (no-op) unless ready. */
  async sleep(reason: string): Promise<boolean> {
    const r = this.running;
    if (!r || this.stopping || this.state.state !== "ready") return false;
    this.clearTimers();
    this.successor.discard();
    this.running = null; // onExit then ignores its exit: no restart
    this.setState({ state: "sleeping", reason, url: null, pid: null });
    this.retire(r);
    return this.wakeSlot.slept(r.exited).then(() => true);
  }

  /** Starts OpenCode after {@link sleep}; resolves once ready or failed (no-op unless sleeping or starting). */
  wake(): Promise<void> {
    if (this.state.state === "sleeping") return this.wakeSlot.wake();
    return this.state.state === "starting" && this.settle ? this.settle : Promise.resolve();
  }

  /** "Restart OpenCode" of a `failed` or `restarting` one: starts now, counters reset; resolves once ready/failed. */
  retryNow(): Promise<void> {
    const st = this.state.state;
    if (this.stopping || (st !== "failed" && st !== "restarting")) return Promise.resolve();
    this.clearTimers(); // the crash backoff's timer and the failed retry's
    this.retry.reset();
    this.startupFailures = this.crashes = 0;
    const settled = (this.settle = this.untilSettled());
    void this.launch();
    return settled;
  }

  /**
   * Restarts OpenCode on purpose (memory limit, long idle), without backoff and without counting a crash. Sessions
   * live in OpenCode's database and survive. With a successor from {@link prepareSuccessor} the swap is immediate:
   * the successor becomes current and the old process gets SIGTERM (SIGKILL after 3 s) in the background. Without
   * one, the old process is stopped first and a fresh one started. The caller drains requests first (see
   * runtime/recycler.ts). Resolves once the new process is ready or failed; no-op unless ready.
   */
  async recycle(reason: string): Promise<void> {
    const r = this.running;
    if (!r || this.stopping || this.state.state !== "ready") return this.successor.discard();
    this.log(`[opencode] recycling (${reason})`);
    r.recycled = true;
    this.clearTimers();
    const next = this.successor.take();
    if (next?.url) {
      this.running = next;
      this.setState({ state: "ready", reason: null, url: next.url, pid: next.pid, version: next.version ?? null });
      this.scheduleHealth(next, this.credential.authorization);
      this.retire(r);
      this.recordPid(); // the replacement's guard deferred its pid file until now
      return;
    }
    this.settle = this.untilSettled();
    const settled = this.settle;
    this.setState({ state: "restarting", reason: `recycling: ${reason}`, url: null, pid: null });
    signalGuard(r, "SIGTERM");
    const killer = setTimeout(() => signalGuard(r, "SIGKILL"), STOP_GRACE_MS);
    await r.exited;
    clearTimeout(killer);
    await settled;
  }

  /**
   * Starts the next OpenCode beside the current one and waits until it answers, so a recycle only swaps (no start-up
   * while requests are held). Two `opencode serve` on one home share its SQLite database safely (see README). The
   * successor serves nothing until {@link recycle}; resolves true when it is ready, false when it could not start
   * (then recycle() falls back to stop-then-start). `warm` runs once it answers, with clients of the successor (e.g.
   * to boot the instances in use, so the first requests after the swap find them booted); its failure is logged,
   * not fatal. Idempotent while one is being prepared.
   */
  prepareSuccessor(warm?: WarmSuccessor): Promise<boolean> {
    return this.successor.prepare(warm, !this.stopping && this.state.state === "ready");
  }

  /** Stops a replacement being prepared or kept ready (a postponed or abandoned recycle, a crash, stop()); its
   *  {@link prepareSuccessor} promise resolves false. No-op without one. */
  discardSuccessor(): void {
    this.successor.discard();
  }

  /** Asks the current process's guard to (re)write the pid file (leftover cleanup reads it after a crash). */
  private recordPid(): void {
    const r = this.running;
    if (!r || r.hasExited) return;
    r.recordPid();
  }

  /** Stops a process that is no longer current (SIGTERM, SIGKILL after 3 s); stop() waits for it. */
  private retire(run: Running): void {
    this.retiring.add(run);
    signalGuard(run, "SIGTERM");
    const killer = setTimeout(() => signalGuard(run, "SIGKILL"), STOP_GRACE_MS);
    void run.exited.then(() => {
      clearTimeout(killer);
      this.retiring.delete(run);
    });
  }

  /** Stops the child: SIGTERM, then SIGKILL after 3 s; leaves no process behind. Idempotent. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.clearTimers();
    this.successor.discard();
    // Every process at once (current, replacement, former ones still exiting), then wait for all.
    if (this.running) this.retire(this.running);
    await Promise.all([...this.retiring].map((r) => r.exited));
    this.running = null;
    this.setState({ state: "stopped", reason: null, url: null, pid: null });
  }

  // ---- internals -------------------------------------------------------------------------------------------------

  private throwIfDown(): void {
    const down = downError(this.state, Date.now());
    if (down) throw down;
  }

  private untilSettled(): Promise<void> {
    return untilSettled((l) => this.onStatus(l));
  }

  private setState(patch: Partial<OpenCodeStatus>): void {
    const next = { ...this.state, ...patch };
    if (next.state !== "failed") delete next.nextRetryAt;
    if (next.state === "ready" || next.state === "failed" || next.state === "stopped") this.wakeSlot.settled();
    if (JSON.stringify(next) === JSON.stringify(this.state)) return;
    this.state = next;
    for (const l of [...this.listeners]) {
      try {
        l({ ...next });
      } catch (err) {
        this.log(`[opencode] status listener threw: ${String(err)}`);
      }
    }
  }

  /** `failed`, retried after a backoff: fixing the cause (a login, the binary) must not need a restart of Patchbay. */
  private fail(reason: string): void {
    const delay = this.retry.schedule(this.opts.failedRetry, () => {
      if (this.stopping || this.state.state !== "failed") return;
      this.startupFailures = (this.opts.maxStartupFailures ?? 3) - 1; // one attempt per retry
      this.settle = this.untilSettled();
      void this.launch();
    });
    this.log(`[opencode] failed: ${reason}; trying again in ${Math.round(delay / 1000)} s`);
    this.setState({ state: "failed", reason, url: null, pid: null, nextRetryAt: Date.now() + delay });
  }

  private async launch(): Promise<void> {
    if (this.stopping) return;
    if (this.state.state !== "restarting") this.setState({ state: "starting", reason: null });
    const run = await spawnOpenCode(this.spawnHost, (problem) => this.fail(problem));
    if (run) this.running = run;
  }

  /** True for the current process and for a successor being prepared. */
  private owns(run: Running): boolean {
    return this.running === run || this.successor.holds(run);
  }

  private async onListening(run: Running, url: string): Promise<void> {
    run.url = url;
    const auth = this.credential.authorization;
    // Requests sent before the listening line can hang forever; after it, poll health with short timeouts.
    for (let attempt = 0; attempt < 20 && this.owns(run) && !this.stopping; attempt++) {
      const health = await checkHealth(url, auth, 1000);
      if (health) {
        if (!this.owns(run) || this.stopping) return;
        run.readyAt = Date.now();
        run.version = health.version ?? null;
        if (this.successor.holds(run)) return this.successor.answered(run, this.credential.at(url));
        this.startupFailures = 0;
        this.retry.reset();
        this.setState({ state: "ready", reason: null, url, pid: run.pid, version: run.version });
        this.scheduleHealth(run, auth);
        return;
      }
      await sleep(250);
    }
    if (this.owns(run) && !this.stopping) {
      this.log("[opencode] health check kept failing after the listening line; killing it");
      signalGuard(run, "SIGKILL");
    }
  }

  private scheduleHealth(run: Running, auth: string): void {
    if (!run.url) return;
    this.stopHealth = startHealthProbe(
      probeOptions(this.opts, { url: run.url, authorization: auth, pid: run.pid }, this.log, {
        stillWatched: () => this.running === run && !this.stopping && !run.recycled,
        kill: () => signalGuard(run, "SIGKILL"),
      }),
    );
  }

  private onExit(run: Running, reason: string): void {
    run.hasExited = true;
    if (this.successor.holds(run)) return this.successor.exited(run, reason);
    if (this.running !== run) return;
    this.running = null;
    this.clearTimers();
    if (this.stopping) return; // stop() sets `stopped`
    if (!run.recycled) this.successor.discard(); // a crash: start afresh, do not keep a replacement nobody watches
    const wasReady = run.readyAt !== null;
    if (run.recycled) {
      // A planned restart: no backoff, no crash counted; the state already says `restarting`.
      void this.launch();
      return;
    }
    this.log(`[opencode] exited: ${reason}`);
    if (!wasReady) {
      this.startupFailures++;
      if (this.startupFailures >= (this.opts.maxStartupFailures ?? 3)) {
        return this.fail(`OpenCode exited during startup ${this.startupFailures} times; last: ${reason}`);
      }
    } else if (Date.now() - (run.readyAt ?? 0) > STABLE_AFTER_MS) {
      this.crashes = 0;
    }
    const { initialMs, maxMs } = this.opts.backoff ?? { initialMs: 500, maxMs: 30_000 };
    const delay = Math.min(maxMs, initialMs * 2 ** this.crashes);
    this.crashes++;
    if (this.state.state === "ready") this.settle = this.untilSettled(); // start() callers wait for the next outcome
    this.setState({ state: "restarting", reason, url: null, pid: null, restarts: this.state.restarts + 1 });
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      void this.launch();
    }, delay);
  }

  private clearTimers(): void {
    this.retry.cancel();
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.stopHealth?.();
    this.restartTimer = null;
    this.stopHealth = null;
  }
}
