// The fields of a Responses output that are computed, not streamed: usage, the error code and message of a failed
// response (as clients such as Codex act on them), a custom tool's input, an output text part. Pure.
import type { UrlCitation } from "../../server-tools/responses-items";
import type { ModelError, Usage } from "../../core/contract";
import type { PatchbayError } from "../../core/errors";
import { modelErrorToPatchbayError } from "../../core/model-error";
import type { OutputTextPart, ResponseUsageOut } from "./wire-types";

/** Responses usage from neutral usage (both count cached input and reasoning output inside the totals). */
export function toResponseUsage(usage: Usage): ResponseUsageOut {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cachedInputTokens, cache_write_tokens: usage.cacheWriteTokens ?? 0 },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens },
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}

/** `response.error.code` for a backend error, from OpenAI's `ResponseErrorCode` enum plus the two codes the API sends
 *  outside it, which clients act on (Codex's SSE parser, codex-rs/codex-api/src/sse/responses.rs):
 *  `context_length_exceeded` (the client compacts or stops), `insufficient_quota` (fatal: waiting does not help),
 *  `rate_limit_exceeded` for other 429s (the client retries after the message's "try again in N s"), `invalid_prompt`
 *  for other 4xx, else `server_error`. Patchbay's own code stays in the request log and the HTTP error envelope. */
export function responseErrorCode(error: ModelError): string {
  if (error.kind === "context_length") return "context_length_exceeded";
  if (error.kind === "quota") return "insufficient_quota";
  if (error.status === 429) return "rate_limit_exceeded";
  return error.status >= 400 && error.status < 500 ? "invalid_prompt" : "server_error";
}

/** `response.error.message`: the error's message; a rate limit with a known wait gets OpenAI's "Please try again in
 *  N s." so clients that parse it (Codex) wait that long before retrying. */
export function responseErrorMessage(error: ModelError): string {
  const message = modelErrorToPatchbayError(error).message;
  if (responseErrorCode(error) !== "rate_limit_exceeded" || error.retryAfter === undefined) return message;
  if (/try again in/i.test(message)) return message;
  return `${message.replace(/\s+$/, "")}${/[.!?]$/.test(message.trim()) ? "" : "."} Please try again in ${error.retryAfter}s.`;
}

/** A custom tool's input from the arguments of its one-argument function (`{"input": "…"}`); arguments that are not
 *  such an object (a model that ignored the schema) are passed on as the input text itself. */
export function customInputOf(rawArguments: string): string {
  try {
    const parsed: unknown = JSON.parse(rawArguments);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
      const input = (parsed as Record<string, unknown>).input;
      if (typeof input === "string") return input;
    }
  } catch {
    // not JSON: the model wrote the input directly
  }
  return rawArguments;
}

/** The PatchbayError of a failed run, with the same message as its `response.failed` event. */
export function failureError(error: ModelError): PatchbayError {
  return modelErrorToPatchbayError({ ...error, message: responseErrorMessage(error) });
}

/** An `output_text` part; `annotations` carries `url_citation`s when a web search ran (server/server-tools). */
export function textPart(text: string, annotations: UrlCitation[] = []): OutputTextPart {
  return { type: "output_text", text, annotations, logprobs: [] };
}
