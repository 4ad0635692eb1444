// The admin listener's live streams: the request log (replay recent entries, then live) and status changes.
// Entries arrive already redacted from the RequestLog; this module never adds or removes fields.
import type { Request, Response } from "express";
import { openSse, type SseRegistry } from "../sse";
import type { AdminServices } from "../services";
import { adminStatus } from "./handlers";
import type { StreamHandlers } from "./mount";

export interface StreamSettings {
  heartbeatMs: number;
  slowClientMs: number;
  /** Default replay size for the log stream. */
  replay: number;
}

/** SSE handlers keyed by endpoint name (`logStream`, `statusStream`). */
export function createStreamHandlers(s: AdminServices, registry: SseRegistry, cfg: StreamSettings): StreamHandlers {
  const open = (req: Request, res: Response, subscribe: (send: (data: unknown) => void) => () => void) => {
    const cleanup: (() => void)[] = [];
    const stream = openSse(req, res, {
      heartbeatMs: cfg.heartbeatMs,
      slowClientMs: cfg.slowClientMs,
      onClose: () => {
        for (const off of cleanup) off();
        registry.delete(stream);
      },
    });
    registry.add(stream, typeof res.locals.adminCredential === "string" ? res.locals.adminCredential : null);
    const unsubscribe = subscribe((data) => stream.send(data));
    // A replay can overflow a slow socket and close the stream before we get here.
    if (stream.closed) unsubscribe();
    else cleanup.push(unsubscribe);
  };

  return {
    logStream: (req, res, query) => {
      const replay = (query as { replay?: number } | undefined)?.replay ?? cfg.replay;
      open(req, res, (send) => {
        // recent() and subscribe() run in the same tick, so no entry falls between replay and live.
        for (const entry of s.requestLog.recent(replay)) send(entry);
        return s.requestLog.subscribe(send);
      });
    },
    statusStream: (req, res) => {
      open(req, res, (send) => {
        send(adminStatus(s));
        return s.onStatus(() => send(adminStatus(s)));
      });
    },
  };
}
