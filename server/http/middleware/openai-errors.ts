// The OpenAI listener's error middleware: every error becomes the OpenAI envelope with the right status.
import type { ErrorRequestHandler, RequestHandler } from "express";
import { PatchbayError } from "../../core/errors";
import { toOpenAiErrorBody } from "../../wires/openai/error-envelope";
import { mapBodyParserError } from "./body-errors";
import { wireErrorHandler } from "./wire-errors";

/** A body-parser failure as a PatchbayError with the API's advice; other errors pass through unchanged. */
export function fromBodyParserError(err: unknown): unknown {
  return (
    mapBodyParserError(err, {
      limitOwner: "this app",
      tooLargeAdvice: "Send less, or raise the app's max body size in the Patchbay dashboard.",
    }) ?? err
  );
}

/** For a known route called with the wrong method: 405 `method_not_allowed` with `Allow: <allowed>`. */
export function openAiMethodNotAllowed(allowed: string[]): RequestHandler {
  return (req, res, next) => {
    res.setHeader("Allow", allowed.join(", "));
    next(
      new PatchbayError(
        "method_not_allowed",
        `${req.method} is not supported on ${req.path}; use ${allowed.filter((m) => m !== "HEAD").join(" or ")}.`,
      ),
    );
  };
}

/** Final handler for unknown routes: 404 in the OpenAI envelope (never HTML). */
export const openAiNotFound: RequestHandler = (req, _res, next) => {
  next(
    new PatchbayError(
      "not_found",
      `Unknown route: ${req.method} ${req.path}. Patchbay serves /v1/chat/completions, /v1/responses, /v1/messages and /v1/models.`,
    ),
  );
};

/** Writes the OpenAI error envelope; logs unexpected errors through `log`. */
export function openAiErrorHandler(log: (line: string) => void): ErrorRequestHandler {
  return wireErrorHandler(log, toOpenAiErrorBody);
}
