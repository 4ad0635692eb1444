// Runs one model request for any wire (chat completions, Responses, Anthropic Messages): decode → admit (limits,
// model, media) → backend → relay through the wire's encoder → one request-log entry. Wire specifics live in the
// codecs, talking to OpenCode in the backend, the commit rule in relay.ts.
import type { Request, Response } from "express";
import type { ModelEvent, NeutralRequest } from "../../core/contract";
import { toPatchbayError } from "../../core/errors";
import { markLogged } from "../middleware/access-log";
import { authOf } from "../middleware/api-auth";
import { finishLogEntry, setClientClosed, setOutcome, startLogEntry } from "../middleware/request-record";
import { RunAbort } from "./abort";
import { admitRequest } from "./admission";
import { relayEvents } from "./relay";
import {
  countTokens,
  reserveBudget,
  routeOfRequest,
  setHeaders,
  setRefusalHeaders,
  streamChain,
} from "./routing-hooks";
import type { BudgetReservation } from "../../budgets/budget-guard";
import type { DecodedWireRequest, ModelRequestDeps } from "./types";

/**
 * Handles one model POST with the given decoder. Errors before any byte is sent are thrown (the listener's error
 * middleware answers in the wire's envelope); errors after a stream started are sent in-band by the encoder.
 */
export async function runModelRequest(
  req: Request,
  res: Response,
  deps: ModelRequestDeps,
  decode: (body: unknown) => DecodedWireRequest,
): Promise<void> {
  const { app, keyPrefix } = authOf(res);
  const entry = startLogEntry(req, { app, keyPrefix }, deps.now(), deps.logBodies());
  // This runner appends the entry; a client that leaves closes the response (the access log's trigger) first.
  markLogged(res);
  // Registered first: a client that leaves while we wait for OpenCode or fetch images must not start a run.
  const abort = new RunAbort();
  res.on("close", () => !res.writableEnded && abort.clientClosed());
  if (res.destroyed || req.socket.destroyed) abort.clientClosed();
  // Deleting the app or revoking the key ends this run (server/app-retirement.ts).
  const unregister = deps.runs?.add({ appId: app.id, appName: app.name, keyPrefix }, abort);
  let release: (() => void) | undefined;
  let events: AsyncIterator<ModelEvent> | undefined;
  let budget: BudgetReservation | null = null;
  let neutral: NeutralRequest | undefined;
  try {
    const decoded = decode(req.body);
    entry.stream = decoded.request.stream;
    const routed = routeOfRequest(req, app, entry);
    budget = reserveBudget(req, app, deps);
    const admitted = await admitRequest(app, decoded.request, deps, abort.signal, routed);
    release = admitted.release;
    budget?.commit();
    if (budget) setHeaders(res, budget.headers);
    entry.modelResolved = admitted.resolvedId;
    if (abort.signal.aborted)
      return setClientClosed(entry, "The client closed the connection before the model was asked.");
    const stopFirstTokenDeadline = abort.startAppDeadlines(app.limits);
    const { request } = admitted;
    events = streamChain(res, app, admitted, deps, entry, abort.signal);
    neutral = request;
    await relayEvents(events, {
      res,
      encoder: decoded.createEncoder(request.model),
      stream: request.stream,
      abort,
      entry,
      requestWarnings: request.warnings,
      now: deps.now,
      onFirstOutput: stopFirstTokenDeadline,
      commitAfterMs: deps.commitAfterMs ?? 1000,
      keepaliveMs: deps.keepaliveMs ?? 15_000,
      ...(decoded.keepalive !== undefined ? { keepalive: decoded.keepalive } : {}),
      logBody: deps.logBodies(),
      ...(deps.streamBuffer ? { streamBuffer: deps.streamBuffer } : {}),
    });
  } catch (err) {
    const e = toPatchbayError(err);
    setOutcome(entry, e.status, e);
    setRefusalHeaders(res, e);
    throw e;
  } finally {
    budget?.cancel();
    countTokens(app, entry, deps);
    abort.dispose();
    unregister?.();
    // Closing the backend's iterator runs its cleanup (lease, subscription, session abort) even when we stopped
    // reading at `finish`/`error`: a suspended generator never reaches its `finally` otherwise.
    void events?.return?.(undefined).catch(() => undefined);
    release?.();
    finishLogEntry(entry, deps.requestLog, deps.now());
    if (entry.sessionId) {
      deps.afterRequest?.(app.name);
      if (neutral)
        void deps.recordRequest?.({
          app: app.name,
          sessionId: entry.sessionId,
          receivedAt: entry.time,
          headers: req.headers,
          body: req.body,
          request: neutral,
          responseId: entry.responseId,
        });
    }
  }
}
