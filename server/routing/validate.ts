// Cross-field checks of an app's routes and fallback chains, run before an app is saved (so nothing half-valid is
// stored). Field shapes are checked by the zod schemas in shared/routing.ts; this checks what they refer to.
import { isModelAllowed, type App } from "../../shared/apps";
import type { FallbackMap, RequestRole, RouteMap } from "../../shared/routing";
import type { ModelInfo } from "../core/contract";
import { PatchbayError } from "../core/errors";
import { aliasTargetAvailable } from "../core/model-resolver";
import type { CliCommand } from "../core/cli-command";

/** Base `provider/model` of `provider/model#variant`. */
function baseId(ref: string): string {
  const hash = ref.indexOf("#");
  return hash > 0 ? ref.slice(0, hash) : ref;
}

/**
 * Checks that every route names an alias of the app or a model its allowlist allows, and that every fallback chain
 * belongs to an existing alias, names only allowed models and names no model twice (its alias's own target included:
 * a chain that comes back to where it started is a loop). Throws PatchbayError `invalid_request_error` whose `param`
 * names the field (`routes.subagent`, `fallbacks.fast[1]`). `before` is the app as it was: a route to an alias the
 * change removes is named as such (the user removed an alias, not set a bad route).
 */
export function checkRouting(app: App, before: App | undefined, cli: CliCommand): void {
  for (const [role, target] of Object.entries(app.routes)) {
    if (target === undefined) continue;
    const param = `routes.${role}`;
    if (Object.hasOwn(app.aliases, target)) continue;
    if (before && Object.hasOwn(before.aliases, target) && before.routes[role as RequestRole] === target)
      throw new PatchbayError(
        "invalid_request_error",
        `The alias "${target}" cannot be removed: app "${app.name}" routes ${role} requests to it. Change or remove that route first (${cli(`app route ${app.name} ${role} --remove`)}).`,
        { param },
      );
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

/** The routing fields of a change to an app (a PATCH body, a CLI command's new values). */
export interface RoutingChange {
  routes?: RouteMap | undefined;
  fallbacks?: FallbackMap | undefined;
  /** The app's aliases after the change (a route naming one of them names no model of its own). */
  aliases?: Record<string, string> | undefined;
  /** The app's allowlist after the change. */
  models?: string[] | undefined;
}

/** One field of a routing change that names a model the catalog lacks. */
export interface UnknownRoutingModel {
  /** `routes.subagent`, `fallbacks.fast[1]`. */
  param: string;
  model: string;
  message: string;
}

/**
 * The models a routing change newly names (a route's `provider/model[#variant]`, a fallback) that no connected
 * provider offers, per the catalog. Entries `previous` already had at the same role or in the same alias's chain are
 * not checked again, so an unrelated edit is never refused because a provider went away. Names that are no model
 * (`fast`, no `/`) and models the allowlist refuses are left to {@link checkRouting}, which says so. Pure.
 */
export function unknownRoutingModels(
  change: RoutingChange,
  previous: App | undefined,
  catalog: readonly ModelInfo[],
  cli: CliCommand,
): UnknownRoutingModel[] {
  const out: UnknownRoutingModel[] = [];
  const aliases = change.aliases ?? previous?.aliases ?? {};
  const models = change.models ?? previous?.models ?? [];
  // Unknown only when it is a model the app may use: checkRouting names the other mistakes.
  const has = (m: string) => !m.includes("/") || !isModelAllowed(models, baseId(m)) || aliasTargetAvailable(m, catalog);
  for (const [role, target] of Object.entries(change.routes ?? {})) {
    if (target === undefined || Object.hasOwn(aliases, target)) continue;
    if (previous?.routes[role as RequestRole] === target || has(target)) continue;
    out.push({
      param: `routes.${role}`,
      model: target,
      message: `The route for ${role} names ${target}, which no connected provider offers; pick one of the models Patchbay lists (${cli("models")}, or the dashboard's model picker).`,
    });
  }
  for (const [alias, chain] of Object.entries(change.fallbacks ?? {})) {
    const before = previous && Object.hasOwn(previous.fallbacks, alias) ? (previous.fallbacks[alias] ?? []) : [];
    chain.forEach((model, i) => {
      if (before.includes(model) || has(model)) return;
      out.push({
        param: `fallbacks.${alias}[${i}]`,
        model,
        message: `The fallback ${model} of "${alias}" is a model no connected provider offers; pick one of the models Patchbay lists (${cli("models")}, or the dashboard's model picker).`,
      });
    });
  }
  return out;
}
