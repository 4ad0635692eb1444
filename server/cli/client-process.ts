// Runs a coding agent in the foreground for `patchbay launch`: inherits the terminal, forwards SIGTERM and SIGHUP
// (and SIGINT when there is no terminal to deliver it), and resolves with the exit code to pass on (128 + signal
// number when the agent was killed by a signal, as shells report it).
import { spawn } from "node:child_process";
import { constants } from "node:os";

/** What to run. */
export interface ClientProcessSpec {
  command: string;
  args: string[];
  env: Record<string, string | undefined>;
}

/** Runs the agent and resolves with its exit code. Rejects when it cannot be started (e.g. ENOENT, EACCES). */
export function runClientProcess(spec: ClientProcessSpec, stdinIsTTY = process.stdin.isTTY === true): Promise<number> {
  return new Promise((resolve, reject) => {
    // An npm shim (`claude.cmd`) runs only through cmd.exe on Windows, which then gets one command line: quote it.
    const viaShell = process.platform === "win32" && /\.(cmd|bat)$/i.test(spec.command);
    const child = spawn(
      viaShell ? cmdQuote(spec.command) : spec.command,
      viaShell ? spec.args.map(cmdQuote) : spec.args,
      {
        env: Object.fromEntries(Object.entries(spec.env).filter((e): e is [string, string] => e[1] !== undefined)),
        stdio: "inherit",
        shell: viaShell,
      },
    );
    // Ctrl-C in a terminal reaches the whole foreground group, the agent included: Patchbay just keeps waiting
    // (forwarding it would deliver it twice). Without a terminal, a SIGINT sent to Patchbay is passed on.
    const forwarded: NodeJS.Signals[] = stdinIsTTY ? ["SIGTERM", "SIGHUP"] : ["SIGINT", "SIGTERM", "SIGHUP"];
    const handlers = new Map<NodeJS.Signals, () => void>();
    for (const sig of forwarded) {
      const h = () => void child.kill(sig);
      handlers.set(sig, h);
      process.on(sig, h);
    }
    const ignoreInt = () => {};
    if (stdinIsTTY) process.on("SIGINT", ignoreInt);
    const cleanup = () => {
      for (const [sig, h] of handlers) process.off(sig, h);
      process.off("SIGINT", ignoreInt);
    };
    child.on("error", (err) => {
      cleanup();
      reject(err);
    });
    child.on("exit", (code, signal) => {
      cleanup();
      resolve(code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1));
    });
  });
}

/** cmd.exe's metacharacters (cross-spawn's list). */
const CMD_META = /([()\][%!^"`<>&|;, *?])/g;

/**
 * One argument for an npm `.cmd` shim run through cmd.exe: backslash-escaped and double-quoted for the program, then
 * caret-escaped twice (once for cmd.exe, once for the shim's own `%*` expansion). The rules of cross-spawn's
 * escapeArgument; not exercised by the tests here, which run on Linux.
 */
export function cmdQuote(arg: string): string {
  let a = arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\*)$/, "$1$1");
  a = `"${a}"`;
  return a.replace(CMD_META, "^$1").replace(CMD_META, "^$1");
}
