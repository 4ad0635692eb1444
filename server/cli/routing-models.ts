// The CLI's check of the models a route or fallback chain names, against the running Patchbay's model list (the
// CLI has no OpenCode of its own): refused when that list is known, saved with a warning when it is not.
import type { App } from "../../shared/apps";
import type { ModelInfo } from "../core/contract";
import { unknownRoutingModels, type RoutingChange } from "../routing/validate";
import type { CliContext } from "./context";
import { UsageError } from "./errors";

/**
 * Checks what `change` newly names (routing/validate.ts) before it is saved. Throws UsageError (exit 2, one line)
 * naming the first route or fallback no connected provider offers, when a Patchbay serves this data folder and lists
 * its models; returns a warning line for stderr when none can say (no Patchbay running, OpenCode not up yet) and the
 * change names models; else null.
 */
export async function checkCliRoutingModels(
  ctx: CliContext,
  change: RoutingChange,
  previous: App,
): Promise<string | null> {
  const named = unknownRoutingModels(change, previous, []);
  if (named.length === 0) return null;
  // Loaded here: the admin client and its schemas are needed only when a change names models.
  const { findRunningPatchbay } = await import("../connect/running-patchbay");
  const running = await findRunningPatchbay(ctx.dataDir()).catch(() => null);
  let why = "no Patchbay is running on this data folder";
  if (running) {
    try {
      const catalog = await running.client.getModels();
      const models: ModelInfo[] = catalog.providers.flatMap((p) => p.models);
      const first = unknownRoutingModels(change, previous, models)[0];
      if (first) throw new UsageError(first.message);
      return null;
    } catch (err) {
      if (err instanceof UsageError) throw err;
      why = `the running Patchbay could not list its models (${err instanceof Error ? err.message : String(err)})`;
    }
  }
  return (
    `patchbay: warning: saved without checking that a provider offers ${named.map((n) => n.model).join(", ")}: ${why}; ` +
    `a request that reaches a model no provider offers is refused, naming it.\n`
  );
}
