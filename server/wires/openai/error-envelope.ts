// The OpenAI error envelope `{error:{message,type,param,code}}`: the one place that shapes errors for the OpenAI API
// (the HTTP error middleware and the in-band stream error frames both call it). Must not decide statuses or codes.
import type { PatchbayError } from "../../core/errors";
import { openAiErrorType } from "../../../shared/errors";

/** OpenAI error body (OpenAI API reference, "Error codes"); `code` is Patchbay's code from shared/errors.ts. */
export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** Encodes a PatchbayError as the OpenAI error envelope; `type` comes from the status via `openAiErrorType`. */
export function toOpenAiErrorBody(err: PatchbayError): OpenAiErrorBody {
  return { error: { message: err.message, type: openAiErrorType(err.status), param: err.param, code: err.code } };
}
