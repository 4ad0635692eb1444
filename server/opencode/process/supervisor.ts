// Supervises Patchbay's own `opencode serve` child: home preparation, spawn through the child guard, readiness
// (listening line, then health with short timeouts), restart with backoff, clean stop, status. Owns the process only:
// it never creates sessions or interprets OpenCode events.
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import readline from "node:readline";
import { createOpencodeClient, type OpencodeClient } from "@opencode-ai/sdk/v2";
import type { OpenCodeStatus } from "../../../shared/status";
import { PatchbayError } from "../../core/errors";
import { checkOpenCodeBinary, resolveOpenCodeBinary } from "./binary";
import {
  checkHealth,
  DEFER_PIDFILE_ENV,
  describeExit,
  freePort,
  GUARD,
  GuardMessage,
  LISTENING,
  signalGuard,
  sleep,
  STOP_GRACE_MS,
  type Running,
} from "./child-process";
import { killOpenCodeGroup } from "./leftover";
import { buildChildEnv } from "./child-env";
import { prepareOpenCodeHome, type OpenCodeHome } from "./home/home";
import { startHealthProbe } from "./health-probe";
import type { SideChannelEndpoint } from "../protocol/side-channel";

/** Options of {@link OpenCodeSupervisor}. Only `dataDir`, `user` and `sideChannel` are required. */
export interface OpenCodeSupervisorOptions {
  /** Patchbay's data folder; OpenCode's home goes to `<dataDir>/opencode/`. */
  dataDir: string;
  /** The user's OpenCode files (auth.json linked, provider sections of opencode.json taken). */
  user: { authFile: string | null; configFile: string | null };
  /** Provider blocks Patchbay adds (e.g. `demoProviderConfig(url)`). */
  extraProviders?: Record<string, unknown>;
  /** Where the plugin reads specs: a started endpoint (`{url, token}`), or a SideChannel (started idempotently
   *  before each spawn). */
  sideChannel: SideChannelEndpoint | { start(): Promise<SideChannelEndpoint> };
  /** Path of the `opencode` binary (default: PATCHBAY_OPENCODE_BIN, then the pinned opencode-ai package). */
  binaryPath?: string;
  /** Diagnostic sink, one line per call (OpenCode's own output is forwarded prefixed `[opencode]`). */
  log?: (line: string) => void;
  /** Environment the child's passthrough variables come from (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Let OpenCode fetch models.dev at startup (default false: bundled snapshot, no network). */
  modelsFetch?: boolean;
  /** Max wait for the listening line + health, ms (default 60 000). */
  startupTimeoutMs?: number;
  /** Restart backoff, ms (default 500 → 30 000, doubling). */
  backoff?: { initialMs: number; maxMs: number };
  /** Consecutive failed startups before giving up with `failed` (default 3). */
  maxStartupFailures?: number;
  /** Health probe period while ready, ms (default 5 000). */
  healthIntervalMs?: number;
  /** True when no request needs OpenCode now (e.g. none for a minute): probes then run only every
   *  `idleHealthIntervalMs`, since a wedge matters once a request comes, and the probe is most of an idle tray app's
   *  CPU. Default: never idle. */
  isIdle?: () => boolean;
  /** Health probe period while `isIdle()`, ms (default 60 000). */
  idleHealthIntervalMs?: number;
  /** Health probe timeout, ms (default 3 000). */
  healthTimeoutMs?: number;
  /** Missed probes in a row that mean "wedged" (port open, not answering) when the process is also not working
   *  (stopped, or no CPU progress; see runtime/wedge-policy.ts): killed and restarted (default 2; a process that keeps
   *  burning CPU gets 10 more). Worst case from freeze to kill: interval × misses + timeout = 13 s with the defaults
   *  (≈ 63 s for a process that spins without answering). */
  healthMisses?: number;
  /** Companion plugin source to copy into the home (default: the shipped one). */
  pluginSource?: string;
}

type Listener = (status: OpenCodeStatus) => void;

/** A successor being prepared (`run` is set once spawned) or ready to take over. */
interface Successor {
  run: Running;
  ready: boolean;
  done: Promise<boolean>;
  warm: ((client: (directory?: string) => OpencodeClient) => Promise<void>) | null;
  settle(ok: boolean): void;
}

const STABLE_AFTER_MS = 60_000;

/**
 * The supervised `opencode serve`. States: stopped → starting → ready; a crash → restarting (backoff) → ready;
 * `failed` (with a reason) when the binary is missing/not executable or startups keep failing. `start()` never throws
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
  private readonly opts: OpenCodeSupervisorOptions;
  private readonly log: (line: string) => void;
  private readonly listeners = new Set<Listener>();
  private readonly password = crypto.randomBytes(24).toString("base64url");
  private state: OpenCodeStatus = { state: "stopped", reason: null, version: null, url: null, pid: null, restarts: 0 };
  private running: Running | null = null;
  private stopping = false;
  private startupFailures = 0;
  private crashes = 0;
  private restartTimer: NodeJS.Timeout | null = null;
  private stopHealth: (() => void) | null = null;
  private settle: Promise<void> | null = null;
  private home: OpenCodeHome | null = null;
  /** The next process while {@link prepareSuccessor} runs or after it succeeded (until recycle() or stop()). */
  private successor: Successor | null = null;
  /** Former processes still exiting (after a swap). */
  private readonly retiring = new Set<Running>();

  constructor(opts: OpenCodeSupervisorOptions) {
    this.opts = opts;
    this.log = opts.log ?? ((line) => process.stderr.write(line + "\n"));
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
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, Math.max(0, timeoutMs));
      const off = this.onStatus((s) => {
        if (s.state === "ready" || s.state === "failed" || s.state === "stopped") done();
      });
      function done() {
        clearTimeout(timer);
        off();
        resolve();
      }
    });
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
    return createOpencodeClient({
      baseUrl: conn.url,
      headers: { authorization: conn.authorization },
      ...(directory ? { directory } : {}),
    });
  }

  /** URL and Authorization header of the running server, or null (for raw HTTP such as the event stream). */
  connection(): { url: string; authorization: string } | null {
    const url = this.running?.url;
    if (!url || this.state.state !== "ready") return null;
    return { url, authorization: "Basic " + Buffer.from(`opencode:${this.password}`).toString("base64") };
  }

  /** True from the moment stop() is called (the state says `ready` until the child has exited). */
  get stopRequested(): boolean {
    return this.stopping;
  }

  /** When the current process became ready (epoch ms), null when not ready. */
  readyAt(): number | null {
    return this.state.state === "ready" ? (this.running?.readyAt ?? null) : null;
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
    if (!r || this.stopping || this.state.state !== "ready") return this.discardSuccessor();
    this.log(`[opencode] recycling (${reason})`);
    r.recycled = true;
    this.clearTimers();
    const next = this.successor?.ready ? this.successor.run : null;
    this.successor = null;
    if (next && !next.hasExited && next.url) {
      this.running = next;
      this.setState({ state: "ready", reason: null, url: next.url, pid: next.pid, version: next.version ?? null });
      this.scheduleHealth(next, "Basic " + Buffer.from(`opencode:${this.password}`).toString("base64"));
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
  prepareSuccessor(warm?: (client: (directory?: string) => OpencodeClient) => Promise<void>): Promise<boolean> {
    if (this.successor) return this.successor.done;
    if (this.stopping || this.state.state !== "ready") return Promise.resolve(false);
    let settle!: (ok: boolean) => void;
    const done = new Promise<boolean>((r) => (settle = r));
    const successor: Successor = {
      run: null as unknown as Running,
      ready: false,
      done,
      warm: warm ?? null,
      settle: (ok) => {
        if (this.successor === successor) {
          successor.ready = ok;
          if (!ok) this.successor = null;
        }
        settle(ok);
      },
    };
    this.successor = successor;
    void this.spawnRun(
      (problem) => {
        this.log(`[opencode] could not start a replacement OpenCode: ${problem}`);
        successor.settle(false);
      },
      { deferPidFile: true },
    ).then((run) => {
      if (!run) return;
      successor.run = run;
      if (this.successor !== successor || this.stopping) this.retire(run);
    });
    return done;
  }

  /** Stops a replacement being prepared or kept ready (a postponed or abandoned recycle, a crash, stop()); its
   *  {@link prepareSuccessor} promise resolves false. No-op without one. */
  discardSuccessor(): void {
    const successor = this.successor;
    if (!successor) return;
    successor.settle(false);
    this.successor = null;
    // `run` is unset until spawned; the spawn callback retires it then.
    if (successor.run) {
      this.retire(successor.run);
      // Its guard removes the shared pid file on exit: record the current process again.
      void successor.run.exited.then(() => this.recordPid());
    }
  }

  /** Asks the current process's guard to (re)write the pid file (leftover cleanup reads it after a crash). */
  private recordPid(): void {
    const r = this.running;
    if (!r || r.hasExited) return;
    try {
      r.guard.send({ type: "record-pid" });
    } catch {}
  }

  private async warmSuccessor(successor: Successor, url: string, authorization: string): Promise<void> {
    if (successor.warm) {
      const client = (directory?: string) =>
        createOpencodeClient({ baseUrl: url, headers: { authorization }, ...(directory ? { directory } : {}) });
      await successor
        .warm(client)
        .catch((err: unknown) => this.log(`[opencode] warming the replacement failed: ${String(err)}`));
    }
    successor.settle(!successor.run.hasExited);
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
    this.discardSuccessor();
    // Every process at once (current, replacement, former ones still exiting), then wait for all.
    if (this.running) this.retire(this.running);
    await Promise.all([...this.retiring].map((r) => r.exited));
    this.running = null;
    this.setState({ state: "stopped", reason: null, url: null, pid: null });
  }

  // ---- internals -------------------------------------------------------------------------------------------------

  private throwIfDown(): void {
    const s = this.state;
    if (s.state === "failed")
      throw new PatchbayError("backend_unavailable", `OpenCode is not available: ${s.reason ?? "it failed to start"}.`);
    if (s.state === "stopped") throw new PatchbayError("backend_unavailable", "OpenCode is not running.");
  }

  private untilSettled(): Promise<void> {
    return new Promise<void>((resolve) => {
      const off = this.onStatus((s) => {
        if (s.state === "ready" || s.state === "failed" || s.state === "stopped") {
          off();
          resolve();
        }
      });
    });
  }

  private setState(patch: Partial<OpenCodeStatus>): void {
    const next = { ...this.state, ...patch };
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

  private fail(reason: string): void {
    this.log(`[opencode] failed: ${reason}`);
    this.setState({ state: "failed", reason, url: null, pid: null });
  }

  private async launch(): Promise<void> {
    if (this.stopping) return;
    if (this.state.state !== "restarting") this.setState({ state: "starting", reason: null });
    const run = await this.spawnRun((problem) => this.fail(problem));
    if (run) this.running = run;
  }

  /**
   * Prepares the home and spawns one `opencode serve` through the guard, wired to this supervisor (output, exit,
   * start-up timeout). Returns null after calling `onProblem` when it could not be spawned. The caller makes it the
   * current process or the successor at once (handlers check which it is).
   */
  private async spawnRun(
    onProblem: (reason: string) => void,
    opts: { deferPidFile?: boolean } = {},
  ): Promise<Running | null> {
    const binary = resolveOpenCodeBinary(this.opts.binaryPath, this.opts.env ?? process.env);
    const problem = checkOpenCodeBinary(binary);
    if (problem) return (void onProblem(problem), null);

    let env: Record<string, string>;
    let port: number;
    try {
      this.home = prepareOpenCodeHome({
        dataDir: this.opts.dataDir,
        user: this.opts.user,
        extraProviders: this.opts.extraProviders,
        pluginSource: this.opts.pluginSource,
      });
      for (const n of this.home.notices) this.log(`[opencode] notice: ${n}`);
      const sc = this.opts.sideChannel;
      const sideChannel = "start" in sc ? await sc.start() : sc;
      if (!sideChannel.url) throw new Error("the side channel is not started");
      port = await freePort();
      env = buildChildEnv({
        parent: this.opts.env ?? process.env,
        home: this.home.env,
        password: this.password,
        sideChannel,
        passthrough: this.home.envRefs,
        modelsFetch: this.opts.modelsFetch,
      });
    } catch (err) {
      onProblem(`could not prepare OpenCode's home in ${this.opts.dataDir}: ${(err as Error).message}`);
      return null;
    }
    if (this.stopping) return null;

    const guard = spawn(process.execPath, [GUARD, binary, "serve", "--hostname", "127.0.0.1", "--port", String(port)], {
      cwd: this.home.workDir,
      // A replacement's guard records its pid only when told (at the swap): the pid file names the current process.
      env: { ...env, ELECTRON_RUN_AS_NODE: "1", ...(opts.deferPidFile ? { [DEFER_PIDFILE_ENV]: "1" } : {}) },
      stdio: ["ignore", "pipe", "pipe", "ipc"],
      // Own process group: a terminal's Ctrl-C reaches Patchbay, which stops the child in order.
      detached: process.platform !== "win32",
      windowsHide: true,
    });
    let resolveExit!: () => void;
    const run: Running = {
      guard,
      pid: null,
      url: null,
      exited: new Promise<void>((r) => (resolveExit = r)),
      stderrTail: [],
      readyAt: null,
      hasExited: false,
      recycled: false,
    };
    let spawnError: string | null = null;

    guard.on("message", (raw) => {
      const msg = GuardMessage.safeParse(raw);
      if (!msg.success) return;
      if (msg.data.type === "spawned") {
        run.pid = msg.data.pid;
        if (this.running === run) this.setState({ pid: msg.data.pid });
      } else if (msg.data.type === "error") {
        spawnError = `could not run ${binary}: ${msg.data.message}`;
      }
    });
    readline.createInterface({ input: guard.stdout! }).on("line", (line) => {
      this.log(`[opencode] ${line}`);
      const m = LISTENING.exec(line);
      if (m && !run.url) void this.onListening(run, m[1] as string);
    });
    readline.createInterface({ input: guard.stderr! }).on("line", (line) => {
      this.log(`[opencode] ${line}`);
      run.stderrTail.push(line);
      if (run.stderrTail.length > 20) run.stderrTail.shift();
    });
    guard.on("error", (err) => {
      spawnError = `could not start the OpenCode guard process: ${err.message}`;
    });
    guard.on("exit", (code, signal) => {
      // A guard that died (SIGKILL) cannot stop OpenCode; do it here, before any restart starts a second one.
      if (run.pid) killOpenCodeGroup(run.pid);
      resolveExit();
      this.onExit(run, spawnError ?? describeExit(code, signal, run.stderrTail));
    });

    const startupTimeout = this.opts.startupTimeoutMs ?? 60_000;
    setTimeout(() => {
      if (this.owns(run) && run.readyAt === null && !run.hasExited) {
        this.log(`[opencode] not ready after ${startupTimeout} ms; killing it`);
        spawnError = `OpenCode did not become ready within ${Math.round(startupTimeout / 1000)} s`;
        signalGuard(run, "SIGKILL");
      }
    }, startupTimeout).unref();
    return run;
  }

  /** True for the current process and for a successor being prepared. */
  private owns(run: Running): boolean {
    return this.running === run || this.successor?.run === run;
  }

  private async onListening(run: Running, url: string): Promise<void> {
    run.url = url;
    const auth = "Basic " + Buffer.from(`opencode:${this.password}`).toString("base64");
    // Requests sent before the listening line can hang forever; after it, poll health with short timeouts.
    for (let attempt = 0; attempt < 20 && this.owns(run) && !this.stopping; attempt++) {
      const health = await checkHealth(url, auth, 1000);
      if (health) {
        if (!this.owns(run) || this.stopping) return;
        run.readyAt = Date.now();
        run.version = health.version ?? null;
        if (this.successor?.run === run) return this.warmSuccessor(this.successor, url, auth);
        this.startupFailures = 0;
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
    this.stopHealth = startHealthProbe({
      url: run.url,
      authorization: auth,
      pid: run.pid,
      periodMs: this.opts.healthIntervalMs ?? 5_000,
      idlePeriodMs: this.opts.idleHealthIntervalMs ?? 60_000,
      timeoutMs: this.opts.healthTimeoutMs ?? 3_000,
      minMisses: this.opts.healthMisses ?? 2,
      isIdle: () => this.opts.isIdle?.() ?? false,
      stillWatched: () => this.running === run && !this.stopping && !run.recycled,
      // Port open but no answer (the upstream tracker's "hangs after days"; SIGSTOP reproduces it): a frozen
      // process ignores SIGTERM, so kill it and its group; onExit starts a fresh one and in-flight requests fail
      // through the event hub's "down" notice.
      onWedged: (detail) => {
        this.log(`[opencode] wedged: ${detail}; killing it`);
        signalGuard(run, "SIGKILL");
      },
      log: this.log,
    });
  }

  private onExit(run: Running, reason: string): void {
    run.hasExited = true;
    if (this.successor?.run === run) {
      this.log(`[opencode] the replacement OpenCode exited before taking over: ${reason}`);
      return this.successor.settle(false);
    }
    if (this.running !== run) return;
    this.running = null;
    this.clearTimers();
    if (this.stopping) return; // stop() sets `stopped`
    if (!run.recycled) this.discardSuccessor(); // a crash: start afresh, do not keep a replacement nobody watches
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
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.stopHealth?.();
    this.restartTimer = null;
    this.stopHealth = null;
  }
}

/** 503 `backend_starting` with Retry-After 3 s: OpenCode is on its way up (starting or restarting). */
function startingError(): PatchbayError {
  return new PatchbayError("backend_starting", "OpenCode is still starting; retry in a few seconds.", {
    retryAfter: 3,
  });
}
