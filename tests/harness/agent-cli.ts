// Running the real agent CLIs (Codex, Claude Code, GitHub Copilot CLI) and the `patchbay` command itself from an
// integration test: where the pinned binaries are, an environment that keeps the developer's own agents, logins and
// Patchbay out (a temp HOME), and one bounded spawn that collects what the process printed. Loopback only: nothing
// here sets a proxy or a remote URL, and NO_PROXY keeps any inherited proxy off 127.0.0.1.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { buildSnippets, claudeCodeEnv, KEY_ENV } from "../../shared/admin/snippets";
import { codexExecArgs } from "../../server/doctor/checks";

/** The repository's root folder. */
export const REPO_ROOT = path.resolve(import.meta.dirname, "../..");
/** The `patchbay` command (run with `process.execPath`). */
export const PATCHBAY_BIN = path.join(REPO_ROOT, "bin", "patchbay.mjs");
/** Patchbay's node_modules/.bin: the pinned agent CLIs (`codex`, `claude`, `copilot`) and `opencode`. */
export const NODE_BIN = path.join(REPO_ROOT, "node_modules", ".bin");
/** The pinned Codex CLI (@openai/codex). */
export const CODEX_BIN = path.join(NODE_BIN, "codex");
/** The pinned Claude Code CLI (@anthropic-ai/claude-code). */
export const CLAUDE_BIN = path.join(NODE_BIN, "claude");

/** What one process run printed, and its exit code (null when a signal ended it). */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** How to run one process. */
export interface RunCliOptions {
  cwd: string;
  /** The whole environment of the process (nothing is inherited). */
  env: NodeJS.ProcessEnv;
  /** The process is killed (SIGKILL) after this long and the run rejects with what it printed so far (ms). */
  timeoutMs: number;
  /** Called with all of stdout so far on every chunk, and the process id (to signal it at the right moment). */
  onStdout?: (soFar: string, pid: number) => void;
}

/** Runs `cmd args` with stdin closed, collecting stdout and stderr; resolves when the process has ended and its
 *  output is read, whatever its exit code. Rejects when it cannot start or outlives `timeoutMs`. */
export function runCli(cmd: string, args: readonly string[], opts: RunCliOptions): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      opts.onStdout?.(stdout, child.pid ?? 0);
    });
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(
          `${path.basename(cmd)} timed out after ${opts.timeoutMs} ms\n${describeRun({ code: null, stdout, stderr })}`,
        ),
      );
    }, opts.timeoutMs);
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A run for an assertion message: exit code, stdout, and the end of stderr (agents print long transcripts there). */
export function describeRun(run: CliRun): string {
  return `exit ${run.code}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr.slice(-4000)}`;
}

/** Variables of the developer's own Patchbay, OpenCode, agents and logins: never passed on to a test's process. */
const FOREIGN_ENV =
  /^(PATCHBAY_|OPENCODE_|ANTHROPIC_|CLAUDE_|CODEX_|COPILOT_|GH_|GITHUB_|DISABLE_|XDG_)|^OPENAI_API_KEY$/;

/**
 * This process's environment for a `patchbay` command (which starts the agent itself, `launch`) or an agent that
 * needs the usual system variables: without {@link FOREIGN_ENV}, with `HOME` = `home`, Patchbay's node_modules/.bin
 * first on PATH (`pathTail`, default this PATH, after it), NO_COLOR and a loopback NO_PROXY; `extra` last.
 */
export function inheritedEnv(
  home: string,
  extra: Record<string, string | undefined> = {},
  pathTail: string = process.env.PATH ?? "/usr/bin:/bin",
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!FOREIGN_ENV.test(k)) env[k] = v;
  return {
    ...env,
    HOME: home,
    PATH: `${NODE_BIN}${path.delimiter}${pathTail}`,
    NO_COLOR: "1",
    NO_PROXY: "127.0.0.1,localhost",
    ...extra,
  };
}

/** Runs `patchbay --data-dir <dataDir> <args>` with `opts.env` (usually {@link inheritedEnv}). */
export function runPatchbay(dataDir: string, args: readonly string[], opts: RunCliOptions): Promise<CliRun> {
  return runCli(process.execPath, [PATCHBAY_BIN, "--data-dir", dataDir, ...args], opts);
}

/**
 * `codex exec` arguments for a test: doctor's (server/doctor/checks.ts: telemetry and update checks off as `-c`
 * overrides, so config.toml stays what Patchbay wrote) plus feedback off, and with `bypassSandbox` Codex runs the
 * model's commands itself (no approval prompts in exec, no bubblewrap on test machines). `extra` goes before the
 * prompt (`-m <model>`).
 */
export function testCodexArgs(prompt: string, opts: { bypassSandbox?: boolean; extra?: string[] } = {}): string[] {
  return codexExecArgs(prompt, {
    bypassSandbox: opts.bypassSandbox ?? false,
    extra: ["-c", "feedback.enabled=false", ...(opts.extra ?? [])],
  });
}

/** Writes the Connect panel's Codex snippet (app `app`, model `model`) as `<home>/.codex/config.toml`, after
 *  `prepend` (more top-level settings, e.g. `web_search = "live"`). */
export function writeCodexSnippetConfig(
  home: string,
  snippet: { baseUrl: string; model: string; app: string },
  prepend = "",
): void {
  const codex = buildSnippets(snippet).find((s) => s.id === "codex");
  if (!codex) throw new Error("the Connect panel has no Codex snippet");
  fs.mkdirSync(path.join(home, ".codex"), { recursive: true });
  fs.writeFileSync(path.join(home, ".codex", "config.toml"), `${prepend}${codex.code}\n`);
}

/** One `codex exec` run as the Connect snippet sets it up: only PATH, HOME, CODEX_HOME (`<home>/.codex`) and the key
 *  in the snippet's variable. */
export function runCodexExec(o: { home: string; key: string; cwd: string; args: string[]; timeoutMs: number }) {
  return runCli(CODEX_BIN, o.args, {
    cwd: o.cwd,
    timeoutMs: o.timeoutMs,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: o.home,
      CODEX_HOME: path.join(o.home, ".codex"),
      [KEY_ENV]: o.key,
      NO_COLOR: "1",
      NO_PROXY: "127.0.0.1,localhost",
    },
  });
}

/** What {@link runClaudePrint} runs. */
export interface ClaudePrintOptions {
  /** Patchbay's API origin (no `/v1`). */
  apiRoot: string;
  /** The model (or app alias) the Connect snippet names for every tier. */
  model: string;
  key: string;
  /** HOME, with CLAUDE_CONFIG_DIR `<home>/.claude` (created). */
  home: string;
  cwd: string;
  prompt: string;
  /** After `-p <prompt>` (`--allowedTools Bash`). */
  args?: string[];
  /** More variables for Claude Code (e.g. NODE_EXTRA_CA_CERTS); the bare environment below wins on a clash. */
  env?: Record<string, string>;
  timeoutMs: number;
}

/** `claude -p <prompt>` through bash with exactly the Connect snippet's exports (shared/admin/snippets.ts), in a
 *  bare environment: autoupdate, telemetry and error reports off. */
export function runClaudePrint(o: ClaudePrintOptions): Promise<CliRun> {
  fs.mkdirSync(o.home, { recursive: true });
  const script = [...claudeCodeEnv(o.apiRoot, o.model), 'exec "$CLAUDE_BIN" -p "$PROMPT" "$@"'].join("\n");
  return runCli("bash", ["-c", script, "claude", ...(o.args ?? [])], {
    cwd: o.cwd,
    timeoutMs: o.timeoutMs,
    env: {
      ...o.env,
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: o.home,
      CLAUDE_CONFIG_DIR: path.join(o.home, ".claude"),
      [KEY_ENV]: o.key,
      CLAUDE_BIN,
      PROMPT: o.prompt,
      DISABLE_AUTOUPDATER: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
      NO_PROXY: "127.0.0.1,localhost",
    },
  });
}
