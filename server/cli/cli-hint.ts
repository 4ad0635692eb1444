// The command a CLI hint tells the user to run: how this machine runs Patchbay, with this run's data folder, so a
// hint printed by `patchbay --data-dir X …` (or with PATCHBAY_DATA_DIR) acts on X when followed (issue 21 §3.7).
import { PatchbayError } from "../core/errors";
import { cliCommandFor } from "../connect/patchbay-command";
import type { CliContext } from "./context";

/** `patchbay [--data-dir '<dir>'] <args>` for this CLI run (connect/patchbay-command.ts {@link cliCommandFor}). */
export function cliHint(ctx: Pick<CliContext, "dataDir" | "io">, args: string): string {
  return cliCommandFor(ctx.dataDir(), ctx.io.env)(args);
}

/** PatchbayError `app_not_found` (exit 1) naming the data folder looked in (another one may hold the app) and how to
 *  list its apps. */
export function noSuchApp(ctx: Pick<CliContext, "dataDir" | "io">, name: string): PatchbayError {
  return new PatchbayError(
    "app_not_found",
    `No app named "${name}" in the data folder ${ctx.dataDir()}. See: ${cliHint(ctx, "app list")}`,
  );
}
