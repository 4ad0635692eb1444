// How CLI failures become one line on stderr and an exit code: 2 for usage errors, 1 for everything else.
// Must never print a stack trace for an error a user can cause (PATCHBAY_DEBUG=1 shows it for unexpected ones).
import { CommanderError } from "commander";
import { AdminApiError } from "../../shared/admin/client-error";
import { PatchbayError } from "../core/errors";

/** Exit code of a usage error (bad arguments or values). */
export const EXIT_USAGE = 2;
/** Exit code of any other failure. */
export const EXIT_FAILURE = 1;

/** A mistake in how the command was called (wrong value, bad name): exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** The exit code and the one-line message for `err`; `debug` adds the stack of unexpected errors. */
export function describeCliError(err: unknown, debug: boolean): { code: number; message: string | null } {
  if (err instanceof CommanderError) {
    // Commander already printed its message (through configureOutput); help and --version end normally. The `help`
    // command reports `commander.help` with exit code 0 (a command group run without a subcommand: 1, a usage error).
    if (err.code === "commander.helpDisplayed" || err.code === "commander.version") return { code: 0, message: null };
    if (err.code === "commander.help" && err.exitCode === 0) return { code: 0, message: null };
    return { code: EXIT_USAGE, message: null };
  }
  if (err instanceof UsageError) return { code: EXIT_USAGE, message: err.message };
  if (err instanceof PatchbayError) {
    return { code: err.status === 400 ? EXIT_USAGE : EXIT_FAILURE, message: err.message };
  }
  if (err instanceof AdminApiError) {
    // What a running Patchbay answered (commands that ask it, e.g. `sessions`): one line, no terminal escapes.
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    const message = err.message.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ").trim();
    return { code: err.status === 400 ? EXIT_USAGE : EXIT_FAILURE, message };
  }
  const text = err instanceof Error ? err.message : String(err);
  const stack = debug && err instanceof Error && err.stack ? `\n${err.stack}` : "";
  return { code: EXIT_FAILURE, message: `unexpected error: ${text}${stack}` };
}
