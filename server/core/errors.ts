// PatchbayError: the one error type inside the server. Each listener's error middleware turns it into its wire shape
// (OpenAI envelope on the API, {error:{code,message}} on the admin API). Routes never build error JSON by hand.
import { ERROR_CODES, type ErrorCode } from "../../shared/errors";

export interface PatchbayErrorOptions {
  /** HTTP status; defaults to the code's status in shared/errors.ts. */
  status?: number;
  /** The request field at fault (OpenAI `error.param`), e.g. `messages[2].content`. */
  param?: string | null;
  /** Seconds for `Retry-After`. */
  retryAfter?: number;
  cause?: unknown;
}

/** An error a client or user can cause (or a backend failure), with a clear message and the right status. */
export class PatchbayError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly param: string | null;
  readonly retryAfter: number | undefined;

  constructor(code: ErrorCode, message: string, options: PatchbayErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "PatchbayError";
    this.code = code;
    this.status = options.status ?? ERROR_CODES[code];
    this.param = options.param ?? null;
    this.retryAfter = options.retryAfter;
  }
}

/** Shorthand for a 400 naming the field at fault. */
export function invalidRequest(message: string, param: string | null = null): PatchbayError {
  return new PatchbayError("invalid_request_error", message, { param });
}

/** Shorthand for a 400 `unsupported_parameter` naming the field and what to do instead. */
export function unsupportedParameter(param: string, message: string): PatchbayError {
  return new PatchbayError("unsupported_parameter", message, { param });
}

/** Converts anything thrown into a PatchbayError (unknown errors become a generic 500 without leaking details). */
export function toPatchbayError(err: unknown): PatchbayError {
  if (err instanceof PatchbayError) return err;
  return new PatchbayError("internal_error", "Internal error in Patchbay; see the Patchbay log for details.", {
    cause: err,
  });
}
