// Turns a backend `error` event (ModelError) into a PatchbayError, for both wire encoders.
// Must not build wire JSON (error-envelope.ts does that).
import type { ModelError } from "./contract";
import { PatchbayError } from "./errors";
import { ERROR_CODES, type ErrorCode } from "../../shared/errors";

function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CODES, code);
}

/** The PatchbayError for a ModelError: same message (a default one when empty), status, param and retryAfter; a code outside shared/errors.ts
 *  becomes `upstream_error` (the status is kept). */
export function modelErrorToPatchbayError(err: ModelError): PatchbayError {
  const code: ErrorCode = isErrorCode(err.code) ? err.code : "upstream_error";
  // Clients treat an empty message as "no body"; always say something.
  const message =
    err.message.trim() === ""
      ? `The model failed (${err.code || "unknown error"}, status ${err.status}).`
      : err.message;
  return new PatchbayError(code, message, {
    status: err.status,
    param: err.param ?? null,
    retryAfter: err.retryAfter,
    ...(err.cause !== undefined ? { cause: err.cause } : {}),
  });
}

/** The ModelError the encoders use when a backend stream ends without `finish` or `error` (a backend bug or a cut
 *  connection): reported as a 502 `upstream_error`, never as a normal finish. */
export const STREAM_ENDED_EARLY: ModelError = Object.freeze({
  code: "upstream_error",
  status: 502,
  message: "The model stream ended before the model finished its answer.",
});
