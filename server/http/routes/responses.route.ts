// POST /v1/responses: decode the Responses wire (stateless subset), run it, encode events or a response object.
import type { RequestHandler } from "express";
import { randomUUID } from "node:crypto";
import { decodeResponsesRequest } from "../../openai/responses/decode";
import { ResponsesEncoder } from "../../openai/responses/encode";
import { runModelRequest } from "../model-run/run";
import type { DecodedWireRequest, ModelRequestDeps } from "../model-run/types";

/** Decodes a Responses request and binds its encoder. */
export function decodeResponsesWire(body: unknown, now: () => number): DecodedWireRequest {
  const { request, echo, toolNames } = decodeResponsesRequest(body);
  return {
    request,
    createEncoder: (model) =>
      new ResponsesEncoder({
        id: `resp_${randomUUID().replace(/-/g, "")}`,
        createdAt: Math.floor(now() / 1000),
        model,
        echo,
        toolNames,
        newId: (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, "")}`,
      }),
  };
}

/** The route handler. */
export function responsesRoute(deps: ModelRequestDeps): RequestHandler {
  return (req, res) => runModelRequest(req, res, deps, (body) => decodeResponsesWire(body, deps.now));
}
