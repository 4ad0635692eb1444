// Runs one model request for either wire (chat completions or Responses): policy → backend → encoder → HTTP,
// with per-app limits, deadlines, client-disconnect abort, early-commit SSE and one request-log entry.
// Wire specifics live in the codecs (server/openai/*); talking to OpenCode lives in the backend.
import type { Request, Response } from "express";
import { randomUUID } from "node:crypto";
import { ERROR_CODES, type ErrorCode } from "../../../shared/errors";
import type { RequestLogEntry } from "../../../shared/log-entry";
import type { ModelBackend, ModelError, ModelEvent, ModelInfo, NeutralRequest, Usage } from "../../core/contract";
import type { ConcurrencyGate } from "../../core/concurrency";
import { PatchbayError, toPatchbayError } from "../../core/errors";
import { assertModelAcceptsMedia } from "../../core/media-check";
import { modelsForApp, resolveModel } from "../../core/model-resolver";
import type { SseFrame } from "../../openai/sse-frame";
import type { RequestLog } from "../../stores/types";
import { markLogged } from "../middleware/access-log";
import { authOf } from "../middleware/api-auth";
import { SseWriter } from "../sse-writer";

/** A wire encoder: one state machine that yields stream frames and the final JSON body (they never disagree). */
export interface WireEncoder {
  push(event: ModelEvent): SseFrame[];
  /** Closing frames of a stream (e.g. `[DONE]`). */
  end(): SseFrame[];
  /** The non-stream JSON body; valid once a `finish` event was pushed. */
  body(): unknown;
}

/** A decoded request of some wire plus the factory of its encoder. */
export interface DecodedWireRequest {
  request: NeutralRequest;
  /** `model` is the id echoed to the client (what it asked for). */
  createEncoder(model: string): WireEncoder;
}

/** What the runner needs; built once in the composition root. */
export interface ModelRequestDeps {
  backend: ModelBackend;
  catalog: () => Promise<ModelInfo[]>;
  gate: ConcurrencyGate;
  requestLog: RequestLog;
  logBodies: () => boolean;
  /** Inlines http(s) images (SSRF-guarded) or refuses them when the app does not allow remote images; `signal`
   *  aborts pending fetches when the client leaves. */
  inlineImages: (request: NeutralRequest, allowed: boolean, signal?: AbortSignal) => Promise<NeutralRequest>;
  now: () => number;
  /** After a request used a session of `app` (history sweeps hook in here). */
  afterRequest?: (app: string) => void;
  /** Hold before committing a stream's headers when no token came yet (ms); default 1000. */
  commitAfterMs?: number;
  /** Keepalive comment interval (ms); default 15 000. */
  keepaliveMs?: number;
}

const CLIENT_CLOSED = 499;

/** Handles one model POST with the given decoder. Errors before any byte is sent are thrown (the error
 *  middleware answers with the OpenAI envelope); errors after the stream started are sent in-band. */
export async function runModelRequest(
  req: Request,
  res: Response,
  deps: ModelRequestDeps,
  decode: (body: unknown) => DecodedWireRequest,
): Promise<void> {
  const { app, keyPrefix } = authOf(res);
  const started = deps.now();
  const entry: RequestLogEntry = {
    id: randomUUID(),
    time: started,
    app: app.name,
    keyPrefix,
    method: req.method,
    endpoint: req.path,
    modelAsked: typeof req.body?.model === "string" ? req.body.model : null,
    modelResolved: null,
    stream: req.body?.stream === true,
    status: 0,
    errorCode: null,
    errorMessage: null,
    ttftMs: null,
    totalMs: 0,
    usage: null,
    sessionId: null,
    warnings: [],
  };
  if (deps.logBodies()) entry.requestBody = req.body;
  // This runner writes the entry (in `finally`); mark it now, since a client that leaves mid-request closes the
  // response (the access log's trigger) before `finally` runs.
  markLogged(res);

  let release: (() => void) | null = null;
  // The backend's stream; always closed in `finally` so its own cleanup (lease, subscription, session abort) runs
  // even when we stop reading at `finish`/`error` (a suspended generator never reaches its `finally` otherwise).
  let iterator: AsyncIterator<ModelEvent> | null = null;
  const timers: NodeJS.Timeout[] = [];
  const sse = new SseWriter(res, deps.keepaliveMs ?? 15_000);
  // Registered first: a client that leaves while we wait for OpenCode or fetch images must not start a run.
  const ac = new AbortController();
  let abortError: ModelError | null = null;
  const abort = (error: ModelError) => {
    if (ac.signal.aborted) return;
    abortError = error;
    ac.abort();
  };
  const clientClosed = () =>
    abort({ code: "client_closed", status: CLIENT_CLOSED, message: "The client closed the connection." });
  res.on("close", () => {
    if (!res.writableEnded) clientClosed();
  });
  if (res.destroyed || req.socket.destroyed) clientClosed();
  try {
    const decoded = decode(req.body);
    let request = decoded.request;
    entry.stream = request.stream;
    if (request.tools.length > app.limits.maxTools) {
      throw new PatchbayError(
        "invalid_request_error",
        `This request declares ${request.tools.length} tools; the app '${app.name}' allows at most ${app.limits.maxTools}.`,
        { param: "tools" },
      );
    }
    // Over the limit → 429 before any work (model list, image fetches).
    release = deps.gate.acquire(app.name, app.limits.concurrency);
    const catalog = await deps.catalog();
    const resolved = resolveModel(app, request.model, catalog);
    entry.modelResolved = resolved.target.variant ? `${resolved.id}#${resolved.target.variant}` : resolved.id;
    assertModelAcceptsMedia(request, resolved.info, modelsForApp(app, catalog).models);
    request = await deps.inlineImages(request, app.limits.remoteImages, ac.signal);
    if (ac.signal.aborted) {
      entry.status = CLIENT_CLOSED;
      entry.errorCode = "client_closed";
      entry.errorMessage = "The client closed the connection before the model was asked.";
      return;
    }

    const encoder = decoded.createEncoder(request.model);
    const warnings = [...request.warnings];
    const ttftTimer = setTimeout(
      () =>
        abort(
          timeoutError(
            `No token arrived within ${Math.round(app.limits.firstTokenTimeoutMs / 1000)} s (the app's first-token timeout).`,
          ),
        ),
      app.limits.firstTokenTimeoutMs,
    );
    timers.push(ttftTimer);
    timers.push(
      setTimeout(
        () =>
          abort(
            timeoutError(
              `The request took longer than ${Math.round(app.limits.totalTimeoutMs / 1000)} s (the app's total timeout).`,
            ),
          ),
        app.limits.totalTimeoutMs,
      ),
    );

    const headers = (): Record<string, string> => {
      const h: Record<string, string> = {};
      if (entry.sessionId) h["x-patchbay-session"] = entry.sessionId;
      if (warnings.length) h["x-patchbay-warnings"] = headerSafe(warnings.join("; "));
      return h;
    };
    if (request.stream) timers.push(setTimeout(() => sse.commit(headers()), deps.commitAfterMs ?? 1000));

    let failure: ModelError | null = null;
    let finished = false;
    let errorPushed = false;
    const aborted = new Promise<"aborted">((resolve) =>
      ac.signal.addEventListener("abort", () => resolve("aborted"), { once: true }),
    );
    const stream = deps.backend.stream({ app: app.name, target: resolved.target, request }, ac.signal);
    const events = stream[Symbol.asyncIterator]();
    iterator = events;
    for (;;) {
      // A backend may throw before its `start` (OpenCode not ready, held past its bound during a recycle). A stream
      // committed by then (headers go out after 1 s) can no longer get an HTTP status: report it in-band instead of
      // ending the stream silently.
      const step = await Promise.race([events.next(), aborted]).catch((err: unknown) => {
        if (!(request.stream && sse.isCommitted)) throw err;
        const e = toPatchbayError(err);
        return { thrown: { code: e.code, status: e.status, message: e.message } satisfies ModelError };
      });
      if (step !== "aborted" && "thrown" in step) {
        failure = step.thrown;
        break;
      }
      if (step === "aborted") {
        failure = abortError;
        break;
      }
      if (step.done) break;
      const event = step.value;
      if (event.type === "start") {
        entry.sessionId = event.sessionId;
        if (event.freshOpenCode) entry.freshOpenCode = true;
        // The backend's list already includes the decoder's warnings; keep each once.
        for (const w of event.warnings) if (!warnings.includes(w)) warnings.push(w);
        continue;
      }
      if (event.type === "error") {
        failure = event.error;
        if (!request.stream || !sse.isCommitted) break;
      }
      if (
        entry.ttftMs === null &&
        (event.type === "text-delta" || event.type === "reasoning-delta" || event.type === "tool-call")
      ) {
        entry.ttftMs = deps.now() - started;
        clearTimeout(ttftTimer);
      }
      if (event.type === "finish") {
        finished = true;
        entry.usage = toLogUsage(event.usage);
      }
      if (event.type === "error") errorPushed = true;
      const frames = encoder.push(event);
      if (request.stream) {
        if (!sse.isCommitted) sse.commit(headers());
        sse.write(frames);
      }
      if (event.type === "error" || event.type === "finish") break;
    }
    entry.warnings = warnings;
    if (!failure && !finished) {
      failure = {
        code: "upstream_error",
        status: 502,
        message: "The model stopped without finishing its answer (OpenCode ended the run).",
      };
    }

    if (failure && failure.status === CLIENT_CLOSED) {
      entry.status = CLIENT_CLOSED;
      entry.errorCode = failure.code;
      entry.errorMessage = failure.message;
      sse.end();
      return;
    }
    if (request.stream && sse.isCommitted) {
      if (failure && !errorPushed) sse.write(encoder.push({ type: "error", error: failure }));
      sse.write(encoder.end());
      sse.end();
      entry.status = 200;
      if (failure) {
        entry.errorCode = failure.code;
        entry.errorMessage = failure.message;
      }
      return;
    }
    if (failure) {
      throw new PatchbayError(errorCodeOf(failure.code), failure.message, {
        status: failure.status,
        param: failure.param ?? null,
        ...(failure.retryAfter !== undefined ? { retryAfter: failure.retryAfter } : {}),
      });
    }
    // Non-stream success (a stream that finished was committed and ended above).
    for (const [k, v] of Object.entries(headers())) res.setHeader(k, v);
    const body = encoder.body();
    if (deps.logBodies()) entry.responseBody = body;
    res.status(200).json(body);
    entry.status = 200;
  } catch (err) {
    const e = toPatchbayError(err);
    entry.status = e.status;
    entry.errorCode = e.code;
    entry.errorMessage = e.message;
    sse.stop();
    throw e;
  } finally {
    for (const t of timers) clearTimeout(t);
    void iterator?.return?.(undefined).catch(() => undefined);
    release?.();
    entry.totalMs = deps.now() - started;
    deps.requestLog.append(entry);
    if (entry.sessionId) deps.afterRequest?.(app.name);
  }
}

function timeoutError(message: string): ModelError {
  return { code: "timeout", status: 504, message };
}

/** A backend's error code when it is one of ours, else `upstream_error`. */
function errorCodeOf(code: string): ErrorCode {
  return Object.hasOwn(ERROR_CODES, code) ? (code as ErrorCode) : "upstream_error";
}

function toLogUsage(u: Usage): RequestLogEntry["usage"] {
  return {
    inputTokens: u.inputTokens,
    outputTokens: u.outputTokens,
    cachedTokens: u.cachedInputTokens,
    reasoningTokens: u.reasoningTokens,
  };
}

/** Header values must be Latin-1 without control characters. */
function headerSafe(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, "?").slice(0, 2000);
}
