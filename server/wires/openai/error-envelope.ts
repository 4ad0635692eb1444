// The OpenAI error envelope `{error:{message,type,param,code}}`: the one place that shapes errors for the OpenAI API
// (the HTTP error middleware and the in-band stream error frames both call it). Must not decide statuses or codes.
import type { PatchbayError } from "../../core/errors";
import { openAiErrorType } from "../../../shared/errors";
import { BudgetExhaustedError } from "../../budgets/budget-guard";

/** OpenAI error body (OpenAI API reference, "Error codes"); `code` is Patchbay's code from shared/errors.ts. */
export interface OpenAiErrorBody {
  error: {
    message: string;
    type: string;
    param: string | null;
    code: string | null;
    /** Spent budgets only: when to retry (unix s), as Codex reads it. */
    resets_at?: number;
    resets_in_seconds?: number;
  };
}

/**
 * Encodes a PatchbayError as the OpenAI error envelope; `type` comes from the status via `openAiErrorType`. A spent
 * budget is `type: "usage_limit_reached"` with `resets_at`: the form Codex turns into "try again at …" instead of
 * retrying (codex-rs parses a 429 body's `error.type`/`resets_at` into its UsageLimitReached error).
 */
export function toOpenAiErrorBody(err: PatchbayError): OpenAiErrorBody {
  const body: OpenAiErrorBody = {
    error: { message: err.message, type: openAiErrorType(err.status), param: err.param, code: err.code },
  };
  if (err instanceof BudgetExhaustedError) {
    body.error.type = "usage_limit_reached";
    body.error.resets_at = Math.ceil(err.resetsAt / 1000);
    body.error.resets_in_seconds = err.retryAfter ?? 1;
  }
  return body;
}
