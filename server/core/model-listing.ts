// GET /v1/models/{id} for every wire: the id from the route, and the lookup among the app's listed models (allowed
// models plus aliases) that ends in 404 `model_not_found`. Each wire encodes the list in its own shape.
import { PatchbayError } from "./errors";

/** The `{id}` of `/v1/models/*id`: model ids contain `/`, sent raw (express hands the segments over as an array) or
 *  as `%2F` (one decoded segment). */
export function modelIdParam(params: unknown): string {
  const raw = (params as Record<string, string | string[] | undefined>).id;
  return Array.isArray(raw) ? raw.join("/") : (raw ?? "");
}

/** The entry with `id` among the app's listed models (already encoded in the wire's shape).
 *  @throws PatchbayError 404 `model_not_found` (an unknown id and one the key may not use read the same). */
export function findListedModel<T extends { id: string }>(listed: readonly T[], id: string): T {
  const found = listed.find((m) => m.id === id);
  if (!found) {
    throw new PatchbayError("model_not_found", `The model '${id}' does not exist or this key may not use it.`, {
      param: "model",
    });
  }
  return found;
}
