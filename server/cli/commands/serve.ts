// `patchbay serve`: runs Patchbay headless through createPatchbay, prints its URLs and status, stops on a signal.
// Must not build any part of Patchbay itself: the composition root (server/index.ts) does.
import { InvalidArgumentError, type Command } from "commander";
import { isLoopbackBindHost, LOOPBACK_HOST_MESSAGE, SearchUrl } from "../../../shared/settings";
import type { RequestLogEntry } from "../../../shared/log-entry";
import { NO_MODELS, type PatchbayStatus } from "../../../shared/status";
import { PatchbayError } from "../../core/errors";
import type { CliCommand } from "../../core/cli-command";
import type { CliContext } from "../context";
import { shortenClientText } from "../../core/client-text";
import { describeCliError, UsageError } from "../errors";
import { KEEP_ALIVE_HELP, parseKeepAlive } from "../../../shared/keep-alive";
import { cliHint } from "../cli-hint";

/** How long a clean stop may take before the process gives up and exits with 1 (ms). */
const STOP_TIMEOUT_MS = 15_000;
/** A second stop signal this soon after the first is the same Ctrl-C delivered twice, not a request to hurry (ms). */
const REPEAT_SIGNAL_GRACE_MS = 500;
/** How often a server started by the launcher checks that the launcher is still there (ms). */
const PARENT_POLL_MS = 500;

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535)
    throw new InvalidArgumentError("Use a port number from 0 to 65535 (0 picks a free port).");
  return port;
}

/** `--opencode-keep-alive`: a duration, `0` or `forever` (shared/keep-alive.ts); ms, null = forever. */
function parseKeepAliveFlag(value: string): number | null {
  const ms = parseKeepAlive(value);
  if (ms === undefined) throw new InvalidArgumentError(`'${value}' is not a keep-alive. ${KEEP_ALIVE_HELP}`);
  return ms;
}

/** This run's keep-alive: the flag, else PATCHBAY_OPENCODE_KEEP_ALIVE, else undefined (Settings). */
function keepAliveOverride(flag: number | null | undefined, env: string | undefined): number | null | undefined {
  if (flag !== undefined || !env?.trim()) return flag;
  const ms = parseKeepAlive(env);
  if (ms === undefined)
    throw new UsageError(`PATCHBAY_OPENCODE_KEEP_ALIVE='${env}' is not a keep-alive. ${KEEP_ALIVE_HELP}`);
  return ms;
}

/** What is wrong with a search URL (the Settings field's rule, shared/settings.ts), or null when it is usable. */
function searchUrlProblem(value: string): string | null {
  const r = SearchUrl.safeParse(value.trim());
  return r.success ? null : `${r.error.issues[0]?.message ?? "Not a URL"}.`;
}

/** `--search-url` (commander already names the value in its message: the rule alone follows). */
function parseSearchUrl(value: string): string {
  const problem = searchUrlProblem(value);
  if (problem) throw new InvalidArgumentError(problem);
  return value.trim();
}

/** This run's search URL: the flag, else PATCHBAY_SEARCH_URL (checked like the flag), else undefined (Settings). */
function searchUrlOverride(flag: string | undefined, env: string | undefined): string | undefined {
  if (flag !== undefined || !env?.trim()) return flag;
  const problem = searchUrlProblem(env);
  if (problem) throw new UsageError(`PATCHBAY_SEARCH_URL='${env}': ${problem}`);
  return env.trim();
}

/** `--host` is loopback only, like the setting: LAN exposure (dashboard settings) is the one way to listen wider. */
function parseHost(value: string): string {
  if (!isLoopbackBindHost(value))
    throw new InvalidArgumentError(
      `${LOOPBACK_HOST_MESSAGE} LAN exposure is the "Expose on LAN" switch in the dashboard's Settings page ` +
        `(open the Dashboard URL \`patchbay serve\` prints), or \`"lanExposure": true\` in settings.json of the data folder.`,
    );
  return value;
}

/** The fatal message when the API could not listen, with what to do about it (CLI flags included). */
function apiStartFailure(error: string, port: number | undefined): string {
  if (!/ is in use/.test(error)) return `The OpenAI API could not start: ${error}.`;
  return (
    `The OpenAI API could not start: ${error}; it may be another Patchbay (one per data folder; another data folder ` +
    `needs its own port). Use --port 0 to pick a free port${port ? "" : ", or --port N for another one"}.`
  );
}

/** What `serve` says about the models once OpenCode answered (issue 16 item 12); null while unknown. With none, the
 *  line names the login command and `--demo`: "OpenCode: ready" alone hid that nothing could be served. */
export function modelsLine(s: PatchbayStatus, cli: CliCommand): string | null {
  if (s.modelCount === undefined || s.modelCount === null) return null;
  if (s.modelCount === 0) return `Models: none. ${NO_MODELS.text}`;
  return `Models: ${s.modelCount} available (GET /v1/models, or \`${cli("models")}\`).`;
}

function openCodeLine(s: PatchbayStatus["opencode"]): string {
  const version = s.version ? ` (OpenCode ${s.version})` : "";
  const reason = s.reason ? `: ${s.reason}` : "";
  return `OpenCode: ${s.state}${version}${reason}`;
}

/** Registers `serve`. */
export function registerServeCommand(program: Command, ctx: CliContext): void {
  program
    .command("serve")
    .description("Run Patchbay headless: the OpenAI-compatible API and the dashboard")
    .option(
      "--host <host>",
      "loopback host the OpenAI API binds, e.g. 127.0.0.1 or ::1 (default: from settings, 127.0.0.1; for other machines turn on LAN exposure in the dashboard)",
      parseHost,
    )
    .option("--port <port>", "port of the OpenAI API; 0 picks a free port (default: from settings, 4747)", parsePort)
    .option("--demo", "also start a built-in demo model (provider `demo`), for trying Patchbay without any login")
    .option("--quiet", "do not print a line per API request")
    .option(
      "--search-url <url>",
      "SearXNG-compatible endpoint for clients' web search (GET <url>/search?q=…&format=json; " +
        "default: $PATCHBAY_SEARCH_URL, else Settings)",
      parseSearchUrl,
    )
    .option(
      "--opencode-keep-alive <duration>",
      "stop OpenCode after this long without a model request and start it again on demand: e.g. 10m, 90s, 0 (as " +
        "soon as it is idle) or forever (default: $PATCHBAY_OPENCODE_KEEP_ALIVE, else Settings, 10m)",
      parseKeepAliveFlag,
    )
    .option("--verbose", "also print Patchbay's internal bookkeeping (e.g. which tool sets were pre-warmed)")
    .addHelpText(
      "after",
      `
Prints "OpenAI API: <url>" and "Dashboard: <one-time login url>".
Stop with Ctrl+C (or SIGTERM). Apps and keys changed with \`patchbay app …\` /
\`patchbay key …\` while it runs take effect within a second.

Example:
  $ patchbay serve --port 0 --demo`,
    )
    .action((opts: ServeOptions) => runServe(ctx, opts));
}

interface ServeOptions {
  host?: string;
  port?: number;
  demo?: boolean;
  quiet?: boolean;
  searchUrl?: string;
  verbose?: boolean;
  opencodeKeepAlive?: number | null;
}

/** Log lines of internal bookkeeping: printed with `--verbose` only (they sat between request lines). */
const VERBOSE_ONLY = [/^\[opencode\] pre-warmed /];

/** The line `serve` prints for the OpenAI API's state (also when it is stopped or started from the dashboard). */
function apiLine(api: { running: boolean; baseUrl: string | null; error: string | null }): string {
  if (api.running) return `OpenAI API: ${api.baseUrl ?? "running"}`;
  return `OpenAI API: stopped${api.error ? ` (${api.error})` : ""}; start it again from the dashboard's Overview.`;
}

/**
 * Starts Patchbay and keeps it running until SIGINT/SIGTERM, then stops it and ends the process with 0.
 * A startup failure stops what was started and ends the process with the CLI's usual message and code.
 */
async function runServe(ctx: CliContext, opts: ServeOptions): Promise<void> {
  const { io } = ctx;
  const createPatchbay = await ctx.loadCreatePatchbay();
  const searchUrl = searchUrlOverride(opts.searchUrl, io.env.PATCHBAY_SEARCH_URL);
  const keepAlive = keepAliveOverride(opts.opencodeKeepAlive, io.env.PATCHBAY_OPENCODE_KEEP_ALIVE);
  const pb = await createPatchbay({
    dataDir: ctx.dataDir(),
    ...(opts.host !== undefined ? { host: opts.host } : {}),
    ...(opts.port !== undefined ? { port: opts.port } : {}),
    demo: opts.demo === true,
    ...(searchUrl
      ? { searchUrl, searchUrlFrom: opts.searchUrl ? ("--search-url" as const) : ("PATCHBAY_SEARCH_URL" as const) }
      : {}),
    ...(keepAlive !== undefined ? { opencodeKeepAliveMs: keepAlive } : {}),
    log: (line) => {
      if (opts.verbose || !VERBOSE_ONLY.some((r) => r.test(line))) io.err(`[patchbay] ${line}\n`);
    },
  });

  let stopping = false;
  let stoppingAt = 0;
  const stop = (signal: string): void => {
    // One Ctrl-C can arrive twice within milliseconds (from the terminal's process group and from a launcher that
    // passes it on): only a repeat the user could have typed forces the exit.
    if (stopping && Date.now() - stoppingAt < REPEAT_SIGNAL_GRACE_MS) return;
    if (stopping) {
      io.err(`patchbay: ${signal} again, exiting without a clean stop.\n`);
      io.exit(1);
      return;
    }
    stopping = true;
    stoppingAt = Date.now();
    io.out("Stopping Patchbay…\n");
    const timer = setTimeout(() => {
      io.err("patchbay: stopping took too long; exiting.\n");
      io.exit(1);
    }, STOP_TIMEOUT_MS);
    timer.unref();
    pb.stop().then(
      () => {
        clearTimeout(timer);
        io.out("Stopped.\n");
        io.exit(0);
      },
      (err: unknown) => {
        io.err(`patchbay: error while stopping: ${err instanceof Error ? err.message : String(err)}\n`);
        io.exit(1);
      },
    );
  };
  io.onSignal("SIGINT", () => stop("SIGINT"));
  io.onSignal("SIGTERM", () => stop("SIGTERM"));
  // Started by `npm start` (build/scripts/start.mjs): if that launcher dies without a word (SIGKILL), stop too, so
  // no server or OpenCode is left running on its own. A plain `patchbay serve` (nohup, service) is not affected.
  if (io.env.PATCHBAY_STOP_WITH_PARENT === "1") {
    const parentPid = process.ppid;
    const poll = setInterval(() => {
      if (process.ppid === parentPid || stopping) return;
      clearInterval(poll);
      stop("the launcher exited");
    }, PARENT_POLL_MS);
    poll.unref();
  }

  try {
    const urls = await pb.start();
    const status = pb.status();
    if (!urls.openaiUrl && status.api.error) {
      // Headless, the API is the point: a port in use or a bad host is fatal here (the desktop app keeps running).
      throw new PatchbayError("api_stopped", apiStartFailure(status.api.error, opts.port));
    }
    io.out(`Patchbay ${status.version} (headless)${status.demo ? " with the demo model" : ""}\n`);
    io.out(`Data folder: ${status.dataDir}\n`);
    io.out(
      `OpenAI API: ${urls.openaiUrl ?? "stopped (settings say not to start it on launch; start it from the dashboard)"}\n`,
    );
    io.out(`Dashboard: ${urls.loginUrl}\n`);
    io.out(`  (works once; \`${cliHint(ctx, "dashboard")}\` prints a new one)\n`);
    for (const notice of status.notices) io.out(`Notice: ${notice}\n`);
    let lastOpenCode = openCodeLine(status.opencode);
    io.out(`${lastOpenCode}\n`);
    let lastModels = modelsLine(status, (args) => cliHint(ctx, args));
    if (lastModels) io.out(`${lastModels}\n`);
    let lastApi = apiLine(status.api);
    pb.onStatus((s) => {
      if (stopping) return;
      const api = apiLine(s.api);
      if (api !== lastApi) {
        lastApi = api;
        io.out(`${api}\n`);
      }
      const line = openCodeLine(s.opencode);
      if (line !== lastOpenCode) {
        lastOpenCode = line;
        io.out(`${line}\n`);
      }
      const models = modelsLine(s, (args) => cliHint(ctx, args));
      if (models !== null && models !== lastModels) {
        lastModels = models;
        io.out(`${models}\n`);
      }
    });
    if (!opts.quiet) pb.onRequest?.((e) => io.out(`${requestLine(e)}\n`));
    io.out(`Press Ctrl+C to stop.${opts.quiet ? "" : " One line per API request follows (--quiet hides them)."}\n`);
  } catch (err) {
    if (stopping) return;
    stopping = true;
    await pb.stop().catch(() => undefined);
    const { code, message } = describeCliError(err, io.env.PATCHBAY_DEBUG === "1");
    if (message !== null) io.err(`patchbay: ${message}\n`);
    io.exit(code);
    return;
  }
  // Keep running until a signal ends the process (the listeners keep the event loop alive).
  await new Promise<never>(() => undefined);
}

/** `POST /v1/chat/completions app=x model=y 200 1.2s` (plus the error code when there is one). A request whose hint
 *  headers named a role (server/routing/roles.ts) gets `role=<role>` (`role=subagent/<agent type>` for Claude Code's
 *  agent type) and, when the app routed that role, `routed=<alias or model>`. Client text (the model asked for, the
 *  agent type) is printed JSON-escaped when it holds spaces or control characters, so a request can neither forge a
 *  line nor send escape sequences to the terminal; shortened to 80 characters. */
export function requestLine(e: RequestLogEntry): string {
  const model = e.modelResolved ?? e.modelAsked;
  const role = e.role ? `${e.role}${e.agentType ? `/${e.agentType}` : ""}` : null;
  const parts = [
    e.method,
    e.endpoint,
    `app=${e.app ?? "-"}`,
    ...(role ? [`role=${terminalSafe(role)}`] : []),
    ...(e.routedTo ? [`routed=${terminalSafe(e.routedTo)}`] : []),
    ...(model ? [`model=${terminalSafe(model)}`] : []),
    String(e.status),
  ];
  return `${parts.join(" ")} ${(e.totalMs / 1000).toFixed(1)}s${e.errorCode ? ` ${e.errorCode}` : ""}`;
}

function terminalSafe(text: string): string {
  const short = shortenClientText(text, 80);
  return /[\s\p{Cc}\p{Cf}"\\]/u.test(short)
    ? JSON.stringify(short).replace(
        /[\u007f-\u009f\p{Cf}]/gu,
        (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
      )
    : short;
}
