// Spawns one `opencode serve` through the child guard: prepares the home, builds the child's environment, starts the
// guard (guard.ts) and wires its output, reports and exit to the supervisor's handlers, with a start-up deadline. Used for the
// current process and for a successor alike; which one it becomes is the supervisor's business.
import readline from "node:readline";
import { checkOpenCodeBinary, resolveOpenCodeBinary } from "./binary";
import { buildChildEnv } from "./child-env";
import { describeExit, freePort, LISTENING, signalGuard, type Running } from "./child-process";
import type { OpenCodeCredential } from "./connection";
import { startGuard, type GuardMessage } from "./guard";
import { prepareOpenCodeHome, type OpenCodeHome } from "./home/home";
import { killOpenCodeGroup } from "./leftover";
import type { OpenCodeSupervisorOptions } from "./supervisor-options";

/** What a spawn reports back to its supervisor. Handlers check whether `run` is still theirs. */
export interface SpawnHost {
  readonly opts: OpenCodeSupervisorOptions;
  readonly credential: OpenCodeCredential;
  log(line: string): void;
  /** True once stop() was called: nothing new is spawned. */
  stopping(): boolean;
  /** True while `run` is the current process or the successor being prepared. */
  owns(run: Running): boolean;
  /** The home was (re)prepared (its notices, the default instance's directory). */
  homePrepared(home: OpenCodeHome): void;
  /** The guard reported OpenCode's pid. */
  spawned(run: Running, pid: number): void;
  /** OpenCode printed its listening line. */
  listening(run: Running, url: string): void;
  /** The guard exited (OpenCode with it), with a reason for the status. */
  exited(run: Running, reason: string): void;
}

/**
 * Prepares the home and spawns one `opencode serve` through the guard. Returns null after calling `onProblem` when it
 * could not be spawned (missing binary, home or side channel not ready). `deferPidFile`: the guard records its pid
 * only when told (a successor: the pid file names the current process).
 */
export async function spawnOpenCode(
  host: SpawnHost,
  onProblem: (reason: string) => void,
  opts: { deferPidFile?: boolean } = {},
): Promise<Running | null> {
  const binary = resolveOpenCodeBinary(host.opts.binaryPath, host.opts.env ?? process.env);
  const problem = checkOpenCodeBinary(binary);
  if (problem) return (void onProblem(problem), null);
  const prepared = await prepareChild(host).catch((err: unknown) => {
    onProblem(`could not prepare OpenCode's home in ${host.opts.dataDir}: ${(err as Error).message}`);
    return null;
  });
  if (!prepared || host.stopping()) return null;
  const { home, env, port } = prepared;
  // A failure reason that the exit reports instead of the exit code (spawn error, start-up timeout).
  const failure: { reason: string | null } = { reason: null };
  const guard = startGuard([binary, "serve", "--hostname", "127.0.0.1", "--port", String(port)], {
    cwd: home.workDir,
    env,
    deferPidFile: opts.deferPidFile,
    onMessage: (msg) => onGuardMessage(host, run, binary, failure, msg), // reports come on later ticks
  });
  let resolveExit!: () => void;
  const run: Running = {
    guard: guard.process,
    recordPid: guard.recordPid,
    pid: null,
    url: null,
    exited: new Promise<void>((r) => (resolveExit = r)),
    stderrTail: [],
    readyAt: null,
    hasExited: false,
    recycled: false,
  };
  wireGuard(host, run, failure, resolveExit);
  const startupTimeout = host.opts.startupTimeoutMs ?? 60_000;
  setTimeout(() => {
    if (host.owns(run) && run.readyAt === null && !run.hasExited) {
      host.log(`[opencode] not ready after ${startupTimeout} ms; killing it`);
      failure.reason = `OpenCode did not become ready within ${Math.round(startupTimeout / 1000)} s`;
      signalGuard(run, "SIGKILL");
    }
  }, startupTimeout).unref();
  return run;
}

/** The home, the child's environment and a free port. Throws when the home or the side channel cannot be set up. */
async function prepareChild(
  host: SpawnHost,
): Promise<{ home: OpenCodeHome; env: Record<string, string>; port: number }> {
  const home = prepareOpenCodeHome({
    dataDir: host.opts.dataDir,
    user: host.opts.user,
    extraProviders: host.opts.extraProviders,
    pluginSource: host.opts.pluginSource,
  });
  host.homePrepared(home);
  for (const n of home.notices) host.log(`[opencode] notice: ${n}`);
  const sc = host.opts.sideChannel;
  const sideChannel = "start" in sc ? await sc.start() : sc;
  if (!sideChannel.url) throw new Error("the side channel is not started");
  const port = await freePort();
  const env = buildChildEnv({
    parent: host.opts.env ?? process.env,
    home: home.env,
    password: host.credential.password,
    sideChannel,
    passthrough: home.envRefs,
    modelsFetch: host.opts.modelsFetch,
  });
  return { home, env, port };
}

/** What a guard's report means for the run: OpenCode's pid, or why it could not be started. */
function onGuardMessage(
  host: SpawnHost,
  run: Running,
  binary: string,
  failure: { reason: string | null },
  msg: GuardMessage,
): void {
  if (msg.type === "spawned") {
    run.pid = msg.pid;
    host.spawned(run, msg.pid);
  } else if (msg.type === "error") {
    failure.reason = `could not run ${binary}: ${msg.message}`;
  }
}

/** Forwards the guard's output to the log, its exit (with `failure.reason` when set) to the host. */
function wireGuard(host: SpawnHost, run: Running, failure: { reason: string | null }, resolveExit: () => void): void {
  const { guard } = run;
  readline.createInterface({ input: guard.stdout! }).on("line", (line) => {
    host.log(`[opencode] ${line}`);
    const m = LISTENING.exec(line);
    if (m && !run.url) host.listening(run, m[1] as string);
  });
  readline.createInterface({ input: guard.stderr! }).on("line", (line) => {
    host.log(`[opencode] ${line}`);
    run.stderrTail.push(line);
    if (run.stderrTail.length > 20) run.stderrTail.shift();
  });
  guard.on("error", (err) => {
    failure.reason = `could not start the OpenCode guard process: ${err.message}`;
  });
  guard.on("exit", (code, signal) => {
    // A guard that died (SIGKILL) cannot stop OpenCode; do it here, before any restart starts a second one.
    if (run.pid) killOpenCodeGroup(run.pid);
    resolveExit();
    host.exited(run, failure.reason ?? describeExit(code, signal, run.stderrTail));
  });
}
