// The targets of one request: the model its `model` (or its role's route) resolves to, then the alias's fallbacks.
import type { App } from "../../shared/apps";
import { fromClaudeCodeModelId } from "../core/claude-code-models";
import type { ModelInfo } from "../core/contract";
import { PatchbayError, toPatchbayError } from "../core/errors";
import { resolveModel, type ResolvedModel } from "../core/model-resolver";
import type { ChainEntry, ChainTarget } from "./fallback";
import type { CliCommand } from "../core/cli-command";

/** `x-patchbay-skipped`'s reason for a model of a chain no connected provider offers. */
export const NOT_OFFERED = "not offered by any connected provider";

/** A resolved model as a chain target. */
export function toTarget(r: ResolvedModel): ChainTarget {
  const variant = r.target.variant;
  return { model: r.info, ...(variant ? { variant } : {}), id: variant ? `${r.id}#${variant}` : r.id };
}

/** The request's chain: the first model that can be asked, and every entry in the alias's order. */
export interface ResolvedChain {
  /** The first entry that can be asked (its capabilities decide the media check; the log's `modelResolved`). */
  first: ResolvedModel;
  /** The alias's target then its fallbacks, models no provider offers included (skipped when reached); one entry
   *  when `asked` has no fallbacks. */
  entries: ChainEntry[];
  /** True when `asked` is an alias with fallbacks (the chain's rules apply: cooldowns, skipping, headers). */
  chained: boolean;
}

/** The alias `asked` names (also as Claude Code's `claude/<alias>`), or null. */
function aliasNamed(app: App, asked: string, catalog: readonly ModelInfo[]): string | null {
  const name = fromClaudeCodeModelId(
    asked,
    (n) => Object.hasOwn(app.aliases, n) || catalog.some((m) => m.id === n.split("#")[0]),
  );
  return Object.hasOwn(app.aliases, name) ? name : null;
}

/**
 * Resolves `asked` for `app` with its fallback chain. A model of an alias's chain that no connected provider offers
 * (its own target included) is kept as a missing entry: the chain skips it (`x-patchbay-skipped`) and asks the next.
 * Throws what resolveModel throws when `asked` has no fallbacks, and PatchbayError `model_not_found` (404) naming the
 * alias and every model of its chain when none can be asked.
 */
export function resolveChain(app: App, asked: string, catalog: readonly ModelInfo[], cli: CliCommand): ResolvedChain {
  const alias = aliasNamed(app, asked, catalog);
  const fallbacks = alias !== null && Object.hasOwn(app.fallbacks, alias) ? (app.fallbacks[alias] ?? []) : [];
  if (alias === null || fallbacks.length === 0) {
    const first = resolveModel(app, asked, catalog);
    return { first, entries: [toTarget(first)], chained: false };
  }
  let first: ResolvedModel | null = null;
  const entries: ChainEntry[] = [];
  for (const [i, ref] of [alias, ...fallbacks].entries()) {
    try {
      const resolved = resolveModel(app, ref, catalog);
      first ??= resolved;
      entries.push(toTarget(resolved));
    } catch (err) {
      const id = i === 0 ? (app.aliases[alias] ?? alias) : ref;
      const e = toPatchbayError(err);
      entries.push({ id, missing: e.code === "model_not_allowed" ? "not in the app's allowlist" : NOT_OFFERED });
    }
  }
  if (first === null)
    throw new PatchbayError(
      "model_not_found",
      `The alias "${alias}" points to ${entries.map((e) => e.id).join(" → ")} (its fallbacks included); no connected OpenCode provider offers any of them. Fix the alias in the Patchbay dashboard or with: ${cli(`app alias ${app.name} ${alias} MODEL --fallback MODEL`)}`,
      { param: "model" },
    );
  return { first, entries, chained: true };
}
