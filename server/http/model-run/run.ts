// Runs one model request for any wire (chat completions, Responses, Anthropic Messages): decode → admit (limits,
// model, media) → backend → relay through the wire's encoder → one request-log entry. Wire specifics live in the
// codecs, talking to OpenCode in the backend, the commit rule in relay.ts.
import type { Request, Response } from "express";
import { appDataKey } from "../../../shared/apps";
import type { ModelEvent } from "../../core/contract";
import { toPatchbayError } from "../../core/errors";
import { markLogged } from "../middleware/access-log";
import { authOf } from "../middleware/api-auth";
import { RunAbort } from "./abort";
import { admitRequest } from "./admission";
import { finishLogEntry, setClientClosed, setOutcome, startLogEntry } from "./log-entry";
import { relayEvents } from "./relay";
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
  const entry = startLogEntry(req, { app: app.name, keyPrefix }, deps.now(), deps.logBodies());
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
  try {
    const decoded = decode(req.body);
    entry.stream = decoded.request.stream;
    const admitted = await admitRequest(app, decoded.request, deps, abort.signal);
    release = admitted.release;
    entry.modelResolved = admitted.resolvedId;
    if (abort.signal.aborted)
      return setClientClosed(entry, "The client closed the connection before the model was asked.");
    const stopFirstTokenDeadline = abort.startAppDeadlines(app.limits);
    const { model, variant, request } = admitted;
    // The backend files sessions under the app's data key, so a later app of the same name never sees them.
    const backendRequest = { app: appDataKey(app), model, ...(variant ? { variant } : {}), request };
    events = deps.backend.stream(backendRequest, abort.signal)[Symbol.asyncIterator]();
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
    throw e;
  } finally {
    abort.dispose();
    unregister?.();
    // Closing the backend's iterator runs its cleanup (lease, subscription, session abort) even when we stopped
    // reading at `finish`/`error`: a suspended generator never reaches its `finally` otherwise.
    void events?.return?.(undefined).catch(() => undefined);
    release?.();
    finishLogEntry(entry, deps.requestLog, deps.now());
    if (entry.sessionId) deps.afterRequest?.(app.name);
  }
}
