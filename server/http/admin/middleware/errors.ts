// The admin listener's ONE error middleware: PatchbayError → its status and `{error:{code,message,field?}}`,
// body-parser failures → 400/413/415, anything else → 500 without details (logged). Routes never build error JSON.
import type { NextFunction, Request, Response } from "express";
import type { AdminErrorBody } from "../../../../shared/errors";
import { shortenClientText } from "../../../core/client-text";
import { PatchbayError, toPatchbayError } from "../../../core/errors";
import { mapBodyParserError } from "../../middleware/body-errors";

/** Error middleware (must be registered last). */
export function adminErrorHandler(log: (line: string) => void) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const pe =
      mapBodyParserError(err, { limitOwner: "the admin API", tooLargeAdvice: "Send less." }) ?? toPatchbayError(err);
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
    // A body not read (yet), or a refused credential: close after answering, so a client trickling a body it was
    // never going to be allowed to send is not waited on (Node would otherwise keep reading and discarding it).
    if (!req.complete || pe.status === 401) res.setHeader("Connection", "close");
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
