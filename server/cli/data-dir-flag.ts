// The `--data-dir` part of a command the CLI suggests: a hint printed by `patchbay --data-dir X …` must name X too,
// or following it acts on another data folder (issue 21 §3.7).
import { shellQuote } from "./cli-shim";
import type { CliContext } from "./context";
import { resolveDataDir } from "./data-dir";

/** `--data-dir '<dir>' ` (with a trailing space) when this run's data folder is not the one a bare `patchbay` would
 *  use (`--data-dir` given; PATCHBAY_DATA_DIR is in the user's environment anyway), else "". */
export function dataDirFlag(ctx: Pick<CliContext, "dataDir" | "io">): string {
  const dataDir = ctx.dataDir();
  return dataDir === resolveDataDir(undefined, ctx.io.env) ? "" : `--data-dir ${shellQuote(dataDir)} `;
}
