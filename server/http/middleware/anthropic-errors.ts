// The error middleware for Anthropic-style requests (`/v1/messages*`, or any request carrying `anthropic-version` or
// `x-api-key`): every error becomes Anthropic's envelope `{type:"error", error:{type,message}}` with the right status.
import type { ErrorRequestHandler, Request } from "express";
import { toPatchbayError } from "../../core/errors";
import { toAnthropicErrorBody } from "../../anthropic/error-envelope";
import { fromBodyParserError } from "./openai-errors";

/** True for requests that speak the Anthropic wire: the Messages routes, or an Anthropic SDK/Claude Code request
 *  (`anthropic-version` or `x-api-key` header) on a shared route such as `/v1/models`. */
export function isAnthropicRequest(req: Request): boolean {
  if (/^(?:\/v1)?\/messages(?:\/|$)/.test(req.path)) return true;
  return req.headers["anthropic-version"] !== undefined || req.headers["x-api-key"] !== undefined;
}

/** Writes Anthropic's error envelope (with `retry-after` on 429/503 when known); logs unexpected errors. */
export function anthropicErrorHandler(log: (line: string) => void): ErrorRequestHandler {
  return (rawErr, _req, res, _next) => {
    const err = toPatchbayError(fromBodyParserError(rawErr));
    if (err.code === "internal_error")
      log(`internal error: ${String((err.cause as Error | undefined)?.stack ?? err.cause)}`);
    if (res.headersSent) {
      res.end();
      return;
    }
    res.locals.error = err;
    if (err.retryAfter !== undefined) res.setHeader("Retry-After", String(Math.max(1, Math.ceil(err.retryAfter))));
    res.status(err.status).json(toAnthropicErrorBody(err));
  };
}
