// The admin API's check of the models an app's routes and fallback chains name, against the connected providers'
// catalog: refused when it is known, saved with a warning when OpenCode cannot say (not running yet).
import type { App } from "../../../../shared/apps";
import { PatchbayError } from "../../../core/errors";
import { unknownRoutingModels, type RoutingChange } from "../../../routing/validate";
import type { AdminServices } from "../services";

/**
 * Checks the models `change` newly names (routing/validate.ts) before it is saved. Throws PatchbayError
 * `invalid_request_error` (400, `field` naming the first route or fallback at fault) when the catalog lacks one;
 * returns warnings (saved anyway) when the catalog cannot be read now and the change names new models; else none.
 */
export async function checkRoutingModels(
  change: RoutingChange,
  previous: App | undefined,
  s: AdminServices,
): Promise<string[]> {
  if (change.routes === undefined && change.fallbacks === undefined) return [];
  let catalog;
  try {
    catalog = await s.listModels();
  } catch (err) {
    const unchecked = unknownRoutingModels(change, previous, [], s.cli);
    if (unchecked.length === 0) return [];
    const why = err instanceof Error ? err.message : String(err);
    return [
      `Saved without checking that a provider offers ${unchecked.map((u) => u.model).join(", ")}: the model list is unavailable (${why}). A request that reaches a model no provider offers is refused, naming it.`,
    ];
  }
  const unknown = unknownRoutingModels(change, previous, catalog, s.cli);
  const first = unknown[0];
  if (first)
    throw new PatchbayError(
      "invalid_request_error",
      unknown.length === 1 ? first.message : `${unknown.map((u) => u.message).join(" ")}`,
      { param: first.param },
    );
  return [];
}
