// Cross-field checks of an app's routes and fallback chains, run before an app is saved (so nothing half-valid is
// stored). Field shapes are checked by the zod schemas in shared/routing.ts; this checks what they refer to.
import { isModelAllowed, type App } from "../../shared/apps";
import { PatchbayError } from "../core/errors";

/** Base `provider/model` of `provider/model#variant`. */
function baseId(ref: string): string {
  const hash = ref.indexOf("#");
  return hash > 0 ? ref.slice(0, hash) : ref;
}

/**
 * Checks that every route names an alias of the app or a model its allowlist allows, and that every fallback chain
 * belongs to an existing alias, names only allowed models and names no model twice (its alias's own target included:
 * a chain that comes back to where it started is a loop). Throws PatchbayError `invalid_request_error` whose `param`
 * names the field (`routes.subagent`, `fallbacks.fast[1]`).
 */
export function checkRouting(app: App): void {
  for (const [role, target] of Object.entries(app.routes)) {
    if (target === undefined) continue;
    const param = `routes.${role}`;
    if (Object.hasOwn(app.aliases, target)) continue;
    if (!target.includes("/"))
      throw new PatchbayError(
        "invalid_request_error",
        `The route for ${role} names "${target}", which is neither an alias of app "${app.name}" nor provider/model.`,
        { param },
      );
    if (!isModelAllowed(app.models, baseId(target)))
      throw new PatchbayError(
        "invalid_request_error",
        `The route for ${role} names ${target}, which app "${app.name}" may not use; add it to the app's models first.`,
        { param },
      );
  }
  for (const [alias, chain] of Object.entries(app.fallbacks)) {
    const own = Object.hasOwn(app.aliases, alias) ? app.aliases[alias] : undefined;
    if (own === undefined)
      throw new PatchbayError(
        "invalid_request_error",
        `Fallbacks are set for "${alias}", which is not an alias of app "${app.name}".`,
        { param: `fallbacks.${alias}` },
      );
    const seen = new Set<string>([own]);
    chain.forEach((target, i) => {
      const param = `fallbacks.${alias}[${i}]`;
      if (seen.has(target))
        throw new PatchbayError(
          "invalid_request_error",
          `The fallback chain of "${alias}" names ${target} twice (${[own, ...chain].join(" → ")}): a chain must not loop.`,
          { param },
        );
      seen.add(target);
      if (!isModelAllowed(app.models, baseId(target)))
        throw new PatchbayError(
          "invalid_request_error",
          `The fallback ${target} of "${alias}" is a model app "${app.name}" may not use; add it to the app's models first.`,
          { param },
        );
    });
  }
}
