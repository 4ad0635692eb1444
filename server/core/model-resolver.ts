// Resolves the `model` a client asked for into an OpenCode target under the app's aliases and allowlist.
// Pure: takes the model catalog as input; never talks to OpenCode itself.
import { isModelAllowed, type App } from "../../shared/apps";
import { fromClaudeCodeModelId } from "./claude-code-models";
import { quoteClientText as q } from "./client-text";
import type { ModelInfo, ModelTarget } from "./contract";
import { PatchbayError } from "./errors";

/** Result of resolving a client's `model`. `id` is `provider/model` (variant in `target.variant`). */
export interface ResolvedModel {
  id: string;
  target: ModelTarget;
  /** The alias used, if any. */
  alias: string | null;
  /** The catalog entry of the model (capabilities, limits). */
  info: ModelInfo;
}

/** Splits `provider/model#variant`. Returns null when there is no provider part, no model part, or a `#` with no
 *  variant after it. */
export function parseModelRef(ref: string): ModelTarget | null {
  const hash = ref.lastIndexOf("#");
  const base = hash > 0 ? ref.slice(0, hash) : ref;
  const variant = hash > 0 ? ref.slice(hash + 1) : undefined;
  if (variant === "") return null;
  const slash = base.indexOf("/");
  if (slash <= 0 || slash === base.length - 1) return null;
  return { providerID: base.slice(0, slash), modelID: base.slice(slash + 1), ...(variant ? { variant } : {}) };
}

/**
 * Resolves `asked` for `app`:
 * 1. an alias of the app (aliases are explicit grants: their targets pass the allowlist);
 * 2. `provider/model[#variant]` from the catalog, checked against the allowlist;
 * 3. a bare model id that exactly one provider offers.
 * Each also as `claude/<name>`, the form Claude Code's model picker shows (claude-code-models.ts).
 * Throws PatchbayError `model_not_found` (404, message quotes the id, shortened) or `model_not_allowed` (403).
 */
export function resolveModel(app: App, askedAs: string, catalog: readonly ModelInfo[]): ResolvedModel {
  // `claude/<id>`: the name Claude Code's model picker was given for `<id>` (claude-code-models.ts).
  const asked = fromClaudeCodeModelId(
    askedAs,
    (n) => Object.hasOwn(app.aliases, n) || catalog.some((m) => m.id === n.split("#")[0]),
  );
  // Own keys only: `constructor` or `__proto__` are model names a client may send, not aliases.
  const aliasTarget = Object.hasOwn(app.aliases, asked) ? app.aliases[asked] : undefined;
  if (aliasTarget !== undefined) {
    const target = parseModelRef(aliasTarget);
    const info = target && findModel(catalog, target);
    if (!target || !info) {
      throw new PatchbayError(
        "model_not_found",
        `The alias ${q(asked)} points to ${q(aliasTarget)}, which no connected OpenCode provider offers. Fix the alias in the Patchbay dashboard.`,
        { param: "model" },
      );
    }
    return { id: info.id, target: withVariant(info, target.variant, asked), alias: asked, info };
  }
  if (asked.endsWith("#")) {
    throw new PatchbayError(
      "model_not_found",
      `The model ${q(asked)} ends with '#' but names no variant: use provider/model or provider/model#variant.`,
      { param: "model" },
    );
  }

  let target = parseModelRef(asked);
  let info = target ? findModel(catalog, target) : undefined;
  if (!target) {
    const matches = catalog.filter((m) => m.modelID === asked);
    if (matches.length === 1 && matches[0]) {
      info = matches[0];
      target = { providerID: info.providerID, modelID: info.modelID };
    }
  }
  if (!target || !info) {
    throw new PatchbayError(
      "model_not_found",
      `The model ${q(asked)} does not exist or is not available through your OpenCode logins. GET /v1/models lists the models this key can use.`,
      { param: "model" },
    );
  }
  if (!isModelAllowed(app.models, info.id)) {
    throw new PatchbayError(
      "model_not_allowed",
      `The app '${app.name}' is not allowed to use '${info.id}'. Add it to the app's model allowlist in the Patchbay dashboard or with: patchbay app models ${app.name} …`,
      { param: "model" },
    );
  }
  return { id: info.id, target: withVariant(info, target.variant, asked), alias: null, info };
}

function findModel(catalog: readonly ModelInfo[], t: ModelTarget): ModelInfo | undefined {
  return catalog.find((m) => m.providerID === t.providerID && m.modelID === t.modelID);
}

function withVariant(info: ModelInfo, variant: string | undefined, asked: string): ModelTarget {
  if (variant === undefined) return { providerID: info.providerID, modelID: info.modelID };
  if (!info.variants.includes(variant)) {
    throw new PatchbayError(
      "model_not_found",
      `${q(asked)} names the variant ${q(variant)}, but ${info.id} has ${info.variants.length ? `only: ${info.variants.join(", ")}` : "no variants"}.`,
      { param: "model" },
    );
  }
  return { providerID: info.providerID, modelID: info.modelID, variant };
}

/** True when an alias target (`provider/model[#variant]`) names a model (and variant) the catalog has. */
export function aliasTargetAvailable(target: string, catalog: readonly ModelInfo[]): boolean {
  const t = parseModelRef(target);
  const info = t && findModel(catalog, t);
  return Boolean(info && (t.variant === undefined || info.variants.includes(t.variant)));
}

/**
 * Models an app may use (for `/v1/models`): the allowed catalog entries plus the aliases that can serve, each mapped
 * to the model that would (its target, else the first of its fallbacks the catalog has: routing/chain.ts asks them in
 * that order). Aliases none of whose models a connected provider offers are left out of `aliases` and listed in
 * `unavailable` (alias → target), so a client never picks a model that can only fail.
 */
export function modelsForApp(
  app: App,
  catalog: readonly ModelInfo[],
): { models: ModelInfo[]; aliases: Record<string, string>; unavailable: Record<string, string> } {
  const aliases: Record<string, string> = {};
  const unavailable: Record<string, string> = {};
  for (const [alias, target] of Object.entries(app.aliases)) {
    const fallbacks = Object.hasOwn(app.fallbacks, alias) ? (app.fallbacks[alias] ?? []) : [];
    const serving = [target, ...fallbacks].find((m) => aliasTargetAvailable(m, catalog));
    if (serving !== undefined) aliases[alias] = serving;
    else unavailable[alias] = target;
  }
  return { models: catalog.filter((m) => isModelAllowed(app.models, m.id)), aliases, unavailable };
}
