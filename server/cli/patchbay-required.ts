// The running Patchbay that `launch`, `connect`, `models` and `dashboard` need (its admin API), or one clear error
// saying how to start one. Loaded by those commands only when they run (it brings the admin client).
import { PatchbayError } from "../core/errors";
import type { PatchbayAccess } from "../connect/patchbay-access";
import { cliHint } from "./cli-hint";
import type { CliContext } from "./context";
import { findRunningPatchbay, type RunningPatchbay } from "../connect/running-patchbay";

/**
 * The Patchbay serving the data folder. Throws PatchbayError `backend_unavailable` when none runs, naming the data
 * folder and the start command; `why` (e.g. "the models come from its OpenCode") says what the command needed it for.
 */
export async function requireRunning(ctx: CliContext, why?: string): Promise<RunningPatchbay> {
  const dataDir = ctx.dataDir();
  const running = await findRunningPatchbay(dataDir);
  if (running) return running;
  throw new PatchbayError(
    "backend_unavailable",
    `Patchbay is not running (no answer for the data folder ${dataDir})${why ? `; ${why}` : ""}. ` +
      `Start it with \`${cliHint(ctx, "serve")}\` (add \`--demo\` to try it without any login), ` +
      "or open the Patchbay desktop app, then try again.",
  );
}

/** Access (API URL, app, key, models) to the Patchbay serving the data folder; errors as {@link requireRunning}. */
export async function requireRunningPatchbay(ctx: CliContext): Promise<PatchbayAccess> {
  const running = await requireRunning(ctx);
  const { adminAccess } = await import("../connect/patchbay-access");
  return adminAccess(running.client, ctx.dataDir());
}
