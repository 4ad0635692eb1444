// POST /v1/messages (Anthropic Messages API): decode the Anthropic wire, run it with the shared runner, encode
// Anthropic events or a Message object. Keepalives are Anthropic `ping` events.
import type { RequestHandler } from "express";
import { randomUUID } from "node:crypto";
import { decodeMessagesRequest } from "./decode";
import { MessagesEncoder, PING_FRAME_TEXT } from "./encode";
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
