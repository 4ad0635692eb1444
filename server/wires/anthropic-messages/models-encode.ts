// `GET /v1/models` and `GET /v1/models/{id}` bodies in Anthropic's shape (Anthropic API reference, "Models"):
// `{data:[{type:"model", id, display_name, created_at}], has_more, first_id, last_id}`, aliases included.
// Pure: which models an app may see is decided by the caller (policy), not here.
import type { ModelInfo } from "../../core/contract";

/** One model object. `created_at` is RFC 3339 (the Unix epoch when the release date is unknown). */
export interface AnthropicModel {
  type: "model";
  id: string;
  display_name: string;
  created_at: string;
}

/** The list body; pagination by `after_id`/`before_id`/`limit`. */
export interface AnthropicModelList {
  data: AnthropicModel[];
  has_more: boolean;
  first_id: string | null;
  last_id: string | null;
}

/** Pagination query of the list (Anthropic: `limit` 1..1000, default 20). */
export interface ModelPage {
  limit?: number;
  afterId?: string;
  beforeId?: string;
}

function rfc3339(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.000Z$/, "Z");
}

/** Every model then every alias (sorted); an alias named like a model replaces that model's entry. */
export function encodeAnthropicModels(
  models: readonly ModelInfo[],
  aliases: Readonly<Record<string, string>>,
): AnthropicModel[] {
  const aliasNames = Object.keys(aliases).sort();
  const aliasSet = new Set(aliasNames);
  const seen = new Set<string>();
  const out: AnthropicModel[] = [];
  for (const m of models) {
    if (aliasSet.has(m.id) || seen.has(m.id)) continue;
    seen.add(m.id);
    out.push({
      type: "model",
      id: m.id,
      display_name: `${m.name} (${m.providerName})`,
      created_at: rfc3339(m.created),
    });
  }
  for (const alias of aliasNames) {
    const target = aliases[alias] ?? "";
    const info = models.find((m) => m.id === target.split("#", 1)[0]);
    out.push({
      type: "model",
      id: alias,
      display_name: `${alias} → ${target}`,
      created_at: rfc3339(info?.created ?? 0),
    });
  }
  return out;
}

/** One page of the list: `after_id` starts after that id, `before_id` ends before it, `limit` defaults to 20. */
export function encodeAnthropicModelList(all: readonly AnthropicModel[], page: ModelPage = {}): AnthropicModelList {
  const limit = Math.min(1000, Math.max(1, page.limit ?? 20));
  let start = 0;
  let end = all.length;
  if (page.afterId !== undefined) start = all.findIndex((m) => m.id === page.afterId) + 1;
  if (page.beforeId !== undefined) {
    const at = all.findIndex((m) => m.id === page.beforeId);
    end = at < 0 ? all.length : at;
    if (page.afterId === undefined) start = Math.max(0, end - limit);
  }
  const data = all.slice(start, Math.min(end, start + limit));
  const hasMore = page.beforeId !== undefined && page.afterId === undefined ? start > 0 : start + data.length < end;
  return { data, has_more: hasMore, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
}
