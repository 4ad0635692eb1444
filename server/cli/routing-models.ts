// The CLI's check of the models a route or fallback chain names, against the running Patchbay's model list (the
// CLI has no OpenCode of its own): refused when that list is known, saved with a warning when it is not.
import type { App } from "../../shared/apps";
import { unknownRoutingModels, type RoutingChange } from "../routing/validate";
import type { CliContext } from "./context";
import { runningModels } from "./running-models";
import { UsageError } from "./errors";
import { cliHint } from "./cli-hint";

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
  const cli = (args: string): string => cliHint(ctx, args);
  const named = unknownRoutingModels(change, previous, [], cli);
  if (named.length === 0) return null;
  const listed = await runningModels(ctx);
  if ("models" in listed) {
    const first = unknownRoutingModels(change, previous, listed.models, cli)[0];
    if (first) throw new UsageError(first.message);
    return null;
  }
  const why = listed.why;
  return (
    `patchbay: warning: saved without checking that a provider offers ${named.map((n) => n.model).join(", ")}: ${why}; ` +
    `a request that reaches a model no provider offers is refused, naming it.\n`
  );
}
