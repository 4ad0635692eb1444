// Request-log entries for API requests that the model runner does not log itself (refused keys, /v1/models,
// unknown routes, early 4xx): one entry per request (built by request-record.ts), written when the response ends.
// Keys never appear.
import type { RequestHandler, Response } from "express";
import type { PatchbayError } from "../../core/errors";
import type { RequestLog } from "../../stores/types";
import type { ApiAuth } from "./api-auth";
import { CLIENT_CLOSED_STATUS } from "../../../shared/log-entry";
import { finishLogEntry, setClientClosed, setOutcome, startLogEntry } from "./request-record";

/** Tells the access log that this response already has its entry (written by the model runner). */
export function markLogged(res: Response): void {
  res.locals.requestLogged = true;
}

/** Statuses of a HEAD probe that only say whether a path exists (unknown path; a POST-only path, which answers HEAD
 *  as it answers GET: 405). */
const PROBE_ONLY = new Set([404, 405]);

/**
 * Logs every request once, when the response ends, except noise: CORS preflights, health checks, and HEAD probes
 * answered 404/405 (curl -I, uptime monitors: nothing was asked of Patchbay, so they are no failed request and must
 * not count as errors in the log's totals). A HEAD of a GET route is answered like the GET without a body by express
 * and logged with that status; one refused for its key (401) is logged like any refused request.
 */
export function accessLog(requestLog: RequestLog, now: () => number): RequestHandler {
  return (req, res, next) => {
    if (req.method === "OPTIONS" || req.path === "/healthz") return next();
    const started = now();
    let done = false;
    const write = (): void => {
      if (done || res.locals.requestLogged) return;
      done = true;
      if (req.method === "HEAD" && res.writableFinished && PROBE_ONLY.has(res.statusCode)) return;
      const auth = res.locals.auth as ApiAuth | undefined;
      const error = (res.locals.error as PatchbayError | undefined) ?? null;
      const entry = startLogEntry(req, { app: auth?.app ?? null, keyPrefix: auth?.keyPrefix ?? null }, started, false);
      if (res.writableFinished) setOutcome(entry, res.statusCode, error);
      else if (error) setOutcome(entry, CLIENT_CLOSED_STATUS, error);
      else setClientClosed(entry, null);
      finishLogEntry(entry, requestLog, now());
    };
    res.on("finish", write);
    res.on("close", write);
    next();
  };
}
