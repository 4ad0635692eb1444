// The command a CLI hint tells the user to run: how this machine runs Patchbay, with this run's data folder, so a
// hint printed by `patchbay --data-dir X …` (or with PATCHBAY_DATA_DIR) acts on X when followed (issue 21 §3.7).
import { cliCommandFor } from "../connect/patchbay-command";
import type { CliContext } from "./context";

/** `patchbay [--data-dir '<dir>'] <args>` for this CLI run (connect/patchbay-command.ts {@link cliCommandFor}). */
export function cliHint(ctx: Pick<CliContext, "dataDir" | "io">, args: string): string {
  return cliCommandFor(ctx.dataDir(), ctx.io.env)(args);
}
