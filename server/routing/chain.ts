// The targets of one request: the model its `model` (or its role's route) resolves to, then the alias's fallbacks.
import type { App } from "../../shared/apps";
import type { ModelInfo } from "../core/contract";
import { resolveModel, type ResolvedModel } from "../core/model-resolver";
import type { ChainTarget } from "./fallback";

/** A resolved model as a chain target. */
export function toTarget(r: ResolvedModel): ChainTarget {
  const variant = r.target.variant;
  return { model: r.info, ...(variant ? { variant } : {}), id: variant ? `${r.id}#${variant}` : r.id };
}

/**
 * The fallbacks of `asked` when it is an alias of `app` with a chain, resolved against the catalog. Fallbacks no
 * connected provider offers are left out and named in `unavailable` (the log says so); they never fail the request.
 */
export function resolveFallbacks(
  app: App,
  asked: string,
  catalog: readonly ModelInfo[],
): { targets: ChainTarget[]; unavailable: string[] } {
  const chain = Object.hasOwn(app.fallbacks, asked) ? (app.fallbacks[asked] ?? []) : [];
  const targets: ChainTarget[] = [];
  const unavailable: string[] = [];
  for (const ref of chain) {
    try {
      targets.push(toTarget(resolveModel(app, ref, catalog)));
    } catch {
      unavailable.push(ref);
    }
  }
  return { targets, unavailable };
}
