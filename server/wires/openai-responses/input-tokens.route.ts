// POST /v1/responses/input_tokens (OpenAI API reference, "Get input token counts"; the openai SDK's
// `responses.inputTokens.count`): the body is a Responses request, decoded like one (same 400s; `previous_response_id`
// and `item_reference` expanded from the app's stored responses), its model checked under the app's policy when given
// (same 403/404), and its input tokens ESTIMATED like Anthropic's count_tokens (server/tokenizer/request-texts.ts).
// Answers `{object: "response.input_tokens", input_tokens}`; `x-patchbay-estimate` says how it was counted.
import type { RequestHandler } from "express";
import { appDataKey } from "../../../shared/apps";
import type { ModelInfo } from "../../core/contract";
import { resolveModel } from "../../core/model-resolver";
import { authOf } from "../../http/middleware/api-auth";
import { estimateInputTokens } from "../../http/model-run/token-estimate";
import { decodeInClientTerms, expandStoredInput } from "../../responses-store/expand-input";
import { newResponseId } from "../../responses-store/record";
import type { ResponseStore } from "../../responses-store/response-store";
import { decodeResponsesRequest } from "./decode";

/** Stands in for an absent `model` (optional on this endpoint: an estimate needs none). */
const ANY_MODEL = "patchbay/estimate";

/** The route handler. */
export function inputTokensRoute(deps: {
  responses: ResponseStore;
  catalog: () => Promise<ModelInfo[]>;
  now: () => number;
}): RequestHandler {
  return async (req, res) => {
    const { app } = authOf(res);
    const raw: unknown = req.body;
    const hasModel = typeof raw === "object" && raw !== null && "model" in raw;
    const body = hasModel || typeof raw !== "object" || raw === null ? raw : { ...raw, model: ANY_MODEL };
    const expanded = await expandStoredInput(body, appDataKey(app), deps.responses, newResponseId(deps.now()));
    const { request } = decodeInClientTerms(expanded, () => decodeResponsesRequest(expanded.body));
    if (hasModel) resolveModel(app, request.model, await deps.catalog());
    res.json({ object: "response.input_tokens", input_tokens: await estimateInputTokens(res, request) });
  };
}
