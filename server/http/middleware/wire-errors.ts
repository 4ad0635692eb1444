// The API listener's one error writer: any error → a PatchbayError → the status, headers and body of the request's
// wire envelope (OpenAI's or Anthropic's). The wires differ only in the body.
import type { ErrorRequestHandler } from "express";
import { toPatchbayError, type PatchbayError } from "../../core/errors";
import { fromBodyParserError } from "./openai-errors";

/**
 * Writes `err` with `envelope(err)` as the body: the error's status; `Retry-After` (whole seconds, at least 1) when
 * known; `Connection: close` when the body was not read or the key was refused (Node would otherwise read and discard
 * whatever the client still sends, however large or slow). Unexpected errors (`internal_error`) are logged through
 * `log`; an error after the headers went out ends the response.
 */
export function wireErrorHandler(
  log: (line: string) => void,
  envelope: (err: PatchbayError) => unknown,
): ErrorRequestHandler {
  return (rawErr, req, res, _next) => {
    const err = toPatchbayError(fromBodyParserError(rawErr));
    if (err.code === "internal_error")
      log(`internal error: ${String((err.cause as Error | undefined)?.stack ?? err.cause)}`);
    if (res.headersSent) {
      res.end();
      return;
    }
    res.locals.error = err;
    if (!req.complete || err.status === 401) res.setHeader("Connection", "close");
    if (err.retryAfter !== undefined) res.setHeader("Retry-After", String(Math.max(1, Math.ceil(err.retryAfter))));
    res.status(err.status).json(envelope(err));
  };
}
