// Request-log entries for API requests that the model runner does not log itself (refused keys, /v1/models,
// unknown routes, early 4xx): one entry per request (built by request-record.ts), written when the response ends.
// Keys never appear.
import type { RequestHandler, Response } from "express";
import type { PatchbayError } from "../../core/errors";
import type { RequestLog } from "../../stores/types";
import type { ApiAuth } from "./api-auth";
import { CLIENT_CLOSED, finishLogEntry, setClientClosed, setOutcome, startLogEntry } from "./request-record";

/** Tells the access log that this response already has its entry (written by the model runner). */
export function markLogged(res: Response): void {
  res.locals.requestLogged = true;
}

/** Logs every request except CORS preflights and health checks (noise), once, when the response ends. */
export function accessLog(requestLog: RequestLog, now: () => number): RequestHandler {
  return (req, res, next) => {
    if (req.method === "OPTIONS" || req.path === "/healthz") return next();
    const started = now();
    let done = false;
    const write = (): void => {
      if (done || res.locals.requestLogged) return;
      done = true;
      const auth = res.locals.auth as ApiAuth | undefined;
      const error = (res.locals.error as PatchbayError | undefined) ?? null;
      const entry = startLogEntry(
        req,
        { app: auth?.app.name ?? null, keyPrefix: auth?.keyPrefix ?? null },
        started,
        false,
      );
      if (res.writableFinished) setOutcome(entry, res.statusCode, error);
      else if (error) setOutcome(entry, CLIENT_CLOSED, error);
      else setClientClosed(entry, null);
      finishLogEntry(entry, requestLog, now());
    };
    res.on("finish", write);
    res.on("close", write);
    next();
  };
}
