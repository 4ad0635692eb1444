// The OpenAI Chat Completions wire: POST /v1/chat/completions (decode the chat request, run it, encode chat chunks or
// a chat.completion), OpenAI's error envelope.
import type { RequestHandler } from "express";
import type { Wire } from "../../http/wire";
import { randomUUID } from "node:crypto";
import { decodeChatRequest } from "./decode";
import { ChatEncoder } from "./encode";
import { toOpenAiErrorBody } from "../openai/error-envelope";
import { runModelRequest } from "../../http/model-run/run";
import type { DecodedWireRequest, ModelRequestDeps } from "../../http/model-run/types";

/** Decodes a chat request and binds its encoder (ids and timestamps are made here, not in the pure codec). */
export function decodeChatWire(body: unknown, now: () => number): DecodedWireRequest {
  const request = decodeChatRequest(body);
  return {
    request,
    createEncoder: (model) =>
      new ChatEncoder({
        id: `chatcmpl-${randomUUID().replace(/-/g, "")}`,
        created: Math.floor(now() / 1000),
        model,
        includeUsage: request.includeUsage,
      }),
  };
}

/** The route handler. */
export function chatCompletionsRoute(deps: ModelRequestDeps): RequestHandler {
  return (req, res) => runModelRequest(req, res, deps, (body) => decodeChatWire(body, deps.now));
}

/** The Chat Completions wire (its /v1/models routes are the shared OpenAI ones). */
export const openAiChatWire: Wire = {
  name: "openai-chat",
  errorBody: toOpenAiErrorBody,
  routes: (deps) => [{ method: "post", path: "/chat/completions", handler: chatCompletionsRoute(deps) }],
};
