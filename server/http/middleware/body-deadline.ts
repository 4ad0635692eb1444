// Deadlines for receiving a request body on the OpenAI listener: a body that stops arriving (no bytes for `idleMs`)
// or takes longer than `totalMs` in all is answered with 408 in the request's wire envelope and the connection is closed,
// so trickling clients cannot hold connections open. Must not touch the response once the body is complete.
import type { Request, RequestHandler, Response } from "express";
import { PatchbayError } from "../../core/errors";

/** Deadlines in ms. */
export interface BodyDeadlineOptions {
  /** Longest pause without a byte of the body (default 30 000). */
  idleMs?: number;
  /** Longest time to receive the whole body (default 60 000). */
  totalMs?: number;
}

/** The body of an error in the envelope of the wire `req` reached. */
export type ErrorBody = (req: Request, err: PatchbayError) => unknown;

/** True when the request announces a body (a non-zero Content-Length, or chunked transfer encoding). */
function expectsBody(req: Request): boolean {
  const length = req.headers["content-length"];
  if (length !== undefined) return length.trim() !== "0";
  return req.headers["transfer-encoding"] !== undefined;
}

/** Answers 408 and closes the connection (the rest of the body is never read). */
function timeOut(req: Request, res: Response, message: string, errorBody: ErrorBody): void {
  const err = new PatchbayError("invalid_request_error", message, { status: 408 });
  res.locals.error = err;
  if (!res.headersSent) {
    res.setHeader("Connection", "close");
    res.status(408).json(errorBody(req, err));
  }
  res.once("finish", () => req.socket.destroy());
  if (res.writableFinished) req.socket.destroy();
}

/**
 * Watches the socket's received bytes while the body is incoming (polling, so the body parser keeps sole ownership
 * of the stream). Idle or overall deadline passed → 408 `invalid_request_error` + `Connection: close`.
 */
export function bodyDeadline(options: BodyDeadlineOptions = {}, errorBody: ErrorBody): RequestHandler {
  const idleMs = options.idleMs ?? 30_000;
  const totalMs = options.totalMs ?? 60_000;
  const pollMs = Math.max(10, Math.min(1000, Math.floor(idleMs / 4)));
  return (req, res, next) => {
    if (!expectsBody(req) || req.complete) return next();
    const started = performance.now();
    let lastBytes = req.socket.bytesRead;
    let lastProgress = started;
    const timer = setInterval(() => {
      if (req.complete || res.headersSent || req.socket.destroyed) return stop();
      const now = performance.now();
      const bytes = req.socket.bytesRead;
      if (bytes !== lastBytes) {
        lastBytes = bytes;
        lastProgress = now;
      }
      if (now - lastProgress >= idleMs) {
        stop();
        timeOut(
          req,
          res,
          `The request body stopped arriving (nothing for ${Math.round(idleMs / 1000)} s). Send the whole body at once.`,
          errorBody,
        );
      } else if (now - started >= totalMs) {
        stop();
        timeOut(req, res, `The request body took longer than ${Math.round(totalMs / 1000)} s to arrive.`, errorBody);
      }
    }, pollMs);
    timer.unref();
    const stop = (): void => clearInterval(timer);
    req.once("end", stop);
    res.once("close", stop);
    next();
  };
}
