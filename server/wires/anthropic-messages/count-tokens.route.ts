// POST /v1/messages/count_tokens: the request is decoded like a Message request (same 400s), its model resolved under
// the app's policy (same 403/404), and its input tokens ESTIMATED (js-tiktoken in a worker; see server/tokenizer/request-texts.ts).
import type { RequestHandler } from "express";
import type { ModelInfo } from "../../core/contract";
import { resolveModel } from "../../core/model-resolver";
import { decodeCountTokensRequest } from "./decode";
import { authOf } from "../../http/middleware/api-auth";
import { estimateInputTokens } from "../../http/model-run/token-estimate";

/** The route handler: `{input_tokens}`. */
export function countTokensRoute(catalog: () => Promise<ModelInfo[]>): RequestHandler {
  return async (req, res) => {
    const request = decodeCountTokensRequest(req.body);
    resolveModel(authOf(res).app, request.model, await catalog());
    res.json({ input_tokens: await estimateInputTokens(res, request) });
  };
}
