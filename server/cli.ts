// Headless entry of Patchbay: the `patchbay` command (commander). Parses global options, registers the command
// groups (server/cli/commands/), and turns failures into one line on stderr plus an exit code (2 usage, 1 other).
// Must not implement commands itself, and must not load the server unless a command needs it.
import { Command, InvalidArgumentError } from "commander";
import { COMMAND_GROUPS } from "./cli/commands";
import { openCliStores, type CliContext, type CliIO, type CreatePatchbay } from "./cli/context";
import { resolveDataDir } from "./data-dir";
import { describeCliError } from "./cli/errors";
import { terminalText } from "./cli/format";
import { openWithOs } from "./cli/open-url";
import { PATCHBAY_VERSION } from "./version";
import { patchbayCommand } from "./connect/patchbay-command";

/**
 * A reader that went away (`patchbay … | head`) is not an error of the command: the stream's EPIPE is swallowed and
 * later writes are dropped, so a short command still finishes its work and `serve` keeps serving. Output that cannot
 * be written for another reason (`> /dev/full`: ENOSPC) is said in one line on stderr and the exit code is 1, never a
 * stack.
 */
function handleOutputErrors(stream: NodeJS.WriteStream, name: string): void {
  stream.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") return;
    process.exitCode = 1;
    if (stream !== process.stderr)
      process.stderr.write(`patchbay: cannot write to ${name} (${err.code ?? err.message}).\n`);
  });
}

/** The real process: stdout, stderr, env, exit, signals. */
export function processIO(): CliIO {
  handleOutputErrors(process.stdout, "stdout");
  handleOutputErrors(process.stderr, "stderr");
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    env: process.env,
    stdoutIsTTY: process.stdout.isTTY === true,
    // Pipes are asynchronous: exit only after what was written has reached them.
    exit: (code) => {
      process.exitCode = code;
      process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
    },
    onSignal: (signal, handler) => void process.on(signal, handler),
    openUrl: (url) => openWithOs(url),
  };
}

/** Test seams of the CLI. */
export interface CliDeps {
  /** Replaces server/index.ts's createPatchbay (tests of `serve` with a fake Patchbay). */
  createPatchbay?: CreatePatchbay;
}

/** `--data-dir` must name a folder: an empty value would silently mean the current folder. */
function parseDataDir(value: string): string {
  if (value.trim() === "")
    throw new InvalidArgumentError("The data folder path is empty; give a folder path or leave --data-dir out.");
  return value;
}

/** Builds the `patchbay` program for `io` (no parsing yet). */
export function buildProgram(io: CliIO, deps: CliDeps = {}): Command {
  const program = new Command("patchbay");
  const ctx: CliContext = {
    io,
    // Loaded on demand: the store commands should not pay for loading the whole server.
    loadCreatePatchbay: async () => deps.createPatchbay ?? (await import("./index")).createPatchbay,
    dataDir: () => resolveDataDir(program.opts<{ dataDir?: string }>().dataDir, io.env),
    openStores: () => openCliStores(ctx.dataDir(), io),
  };
  program
    .description("Patchbay: your OpenCode logins as a local OpenAI-compatible API, one app and key per client program.")
    .version(PATCHBAY_VERSION, "-v, --version", "print the version")
    .option(
      "--data-dir <dir>",
      "data folder (default: $PATCHBAY_DATA_DIR, else the per-user app-data folder)",
      parseDataDir,
    )
    .helpOption("-h, --help", "show help")
    .helpCommand("help [command]", "show help for a command")
    // Descriptions wrap at the help width (80 when not a terminal) even beside long command terms (`app alias …`).
    .configureHelp({ showGlobalOptions: true, minWidthToWrap: 20 })
    .configureOutput({
      writeOut: (text) => io.out(text),
      writeErr: (text) => io.err(text),
      // Commander's usage errors, then where the usage is: the hint names the command that works here, worked out
      // only when an error is printed (a PATH lookup that every other run can skip).
      outputError: (text, write) => {
        write(`patchbay: ${terminalText(text.replace(/^error: /, ""))}`);
        write(`(run ${patchbayCommand("--help", io.env)} for usage)\n`);
      },
    })
    .exitOverride()
    .addHelpText(
      "after",
      `
Quick start:
  $ patchbay serve --demo       # run the API and dashboard (with a demo model)
  $ patchbay app create my-app  # one app per client program
  $ patchbay key create my-app  # prints a key for Authorization: Bearer <key>
  $ patchbay launch claude      # Claude Code (or codex, opencode) on Patchbay
  $ patchbay connect codex      # set Codex (or claude) up in its own config

Environment:
  PATCHBAY_DATA_DIR   data folder (settings, apps, keys, logs);
                      --data-dir wins over it`,
    );
  for (const register of COMMAND_GROUPS) register(program, ctx);
  return program;
}

/**
 * Runs the CLI with `argv` (as in process.argv: node, script, args…) and returns the exit code. Long-running
 * commands (`serve`) end the process themselves through `io.exit`.
 */
export async function main(argv: readonly string[], io: CliIO = processIO(), deps: CliDeps = {}): Promise<number> {
  const program = buildProgram(io, deps);
  try {
    await program.parseAsync([...argv]);
    return 0;
  } catch (err) {
    const { code, message } = describeCliError(err, io.env.PATCHBAY_DEBUG === "1");
    if (message !== null) io.err(`patchbay: ${terminalText(message)}\n`);
    return code;
  }
}
