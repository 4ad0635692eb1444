// The API listener's one error writer and the errors every wire shares: any error → a PatchbayError → the status,
// headers and body of the envelope of the wire the request reached (OpenAI's or Anthropic's); the wires differ only
// in the body. Also the 405 for a known path with another method and the 404 for an unknown route.
import type { ErrorRequestHandler, Request, RequestHandler } from "express";
import { PatchbayError, toPatchbayError } from "../../core/errors";
import { mapBodyParserError } from "./body-errors";

/** A body-parser failure as a PatchbayError with the API's advice; other errors pass through unchanged. */
export function fromBodyParserError(err: unknown): unknown {
  return (
    mapBodyParserError(err, {
      limitOwner: "this app",
      tooLargeAdvice: "Send less, or raise the app's max body size in the Patchbay dashboard.",
    }) ?? err
  );
}

/**
 * Writes `err` with `envelope(req)(err)` as the body: the error's status; `Retry-After` (whole seconds, at least 1)
 * when known; `Connection: close` when the body was not read or the key was refused (Node would otherwise read and
 * discard whatever the client still sends, however large or slow). Unexpected errors (`internal_error`) are logged
 * through `log`; an error after the headers went out ends the response.
 */
export function wireErrorHandler(
  log: (line: string) => void,
  envelope: (req: Request) => (err: PatchbayError) => unknown,
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
    res.status(err.status).json(envelope(req)(err));
  };
}

/** For a known route called with the wrong method: 405 `method_not_allowed` with `Allow: <allowed>`. */
export function methodNotAllowed(allowed: string[]): RequestHandler {
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

/** Final handler for unknown routes: 404 (never HTML). A doubled `/v1/v1/` (a base URL ending in /v1 given to a
 *  client that adds /v1 itself: the Anthropic SDK, Claude Code) says which base URL to use instead. */
export const routeNotFound: RequestHandler = (req, _res, next) => {
  const doubled = /^\/v1\/v1(\/|$)/.test(req.path);
  next(
    new PatchbayError(
      "not_found",
      `Unknown route: ${req.method} ${req.path}. ` +
        (doubled
          ? `The client adds /v1 itself: give it the base URL without /v1 (e.g. ANTHROPIC_BASE_URL=http://${req.headers.host ?? "127.0.0.1:4747"}).`
          : "Patchbay serves /v1/chat/completions, /v1/responses, /v1/messages and /v1/models."),
    ),
  );
};
