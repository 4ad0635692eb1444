// GET/DELETE /v1/responses/{id} and GET /v1/responses/{id}/input_items: the app's stored responses (OpenAI API
// reference, "Get a model response", "Delete a model response", "List input items"). Thin: the store does the I/O,
// another app's id is simply not found (404 naming the id).
import type { RequestHandler } from "express";
import { appDataKey } from "../../../shared/apps";
import { pageInputItems, parseInputItemsQuery } from "../../responses-store/input-items";
import type { ResponseStore } from "../../responses-store/response-store";
import { authOf } from "../../http/middleware/api-auth";

function idOf(params: unknown): string {
  const id = (params as Record<string, unknown>).id;
  return typeof id === "string" ? id : "";
}

/** GET /v1/responses/{id}: the stored response object. `stream=true` is not supported (answered as JSON). */
export function getStoredResponseRoute(store: ResponseStore): RequestHandler {
  return async (req, res) => {
    const record = await store.get(appDataKey(authOf(res).app), idOf(req.params));
    res.json(record.response);
  };
}

/** DELETE /v1/responses/{id}: `{id, object: "response.deleted", deleted: true}`. */
export function deleteStoredResponseRoute(store: ResponseStore): RequestHandler {
  return async (req, res) => {
    const id = idOf(req.params);
    await store.delete(appDataKey(authOf(res).app), id);
    res.json({ id, object: "response.deleted", deleted: true });
  };
}

/** GET /v1/responses/{id}/input_items: a page of the effective input (`limit`, `order`, `after`, `before`): every
 *  item the response was generated from, the earlier turns of its `previous_response_id` chain included. */
export function listInputItemsRoute(store: ResponseStore): RequestHandler {
  return async (req, res) => {
    const query = parseInputItemsQuery(req.query);
    res.json(pageInputItems(await store.inputOf(appDataKey(authOf(res).app), idOf(req.params)), query));
  };
}
