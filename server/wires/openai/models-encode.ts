// `/v1/models` bodies (OpenAI API reference, "Models"): the list and single model objects, aliases included.
// Pure: which models an app may see is decided by the caller (policy), not here.
import type { ModelInfo } from "../../core/contract";

/** `owned_by` of alias entries. */
export const ALIAS_OWNER = "patchbay-alias";

/** One model object on the wire. `created` is unix seconds (0 when unknown). */
export interface OpenAiModel {
  id: string;
  object: "model";
  created: number;
  owned_by: string;
}

/** The `GET /v1/models` body. */
export interface OpenAiModelList {
  object: "list";
  data: OpenAiModel[];
}

function isWireModel(model: ModelInfo | OpenAiModel): model is OpenAiModel {
  return (model as OpenAiModel).object === "model";
}

/** One model object: `owned_by` is the OpenCode provider id. Passing a wire entry (from {@link encodeModelList})
 *  returns a copy of it, so `GET /v1/models/{id}` can reuse the list. */
export function encodeModel(model: ModelInfo | OpenAiModel): OpenAiModel {
  if (isWireModel(model)) return { id: model.id, object: "model", created: model.created, owned_by: model.owned_by };
  return { id: model.id, object: "model", created: model.created, owned_by: model.providerID };
}

/** An alias entry: `owned_by` {@link ALIAS_OWNER}, `created` of its target (`provider/model[#variant]`) or 0. */
export function encodeAlias(alias: string, target: string, models: readonly ModelInfo[]): OpenAiModel {
  const targetId = target.split("#", 1)[0];
  const created = models.find((m) => m.id === targetId)?.created ?? 0;
  return { id: alias, object: "model", created, owned_by: ALIAS_OWNER };
}

/**
 * The `GET /v1/models` body: the given models in order, then the aliases sorted by name. Ids are unique: an alias
 * named like a model replaces that model's entry (aliases win when a request names the id).
 */
export function encodeModelList(
  models: readonly ModelInfo[],
  aliases: Readonly<Record<string, string>>,
): OpenAiModelList {
  const aliasNames = Object.keys(aliases).sort();
  const aliasSet = new Set(aliasNames);
  const seen = new Set<string>();
  const data: OpenAiModel[] = [];
  for (const model of models) {
    if (aliasSet.has(model.id) || seen.has(model.id)) continue;
    seen.add(model.id);
    data.push(encodeModel(model));
  }
  for (const alias of aliasNames) data.push(encodeAlias(alias, aliases[alias] ?? "", models));
  return { object: "list", data };
}
