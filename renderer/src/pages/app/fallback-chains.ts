// Fallback chains as the Aliases tab edits them: pure helpers for the draft (one list per saved alias), the checks
// made before a model joins a chain, and which chain a refused save names. The server checks again when saving.
import { AdminApiError } from "../../../../shared/admin/client";
import { FallbackTarget, MAX_FALLBACKS, type FallbackMap } from "../../../../shared/routing";

/** The chain of `alias` in `chains` (none: empty). Own keys only: alias names come from user input. */
export function chainOf(chains: FallbackMap, alias: string): string[] {
  return Object.hasOwn(chains, alias) ? (chains[alias] ?? []) : [];
}

/**
 * The non-empty chains of the aliases in `aliases`, keyed in the aliases' order: the `fallbacks` a PATCH of the app
 * takes (it replaces the whole map; an alias without fallbacks has no key, FallbackList needs one entry or more).
 * Keyed alike for the saved app and the draft, so comparing their JSON says whether anything changed.
 */
export function chainsToSave(aliases: Record<string, string>, chains: FallbackMap): FallbackMap {
  const out: FallbackMap = {};
  for (const alias of Object.keys(aliases)) {
    const chain = chainOf(chains, alias);
    if (chain.length) out[alias] = [...chain];
  }
  return out;
}

/** `list` with the entry at `index` moved by `by` (-1: up, 1: down); the same list when it would leave the ends. */
export function moveEntry<T>(list: readonly T[], index: number, by: -1 | 1): T[] {
  const to = index + by;
  if (index < 0 || index >= list.length || to < 0 || to >= list.length) return [...list];
  const out = [...list];
  [out[index], out[to]] = [out[to] as T, out[index] as T];
  return out;
}

/**
 * Why `model` cannot join the chain of an alias whose own target is `target` (its shape, the chain would come back
 * to a model it already has, the chain is full), or null. What only the server knows (whether a provider offers the
 * model, the app's allowlist, control characters) it refuses on save with a 400 naming the field.
 */
export function fallbackProblem(model: string, target: string, chain: readonly string[]): string | null {
  const shape = FallbackTarget.safeParse(model);
  if (!shape.success) return shape.error.issues[0]?.message ?? "Use provider/model or provider/model#variant";
  if (model === target) return `${model} is the alias's own target; a fallback must be another model.`;
  if (chain.includes(model)) return `${model} is already in this chain.`;
  if (chain.length >= MAX_FALLBACKS) return `An alias has at most ${MAX_FALLBACKS} fallbacks.`;
  return null;
}

/** The chain (and, when named, the entry) a refused save is about. */
export interface RefusedFallback {
  alias: string;
  index: number | null;
}

/**
 * Which of `aliases`' chains `error` names: the server's `field` is `fallbacks.fast` or `fallbacks.fast[1]`, the
 * admin client's own check `fallbacks.fast.1`. Alias names may contain dots, so the longest alias that fits wins.
 * Null for any other error (it is shown with the save button).
 */
export function refusedFallback(error: unknown, aliases: readonly string[]): RefusedFallback | null {
  if (!(error instanceof AdminApiError) || !error.field?.startsWith("fallbacks.")) return null;
  const rest = error.field.slice("fallbacks.".length);
  let best: RefusedFallback | null = null;
  for (const alias of aliases) {
    if (!rest.startsWith(alias) || (best && best.alias.length >= alias.length)) continue;
    const tail = rest.slice(alias.length);
    const index = /^(?:\[(\d+)\]|\.(\d+))$/.exec(tail);
    if (tail === "") best = { alias, index: null };
    else if (index) best = { alias, index: Number(index[1] ?? index[2]) };
  }
  return best;
}
