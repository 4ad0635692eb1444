// The OpenAI Responses wire (OpenAI's error envelope). POST /v1/responses: expand stored state (previous_response_id, item_reference) for the app, decode the Responses
// wire, run it, encode events or a response object, and store the finished response unless `store` is false or the
// app turned storing off.
import { CODEX_ONLY_ENDPOINTS, codexOnlyEndpointRoute } from "./codex-endpoints.route";
import type { RequestHandler } from "express";
import type { Wire, WireRoute } from "../../http/wire";
import { decodeResponsesRequest } from "./decode";
import { inputTokensRoute } from "./input-tokens.route";
import { ResponsesEncoder } from "./encode";
import { toOpenAiErrorBody } from "../openai/error-envelope";
import { deleteStoredResponseRoute, getStoredResponseRoute, listInputItemsRoute } from "./stored.route";
import { appDataKey } from "../../../shared/apps";
import { decodeInClientTerms, expandStoredInput } from "../../responses-store/expand-input";
import { persistingEncoder, type ResponsePersistence } from "./persisting-encoder";
import { newResponseId } from "../../responses-store/record";
import type { ResponseStore } from "../../responses-store/response-store";
import { authOf } from "../../http/middleware/api-auth";
import { runModelRequest } from "../../http/model-run/run";
import type { DecodedWireRequest, ModelRequestDeps } from "../../http/model-run/types";

export type { ResponsePersistence } from "./persisting-encoder";

/** Options of {@link decodeResponsesWire} beyond the body. */
export interface ResponsesWireOptions {
  /** The response id (default: a new `resp_…` made from `now`). */
  id?: string;
  /** Echoed as `previous_response_id`. */
  previousResponseId?: string | null;
  /** Present: the response is stored when it ends (`store: true` on the wire); absent: `store: false`. */
  persistence?: ResponsePersistence;
}

/** Decodes a Responses request and binds its encoder (and, with `persistence`, how it is stored). */
export function decodeResponsesWire(
  body: unknown,
  now: () => number,
  options: ResponsesWireOptions = {},
): DecodedWireRequest {
  const { request, echo, toolNames } = decodeResponsesRequest(body);
  const id = options.id ?? newResponseId(now());
  const createdMs = now();
  const stored = options.persistence;
  return {
    request,
    createEncoder: (model) => {
      // Output item ids are the encoder's default `<prefix>_<response key>_<n>`, so an item_reference finds its
      // response by id alone.
      const enc = new ResponsesEncoder({
        id,
        createdAt: Math.floor(createdMs / 1000),
        model,
        echo: { ...echo, store: stored !== undefined, previous_response_id: options.previousResponseId ?? null },
        toolNames,
      });
      return stored ? persistingEncoder(enc, stored, { id, createdMs }) : enc;
    },
  };
}

/** What the Responses route needs beyond the runner's dependencies. */
export interface ResponsesRouteDeps extends ModelRequestDeps {
  responses: ResponseStore;
  log: (line: string) => void;
}

/** The route handler. */
export function responsesRoute(deps: ResponsesRouteDeps): RequestHandler {
  return async (req, res) => {
    const { app } = authOf(res);
    const id = newResponseId(deps.now());
    const expanded = await expandStoredInput(req.body, appDataKey(app), deps.responses, id);
    const body: unknown = expanded.body;
    const wantsStore = !(typeof body === "object" && body !== null && "store" in body && body.store === false);
    const keep = app.storeResponses && wantsStore && expanded.input !== null;
    await runModelRequest(req, res, deps, () =>
      decodeInClientTerms(expanded, () =>
        decodeResponsesWire(body, deps.now, {
          id,
          previousResponseId: expanded.previousResponseId,
          ...(keep && expanded.input && expanded.added
            ? {
                persistence: {
                  store: deps.responses,
                  app: appDataKey(app),
                  parent: expanded.previousResponseId,
                  added: expanded.added,
                  input: expanded.input,
                  log: deps.log,
                },
              }
            : {}),
        }),
      ),
    );
  };
}

/** False for `/responses/input_tokens` (see the routes below). */
const notInputTokens = (req: { params: Record<string, unknown> }): boolean => req.params.id !== "input_tokens";

/** The Responses wire: create, and the app's stored responses (its /v1/models routes are the shared OpenAI ones). */
export const openAiResponsesWire: Wire = {
  name: "openai-responses",
  errorBody: toOpenAiErrorBody,
  routes: (deps) => [
    { method: "post", path: "/responses", handler: responsesRoute(deps) },
    // Before `/responses/:id`, which would take `input_tokens` for an id.
    { method: "post", path: "/responses/input_tokens", handler: inputTokensRoute(deps) },
    // Codex's OpenAI-only endpoints: a clear 404 in OpenAI's envelope, not the unknown-route one.
    ...Object.keys(CODEX_ONLY_ENDPOINTS).map((path): WireRoute => ({
      method: "post",
      path: `/${path}`,
      handler: codexOnlyEndpointRoute(path),
    })),
    // `input_tokens` is a route of its own, never a stored response's id: GET/DELETE of it are a 405 (Allow: POST).
    { method: "get", path: "/responses/:id", accepts: notInputTokens, handler: getStoredResponseRoute(deps.responses) },
    {
      method: "delete",
      path: "/responses/:id",
      accepts: notInputTokens,
      handler: deleteStoredResponseRoute(deps.responses),
    },
    { method: "get", path: "/responses/:id/input_items", handler: listInputItemsRoute(deps.responses) },
  ],
};
