// The Anthropic error envelope `{type:"error", error:{type, message}}`: the one place that shapes errors for the
// Messages API (the HTTP error middleware and in-band `event: error` frames both call it). Statuses are decided
// elsewhere; this maps a status to Anthropic's error `type` (Anthropic API reference, "Errors").
import type { PatchbayError } from "../../core/errors";

/** Anthropic error body. */
export interface AnthropicErrorBody {
  type: "error";
  error: { type: string; message: string };
}

/** Anthropic's `error.type` for an HTTP status: 400 invalid_request_error (also other 4xx), 401
 *  authentication_error, 403 permission_error, 404 not_found_error, 413 request_too_large, 429 rate_limit_error,
 *  503/529 overloaded_error, 504 timeout_error, other 5xx api_error. */
export function anthropicErrorType(status: number): string {
  switch (status) {
    case 401:
      return "authentication_error";
    case 403:
      return "permission_error";
    case 404:
      return "not_found_error";
    case 413:
      return "request_too_large";
    case 429:
      return "rate_limit_error";
    case 503:
    case 529:
      return "overloaded_error";
    case 504:
      return "timeout_error";
    default:
      return status >= 500 ? "api_error" : "invalid_request_error";
  }
}

/** Encodes a PatchbayError as Anthropic's envelope. The field at fault (`param`) is named in the message when the
 *  message does not already quote it (Anthropic's envelope has no `param`). */
export function toAnthropicErrorBody(err: PatchbayError): AnthropicErrorBody {
  const message = err.param && !err.message.includes(err.param) ? `${err.param}: ${err.message}` : err.message;
  return { type: "error", error: { type: anthropicErrorType(err.status), message } };
}
