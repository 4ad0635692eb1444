// The admin listener's ONE error middleware: PatchbayError → its status and `{error:{code,message,field?}}`,
// body-parser failures → 400/413/415, anything else → 500 without details (logged). Routes never build error JSON.
import type { NextFunction, Request, Response } from "express";
import type { AdminErrorBody } from "../../../../shared/errors";
import { shortenClientText } from "../../../core/client-text";
import { PatchbayError, toPatchbayError } from "../../../core/errors";

/** Maps body-parser's errors (they carry `status`, most a `type`) and the router's bad %-escapes to Patchbay codes;
 *  null for other errors. */
function fromBodyParser(err: unknown): PatchbayError | null {
  if (typeof err !== "object" || err === null || err instanceof PatchbayError) return null;
  const type = (err as { type?: unknown }).type;
  if (type === "entity.parse.failed") return new PatchbayError("invalid_json", "The request body is not valid JSON.");
  if (type === "entity.too.large")
    return new PatchbayError("payload_too_large", "The request body is too large for the admin API (1 MB max).");
  if (type === "encoding.unsupported" || type === "charset.unsupported") {
    return new PatchbayError("unsupported_media_type", "Send the body as UTF-8 JSON.");
  }
  if (typeof type === "string" && type.startsWith("request."))
    return new PatchbayError("invalid_request_error", "The request body could not be read.");
  // A corrupt gzip/deflate/br body (http-errors 4xx without a `type`) and a bad %-escape in the path (the router's
  // URIError with status 400) are the client's fault too: 400, never 500.
  const { status, expose } = err as { status?: unknown; expose?: unknown };
  if (err instanceof URIError && status === 400)
    return new PatchbayError("invalid_request_error", "The URL path has invalid percent-encoding.");
  if (expose === true && typeof status === "number" && status >= 400 && status < 500) {
    return new PatchbayError(
      "invalid_request_error",
      "The request body could not be read (corrupt compressed body?). Send plain UTF-8 JSON.",
    );
  }
  return null;
}

/** Error middleware (must be registered last). */
export function adminErrorHandler(log: (line: string) => void) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const pe = fromBodyParser(err) ?? toPatchbayError(err);
    if (pe.code === "internal_error") {
      const cause = pe.cause ?? err;
      log(
        `admin: ${req.method} ${req.path} failed: ${cause instanceof Error ? (cause.stack ?? cause.message) : String(cause)}`,
      );
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const body: AdminErrorBody = { error: { code: pe.code, message: pe.message } };
    if (pe.param) body.error.field = pe.param;
    res.status(pe.status).setHeader("Cache-Control", "no-store");
    if (pe.retryAfter !== undefined) res.setHeader("Retry-After", String(pe.retryAfter));
    res.json(body);
  };
}

/** 404 for any `/admin/api` path no row matched; the message names the full path (shortened when huge), also when
 *  mounted under a prefix (`req.path` is relative to the mount point there). */
export function apiNotFound(req: Request, _res: Response, next: NextFunction): void {
  const fullPath = `${req.baseUrl}${req.path}`;
  next(new PatchbayError("not_found", `No admin API endpoint ${req.method} ${shortenClientText(fullPath)}.`));
}
