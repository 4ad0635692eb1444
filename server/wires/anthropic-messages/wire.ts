// The Anthropic Messages wire: POST /v1/messages (decode, run with the shared runner, encode Anthropic events or a
// Message object; keepalives are `ping` events), POST /v1/messages/count_tokens, and /v1/models in Anthropic's shape
// for Anthropic's clients; Anthropic's error envelope.
import type { Request, RequestHandler } from "express";
import type { Wire } from "../../http/wire";
import { randomUUID } from "node:crypto";
import { decodeMessagesRequest } from "./decode";
import { countTokensRoute } from "./count-tokens.route";
import { MessagesEncoder, PING_FRAME_TEXT } from "./encode";
import { toAnthropicErrorBody } from "./error-envelope";
import { getAnthropicModelRoute, listAnthropicModelsRoute } from "./models.route";
import { runModelRequest } from "../../http/model-run/run";
import type { DecodedWireRequest, ModelRequestDeps } from "../../http/model-run/types";

/** Decodes a Messages request and binds its encoder (`msg_` ids). */
export function decodeMessagesWire(body: unknown): DecodedWireRequest {
  const request = decodeMessagesRequest(body);
  return {
    request,
    keepalive: PING_FRAME_TEXT,
    createEncoder: (model) => new MessagesEncoder({ id: `msg_${randomUUID().replace(/-/g, "")}`, model }),
  };
}

/** The route handler. */
export function messagesRoute(deps: ModelRequestDeps): RequestHandler {
  return (req, res) => runModelRequest(req, res, deps, decodeMessagesWire);
}

/** Anthropic's clients on the /v1/models path the OpenAI wires share: the Anthropic SDK and Claude Code always send
 *  `anthropic-version`, and authenticate with `x-api-key` (OpenAI's clients send `Authorization: Bearer`). */
function fromAnthropicClient(req: Request): boolean {
  return req.headers["anthropic-version"] !== undefined || req.headers["x-api-key"] !== undefined;
}

/** The Messages wire. */
export const anthropicMessagesWire: Wire = {
  name: "anthropic-messages",
  errorBody: toAnthropicErrorBody,
  routes: (deps) => [
    { method: "post", path: "/messages", handler: messagesRoute(deps) },
    { method: "post", path: "/messages/count_tokens", handler: countTokensRoute(deps.catalog) },
    { method: "get", path: "/models", accepts: fromAnthropicClient, handler: listAnthropicModelsRoute(deps.catalog) },
    {
      method: "get",
      path: "/models/*id",
      accepts: fromAnthropicClient,
      handler: getAnthropicModelRoute(deps.catalog),
    },
  ],
};
