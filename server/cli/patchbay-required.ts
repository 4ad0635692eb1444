// The running Patchbay `launch` and `connect` need (its API URL, and its admin API for the app, key and models), or a
// clear error saying how to start one.
import { PatchbayError } from "../core/errors";
import { adminAccess, type PatchbayAccess } from "../connect/patchbay-access";
import { patchbayCommand } from "../connect/patchbay-command";
import type { CliContext } from "./context";
import { findRunningPatchbay } from "./running-patchbay";

/** Access to the Patchbay serving the data folder; PatchbayError `backend_unavailable` when none runs. */
export async function requireRunningPatchbay(ctx: CliContext): Promise<PatchbayAccess> {
  const dataDir = ctx.dataDir();
  const running = await findRunningPatchbay(dataDir);
  if (!running)
    throw new PatchbayError(
      "backend_unavailable",
      `Patchbay is not running (no answer for the data folder ${dataDir}). ` +
        `Start it with \`${patchbayCommand("serve", ctx.io.env)}\` (add \`--demo\` to try it without any login), ` +
        "or open the Patchbay desktop app, then try again.",
    );
  return adminAccess(running.client, dataDir);
}
