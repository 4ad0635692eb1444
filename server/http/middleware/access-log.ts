// Request-log entries for API requests that the model runner does not log itself (refused keys, /v1/models,
// unknown routes, early 4xx): one entry per request, written when the response finishes. Keys never appear.
import type { RequestHandler, Response } from "express";
import { randomUUID } from "node:crypto";
import type { RequestLogEntry } from "../../../shared/log-entry";
import type { PatchbayError } from "../../core/errors";
import type { RequestLog } from "../../stores/types";
import type { ApiAuth } from "./api-auth";

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
      const error = res.locals.error as PatchbayError | undefined;
      const body = req.body as { model?: unknown; stream?: unknown } | undefined;
      const entry: RequestLogEntry = {
        id: randomUUID(),
        time: started,
        app: auth?.app.name ?? null,
        keyPrefix: auth?.keyPrefix ?? null,
        method: req.method,
        endpoint: req.path,
        modelAsked: typeof body?.model === "string" ? body.model : null,
        modelResolved: null,
        stream: body?.stream === true,
        status: res.writableFinished ? res.statusCode : 499,
        errorCode: error?.code ?? (res.writableFinished ? null : "client_closed"),
        errorMessage: error?.message ?? null,
        ttftMs: null,
        totalMs: now() - started,
        usage: null,
        sessionId: null,
        warnings: [],
      };
      requestLog.append(entry);
    };
    res.on("finish", write);
    res.on("close", write);
    next();
  };
}
