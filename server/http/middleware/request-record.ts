// The request-log entry of one API request, built in this one place for every request: the model runner creates it
// before anything can fail and fills it in as the run goes; the access log builds the same entry for the rest (refused
// keys, /v1/models, unknown routes, early 4xx). Each is finished and appended exactly once.
import type { Request } from "express";
import { randomUUID } from "node:crypto";
import type { App } from "../../../shared/apps";
import type { RequestLogEntry } from "../../../shared/log-entry";
import { CLIENT_CLOSED_STATUS } from "../../../shared/log-entry";
import type { Usage } from "../../core/contract";
import type { PatchbayError } from "../../core/errors";
import type { RequestLog } from "../../stores/types";

/** The entry of a request that just arrived (status 0 until finished); `who.app` is the app of its key (null: none),
 *  recorded by id and, for display, by name. */
export function startLogEntry(
  req: Request,
  who: { app: Pick<App, "id" | "name"> | null; keyPrefix: string | null },
  now: number,
  logBodies: boolean,
): RequestLogEntry {
  const body = req.body as { model?: unknown; stream?: unknown } | undefined;
  const entry: RequestLogEntry = {
    id: randomUUID(),
    time: now,
    app: who.app?.name ?? null,
    appId: who.app?.id ?? null,
    keyPrefix: who.keyPrefix,
    method: req.method,
    endpoint: req.path,
    modelAsked: typeof body?.model === "string" ? body.model : null,
    modelResolved: null,
    stream: body?.stream === true,
    status: 0,
    errorCode: null,
    errorMessage: null,
    ttftMs: null,
    totalMs: 0,
    usage: null,
    sessionId: null,
    warnings: [],
  };
  if (logBodies) entry.requestBody = req.body;
  return entry;
}

/** Records the outcome: `status` and, when the run failed, the error's code and message. */
export function setOutcome(entry: RequestLogEntry, status: number, error: PatchbayError | null): void {
  entry.status = status;
  entry.errorCode = error?.code ?? null;
  entry.errorMessage = error?.message ?? null;
}

/** Records a client that left (status 499, recorded only: nobody reads the answer). */
export function setClientClosed(entry: RequestLogEntry, message: string | null): void {
  entry.status = CLIENT_CLOSED_STATUS;
  entry.errorCode = "client_closed";
  entry.errorMessage = message;
}

/** Neutral usage in the log's terms. */
export function toLogUsage(u: Usage): RequestLogEntry["usage"] {
  return {
    inputTokens: u.inputTokens,
    outputTokens: u.outputTokens,
    cachedTokens: u.cachedInputTokens,
    reasoningTokens: u.reasoningTokens,
  };
}

/** Stamps the total time and appends the entry (once: the runner calls this in its `finally`, the access log when
 *  the response ends). */
export function finishLogEntry(entry: RequestLogEntry, log: RequestLog, now: number): void {
  entry.totalMs = now - entry.time;
  log.append(entry);
}
