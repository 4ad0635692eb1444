// The OpenAI listener's error middleware: every error becomes the OpenAI envelope with the right status.
import type { ErrorRequestHandler, RequestHandler } from "express";
import { PatchbayError, toPatchbayError } from "../../core/errors";
import { toOpenAiErrorBody } from "../../openai/error-envelope";

/** Maps body-parser failures (http-errors with `status`, most with a `type`) and the router's bad percent-encoding
 *  (a URIError with status 400) to PatchbayErrors; others pass through. A 4xx without a known `type` (e.g. a corrupt
 *  gzip/deflate/br body) is still the client's fault: 400, never 500. */
export function fromBodyParserError(err: unknown): unknown {
  if (!err || typeof err !== "object" || err instanceof PatchbayError) return err;
  if (err instanceof URIError && (err as { status?: unknown }).status === 400) {
    return new PatchbayError(
      "invalid_request_error",
      "The URL path has invalid percent-encoding (e.g. '%ff'). Encode it as UTF-8.",
    );
  }
  const { type, limit, status, expose } = err as { type?: unknown; limit?: number; status?: unknown; expose?: unknown };
  switch (type) {
    case "entity.parse.failed":
      return new PatchbayError(
        "invalid_json",
        "We could not parse the JSON body of your request. Send valid JSON with 'Content-Type: application/json'.",
      );
    case "entity.too.large":
      return new PatchbayError(
        "payload_too_large",
        `The request body is larger than this app allows${limit ? ` (${formatBytes(limit)})` : ""}. Send less, or raise the app's max body size in the Patchbay dashboard.`,
      );
    case "encoding.unsupported":
    case "charset.unsupported":
      return new PatchbayError("unsupported_media_type", "Unsupported request body encoding. Send UTF-8 JSON.");
    case "request.aborted":
    case "request.size.invalid":
      return new PatchbayError(
        "invalid_request_error",
        "The request body ended before its announced length (Content-Length).",
      );
    default:
      if (expose === true && typeof status === "number" && status >= 400 && status < 500) {
        return new PatchbayError(
          "invalid_request_error",
          "We could not read the request body (a corrupt compressed body, or a bad Content-Encoding). Send plain UTF-8 JSON.",
        );
      }
      return err;
  }
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
      `Unknown route: ${req.method} ${req.path}. Patchbay serves /v1/chat/completions, /v1/responses and /v1/models.`,
    ),
  );
};

/** Writes the OpenAI error envelope; logs unexpected errors through `log`. */
export function openAiErrorHandler(log: (line: string) => void): ErrorRequestHandler {
  return (rawErr, req, res, _next) => {
    const err = toPatchbayError(fromBodyParserError(rawErr));
    if (err.code === "internal_error")
      log(`internal error: ${String((err.cause as Error | undefined)?.stack ?? err.cause)}`);
    if (res.headersSent) {
      res.end();
      return;
    }
    res.locals.error = err;
    // An unread body (or a refused key) ends the connection: Node would otherwise read and discard whatever the
    // client still sends, however large or slow.
    if (!req.complete || err.status === 401) res.setHeader("Connection", "close");
    if (err.retryAfter !== undefined) res.setHeader("Retry-After", String(Math.max(1, Math.ceil(err.retryAfter))));
    res.status(err.status).json(toOpenAiErrorBody(err));
  };
}

/** `512 bytes`, `4 KB`, `32 MB` (1024-based, at most one decimal). */
function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  const [value, unit] = n < 1024 * 1024 ? [n / 1024, "KB"] : [n / 1024 / 1024, "MB"];
  return `${Number(value.toFixed(1))} ${unit}`;
}
