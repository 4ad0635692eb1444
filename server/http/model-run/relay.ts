// Relays the backend's events through the wire encoder to the client, and owns the one commit rule of a model
// response: a failure before any byte was sent is a real HTTP error (thrown, so the listener's error middleware
// answers in its wire's envelope); once a stream's headers are out, everything — output, errors, the end — is in-band.
import type { Response } from "express";
import type { RequestLogEntry } from "../../../shared/log-entry";
import type { ModelError, ModelEvent, PatchbayWarning } from "../../core/contract";
import { toPatchbayError } from "../../core/errors";
import { SseWriter, type StreamBufferLimits } from "../sse-writer";
import { CLIENT_CLOSED_STATUS } from "../../../shared/log-entry";
import { setClientClosed, setOutcome, toLogUsage } from "../middleware/request-record";
import type { RunAbort } from "./abort";
import type { WireEncoder } from "./types";
import { formatWarningsHeader, logWarnings } from "./warnings";

const NONE: readonly PatchbayWarning[] = [];

/** Everything one relay needs. */
export interface RelayContext {
  res: Response;
  encoder: WireEncoder;
  stream: boolean;
  abort: RunAbort;
  entry: RequestLogEntry;
  /** The decoder's warnings (the backend's arrive in its events). */
  requestWarnings: readonly PatchbayWarning[];
  now: () => number;
  /** Called at the first output event (the first-token deadline stops here). */
  onFirstOutput: () => void;
  /** Hold before committing a stream's headers when no output came yet (ms). */
  commitAfterMs: number;
  /** Keepalive interval (ms) and text (default an SSE comment; the Anthropic wire sends `event: ping`). */
  keepaliveMs: number;
  keepalive?: string;
  /** Log the JSON body too. */
  logBody: boolean;
  /** Buffer limits for a client that stops reading (default DEFAULT_STREAM_BUFFER in sse-writer.ts). */
  streamBuffer?: Partial<StreamBufferLimits>;
}

/**
 * Relays `events` until a terminal event, the end of the backend's stream, or an abort, then ends the response.
 * Records session, time to first token, usage, warnings and status on `ctx.entry`.
 * @throws PatchbayError for a failure before any byte was sent (a stream whose headers are not out yet, or any
 *   non-stream failure).
 */
export async function relayEvents(events: AsyncIterator<ModelEvent>, ctx: RelayContext): Promise<void> {
  const { encoder, entry } = ctx;
  const sse = new SseWriter(ctx.res, ctx.keepaliveMs, {
    ...(ctx.streamBuffer ? { limits: ctx.streamBuffer } : {}),
    // Recorded as the client leaving (499), with the reason.
    onStalled: (message) => ctx.abort.abort({ code: "client_closed", status: CLIENT_CLOSED_STATUS, message }),
  });
  if (ctx.keepalive !== undefined) sse.setKeepalive(ctx.keepalive);
  // One slot per layer, each filled once from its own source: decoder (the request), planner (`start`), event mapper
  // (`finish`). The run's warnings are their concatenation in that order; nothing is merged or deduplicated.
  const layers = { decoder: ctx.requestWarnings, planner: NONE, mapper: NONE, store: NONE };
  const warnings = () => [...layers.decoder, ...layers.planner, ...layers.mapper, ...layers.store];
  const headers = () => responseHeaders(entry, warnings());
  const send = (frames: ReturnType<WireEncoder["push"]>, isError: boolean) => {
    // The commit rule: an error with nothing sent yet stays out of the stream (it becomes the HTTP error below).
    if (!ctx.stream || (isError && !sse.isCommitted)) return;
    sse.commit(headers());
    sse.write(frames);
  };
  // Stored Responses: kept before the client sees the end, so it can refer to the response at once.
  const persist = async () => {
    const id = encoder.persist ? await encoder.persist(entry.sessionId) : null;
    if (id) entry.responseId = id;
    if (encoder.storeWarning) layers.store = [encoder.storeWarning];
  };
  if (ctx.stream) ctx.abort.later(ctx.commitAfterMs, () => sse.commit(headers()));
  try {
    const aborted = ctx.abort.aborted();
    for (;;) {
      // A backend may throw before its `start` (OpenCode not ready, a request held past its bound during a recycle):
      // that is an error event like any other, so the commit rule decides between an HTTP error and an in-band one.
      const step = await Promise.race([events.next(), aborted]).catch((err: unknown) => thrownAsEvent(err));
      if (step === "aborted") {
        const why = ctx.abort.reason!;
        if (why.status === CLIENT_CLOSED_STATUS) {
          sse.end();
          return setClientClosed(entry, why.message);
        }
        const frames = encoder.push({ type: "error", error: why });
        await persist();
        send(frames, true);
        break;
      }
      if (step.done) break;
      const event = step.value;
      if (event.type === "start") {
        entry.sessionId = event.sessionId;
        if (event.freshOpenCode) entry.freshOpenCode = true;
        layers.planner = event.warnings;
        continue;
      }
      if (entry.ttftMs === null && event.type !== "finish" && event.type !== "error") {
        entry.ttftMs = ctx.now() - entry.time;
        ctx.onFirstOutput();
      }
      if (event.type === "server-tool-result" && event.record)
        entry.serverTools = [...(entry.serverTools ?? []), event.record];
      if (event.type === "finish") {
        entry.usage = toLogUsage(event.usage);
        // Late warnings reach the header of a non-streamed answer (not yet sent) and the request log.
        layers.mapper = event.warnings ?? NONE;
      }
      const frames = encoder.push(event);
      const terminal = event.type === "finish" || event.type === "error";
      if (terminal) await persist();
      send(frames, event.type === "error");
      if (terminal) break;
    }
    const closing = encoder.end();
    await persist();
    const failure = encoder.failure;
    if (ctx.stream && (sse.isCommitted || !failure)) {
      sse.commit(headers());
      sse.write(closing);
      sse.end();
      setOutcome(entry, 200, failure);
      return;
    }
    if (failure) throw failure;
    for (const [k, v] of Object.entries(headers())) ctx.res.setHeader(k, v);
    const body = encoder.body();
    if (ctx.logBody) entry.responseBody = body;
    ctx.res.status(200).json(body);
    setOutcome(entry, 200, null);
  } finally {
    // Whatever the outcome (a client that left included), the log shows what the run had learnt.
    entry.warnings = logWarnings(warnings());
    sse.stop();
  }
}

/** A backend's throw as a terminal `error` event (same status, code, message, param and Retry-After). */
function thrownAsEvent(err: unknown): IteratorResult<ModelEvent> {
  const e = toPatchbayError(err);
  const error: ModelError = { code: e.code, status: e.status, message: e.message, param: e.param };
  if (e.retryAfter !== undefined) error.retryAfter = e.retryAfter;
  // Kept for the log line of an internal error ("internal error: <stack>"), which would otherwise say "undefined".
  if (e.cause !== undefined) error.cause = e.cause;
  return { done: false, value: { type: "error", error } };
}

/** `x-patchbay-session` and `x-patchbay-warnings`, when there is something to say. */
function responseHeaders(entry: RequestLogEntry, warnings: readonly PatchbayWarning[]): Record<string, string> {
  const h: Record<string, string> = {};
  if (entry.sessionId) h["x-patchbay-session"] = entry.sessionId;
  const w = formatWarningsHeader(warnings);
  if (w) h["x-patchbay-warnings"] = w;
  return h;
}
