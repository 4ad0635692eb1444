// The answer of both token-count endpoints (Anthropic's `count_tokens`, OpenAI's Responses `input_tokens`): the
// decoder's warnings in `x-patchbay-warnings`, how the count was made in `x-patchbay-estimate`, and the estimate.
import type { Response } from "express";
import type { NeutralRequest } from "../../core/contract";
import { textsOf } from "../../tokenizer/request-texts";
import { countInputTokens } from "../../tokenizer/token-count-pool";
import { formatWarningsHeader } from "./warnings";

/** Estimates `request`'s input tokens (in the tokenizer worker) and sets the two headers on `res`; returns the count. */
export async function estimateInputTokens(res: Response, request: NeutralRequest): Promise<number> {
  const warnings = formatWarningsHeader(request.warnings);
  if (warnings) res.setHeader("x-patchbay-warnings", warnings);
  const { tokens, method } = await countInputTokens(textsOf(request));
  res.setHeader("x-patchbay-estimate", method);
  return tokens;
}
