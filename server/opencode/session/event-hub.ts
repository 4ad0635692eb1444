// The one process-wide subscription to OpenCode's `/global/event` stream, demultiplexed by session id (DESIGN §3:
// one subscription per request doubled OpenCode's latency and grew its memory). Reconnects when the stream drops or
// OpenCode restarts. Owns transport only: it never interprets events beyond finding their session id.
import http from "node:http";
import { createParser } from "eventsource-parser";
import { z } from "zod";
import type { OpenCodeStatus } from "../../../shared/status";
import { PatchbayError } from "../../core/errors";

/** An OpenCode bus event (`{type, properties}`); fields are read defensively by the event mapper. */
export interface OpenCodeEvent {
  type: string;
  properties: Record<string, unknown>;
}

/** What a session subscriber receives: an event of its session, or notice that the stream went down (events lost). */
export type HubMessage = { kind: "event"; event: OpenCodeEvent } | { kind: "down"; reason: string };

/** The part of the supervisor the hub needs. */
export interface EventSource {
  connection(): { url: string; authorization: string } | null;
  onStatus(listener: (s: OpenCodeStatus) => void): () => void;
}

/** OpenCode sends `server.heartbeat` every 10 s; silence this long means the connection is dead. */
const SILENCE_LIMIT_MS = 30_000;

const Envelope = z.object({
  directory: z.string().optional(),
  payload: z.object({ type: z.string(), properties: z.record(z.string(), z.unknown()).optional() }),
});

/**
 * Keeps one SSE connection to `/global/event` while OpenCode is ready. `subscribe(sessionID)` routes that session's
 * events; `tap()` sees every event (recording, diagnostics). `ready()` resolves once connected.
 */
export class OpenCodeEventHub {
  private readonly source: EventSource;
  private readonly log: (line: string) => void;
  private readonly sessions = new Map<string, Set<(m: HubMessage) => void>>();
  private readonly taps = new Set<(e: OpenCodeEvent, directory: string | undefined) => void>();
  private readonly connectWaiters = new Set<() => void>();
  private req: http.ClientRequest | null = null;
  private connectedTo: string | null = null;
  /** The OpenCode URL `req` was opened to (connected or not yet). */
  private reqUrl: string | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private failures = 0;
  private closed = false;
  private offStatus: (() => void) | null = null;
  private lastEventAt = 0;
  private watchdog: NodeJS.Timeout | null = null;

  constructor(source: EventSource, log: (line: string) => void = () => {}) {
    this.source = source;
    this.log = log;
    this.offStatus = source.onStatus((s) => {
      if (s.state === "ready") {
        // A recycle can swap processes without passing through `restarting`: follow the new URL.
        if (this.req && this.reqUrl !== s.url) this.drop("OpenCode was replaced by a fresh process");
        this.ensureConnected();
      } else this.drop(`OpenCode is ${s.state}${s.reason ? `: ${s.reason}` : ""}`);
    });
    this.ensureConnected();
  }

  /** True while the stream is connected. */
  get connected(): boolean {
    return this.connectedTo !== null;
  }

  /** Resolves once the stream is connected; throws PatchbayError `backend_starting` after `timeoutMs`. */
  async ready(timeoutMs: number): Promise<void> {
    if (this.connected) return;
    this.ensureConnected();
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(t);
        this.connectWaiters.delete(done);
        resolve();
      };
      const t = setTimeout(done, timeoutMs);
      this.connectWaiters.add(done);
    });
    if (!this.connected)
      throw new PatchbayError(
        "backend_starting",
        "OpenCode's event stream is not connected yet; retry in a few seconds.",
        { retryAfter: 2 },
      );
  }

  /** Routes events of `sessionID` to `handler` until the returned function is called. */
  subscribe(sessionID: string, handler: (m: HubMessage) => void): () => void {
    let set = this.sessions.get(sessionID);
    if (!set) this.sessions.set(sessionID, (set = new Set()));
    set.add(handler);
    return () => {
      set.delete(handler);
      if (set.size === 0 && this.sessions.get(sessionID) === set) this.sessions.delete(sessionID);
    };
  }

  /** Sees every event (with its instance directory) until the returned function is called. */
  tap(listener: (e: OpenCodeEvent, directory: string | undefined) => void): () => void {
    this.taps.add(listener);
    return () => this.taps.delete(listener);
  }

  /** Closes the stream for good. */
  close(): void {
    this.closed = true;
    this.offStatus?.();
    this.drop("event hub closed");
  }

  // ---- internals -------------------------------------------------------------------------------------------------

  private ensureConnected(): void {
    if (this.closed || this.req || this.reconnectTimer) return;
    const conn = this.source.connection();
    if (!conn) return;
    const url = new URL("/global/event", conn.url);
    const req = http.request(url, {
      method: "GET",
      headers: { authorization: conn.authorization, accept: "text/event-stream" },
    });
    this.req = req;
    this.reqUrl = conn.url;
    req.on("response", (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        this.lost(req, `event stream answered HTTP ${res.statusCode}`);
        return;
      }
      res.setEncoding("utf8");
      this.lastEventAt = Date.now();
      const parser = createParser({
        onEvent: (ev) => {
          this.lastEventAt = Date.now();
          this.dispatch(ev.data);
        },
      });
      res.on("data", (chunk: string) => parser.feed(chunk));
      res.on("end", () => this.lost(req, "event stream ended"));
      res.on("error", (err) => this.lost(req, `event stream failed: ${err.message}`));
      res.on("close", () => this.lost(req, "event stream closed"));
      this.connectedTo = conn.url;
      this.failures = 0;
      this.startWatchdog(req);
      for (const w of [...this.connectWaiters]) w();
    });
    req.on("error", (err) => this.lost(req, `event stream failed: ${err.message}`));
    req.end();
  }

  private dispatch(data: string): void {
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      return;
    }
    const env = Envelope.safeParse(json);
    if (!env.success) return;
    const event: OpenCodeEvent = { type: env.data.payload.type, properties: env.data.payload.properties ?? {} };
    for (const t of this.taps) {
      try {
        t(event, env.data.directory);
      } catch {}
    }
    const sid = sessionIdOf(event);
    if (!sid) return;
    const set = this.sessions.get(sid);
    if (!set) return;
    for (const h of [...set]) h({ kind: "event", event });
  }

  private startWatchdog(req: http.ClientRequest): void {
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = setInterval(() => {
      if (this.req !== req) return;
      if (Date.now() - this.lastEventAt > SILENCE_LIMIT_MS)
        this.lost(req, `no event or heartbeat for ${SILENCE_LIMIT_MS / 1000} s`);
    }, 5_000);
    this.watchdog.unref();
  }

  private stopWatchdog(): void {
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
  }

  /** The stream of `req` is gone: tell every subscriber (their events may be lost), then reconnect. */
  private lost(req: http.ClientRequest, reason: string): void {
    if (this.req !== req) return;
    this.req = null;
    this.stopWatchdog();
    const wasConnected = this.connectedTo !== null;
    this.connectedTo = null;
    req.destroy();
    if (wasConnected) this.log(`[opencode] ${reason}`);
    this.notifyDown(reason);
    if (this.closed) return;
    this.failures++;
    const delay = Math.min(2000, 100 * 2 ** Math.min(this.failures, 5));
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.ensureConnected();
    }, delay);
    this.reconnectTimer.unref();
  }

  private drop(reason: string): void {
    this.stopWatchdog();
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    const req = this.req;
    this.req = null;
    this.connectedTo = null;
    if (req) req.destroy();
    this.notifyDown(reason);
  }

  private notifyDown(reason: string): void {
    for (const set of [...this.sessions.values()]) for (const h of [...set]) h({ kind: "down", reason });
  }
}

/** The session an event belongs to, if any. */
export function sessionIdOf(e: OpenCodeEvent): string | undefined {
  const p = e.properties;
  if (typeof p.sessionID === "string") return p.sessionID;
  const part = p.part as { sessionID?: unknown } | undefined;
  if (typeof part?.sessionID === "string") return part.sessionID;
  const info = p.info as { sessionID?: unknown } | undefined;
  if (typeof info?.sessionID === "string") return info.sessionID;
  return undefined;
}
