// The error middleware for Anthropic-style requests (`/v1/messages*`, or any request carrying `anthropic-version` or
// `x-api-key`): every error becomes Anthropic's envelope `{type:"error", error:{type,message}}` with the right status.
import type { ErrorRequestHandler, Request } from "express";
import { toAnthropicErrorBody } from "../../wires/anthropic-messages/error-envelope";
import { wireErrorHandler } from "./wire-errors";

/** True for requests that speak the Anthropic wire: the Messages routes, or an Anthropic SDK/Claude Code request
 *  (`anthropic-version` or `x-api-key` header) on a shared route such as `/v1/models`. */
export function isAnthropicRequest(req: Request): boolean {
  if (/^(?:\/v1)?\/messages(?:\/|$)/.test(req.path)) return true;
  return req.headers["anthropic-version"] !== undefined || req.headers["x-api-key"] !== undefined;
}

/** Writes Anthropic's error envelope (with `retry-after` on 429/503 when known); logs unexpected errors. */
export function anthropicErrorHandler(log: (line: string) => void): ErrorRequestHandler {
  return wireErrorHandler(log, toAnthropicErrorBody);
}
