// GET /v1/responses/{id}/input_items as a pure function: one page of a stored response's effective input (OpenAI API
// reference, "List input items": `limit` 1–100 default 20, `order` asc|desc default desc, `after`/`before` item ids).
// No I/O.
import { quoteClientText } from "../core/client-text";
import { z } from "zod";
import { invalidRequest } from "../core/errors";
import type { StoredItem } from "./record";

/** The query of the input-items list (query strings arrive as strings). */
export const InputItemsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  order: z.enum(["asc", "desc"]).default("desc"),
  after: z.string().min(1).optional(),
  before: z.string().min(1).optional(),
  include: z.unknown().optional(),
});
/** The parsed query. */
export type InputItemsQuery = z.output<typeof InputItemsQuery>;

/** The list object of the wire. `first_id`/`last_id` are null for an empty page. */
export interface InputItemsPage {
  object: "list";
  data: StoredItem[];
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
}

/** Parses the query; throws 400 naming the parameter (`limit`, `order`, …). */
export function parseInputItemsQuery(raw: unknown): InputItemsQuery {
  const r = InputItemsQuery.safeParse(raw ?? {});
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const param = String(issue?.path[0] ?? "query");
  const hint = param === "limit" ? "an integer from 1 to 100" : param === "order" ? "'asc' or 'desc'" : "a string";
  throw invalidRequest(`Invalid '${param}': expected ${hint}.`, param);
}

/**
 * One page of `items` (in conversation order) for `q`: ordered by `order`, starting after the item `after` and/or
 * ending before the item `before` (ids in the same order; an unknown id → 400 naming it), at most `limit` items;
 * `has_more` when more follow in that direction.
 */
export function pageInputItems(items: readonly StoredItem[], q: InputItemsQuery): InputItemsPage {
  const ordered = q.order === "asc" ? [...items] : [...items].reverse();
  const position = (id: string, param: string): number => {
    const i = ordered.findIndex((x) => x.id === id);
    if (i < 0)
      throw invalidRequest(`Invalid '${param}': no input item with id ${quoteClientText(id)} in this response.`, param);
    return i;
  };
  const start = q.after ? position(q.after, "after") + 1 : 0;
  const end = q.before ? position(q.before, "before") : ordered.length;
  const window = ordered.slice(start, Math.max(start, end));
  const data = window.slice(0, q.limit);
  return {
    object: "list",
    data,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
    has_more: window.length > data.length,
  };
}
