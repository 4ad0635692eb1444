// Server-sent events for the admin listener: one JSON `data:` per event, a heartbeat comment, and slow clients
// dropped (a write the socket cannot take within `slowClientMs`). Knows nothing about what is streamed.
import type { Request, Response } from "express";

export interface SseOptions {
  /** Comment line interval (ms) that keeps proxies and idle timeouts from closing the stream. */
  heartbeatMs: number;
  /** After `res.write` returns false, the socket must drain within this many ms or the client is dropped. */
  slowClientMs: number;
  /** Called once when the stream ends for any reason (client gone, dropped, server closing). */
  onClose: () => void;
}

/** An open event stream. */
export interface SseStream {
  /** Sends one event (`data: <json>`); no-op once closed. */
  send(data: unknown): void;
  /** Ends the stream (graceful end). */
  close(): void;
  readonly closed: boolean;
}

/** Registry of open streams, each with the credential that opened it, so the admin app can end them all on shutdown
 *  and a session's own streams when that session ends (sign out): a stream is authorised once, when it opens. */
export class SseRegistry {
  private readonly streams = new Map<SseStream, string | null>();
  /** Registers `s`, opened with `credential` (the bearer token; null when unknown). */
  add(s: SseStream, credential: string | null = null): void {
    this.streams.set(s, credential);
  }
  delete(s: SseStream): void {
    this.streams.delete(s);
  }
  get size(): number {
    return this.streams.size;
  }
  /** Ends the streams opened with `credential`. */
  closeFor(credential: string): void {
    for (const [s, c] of [...this.streams]) if (c === credential) s.close();
  }
  closeAll(): void {
    for (const s of [...this.streams.keys()]) s.close();
  }
}

/** Writes the SSE response head and returns the stream. */
export function openSse(req: Request, res: Response, opts: SseOptions): SseStream {
  res.status(200);
  res.setHeader("Content-Type", "text/event-stream; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Connection", "keep-alive");
  res.setHeader("X-Accel-Buffering", "no");
  res.flushHeaders();
  req.socket.setNoDelay(true);

  let closed = false;
  let slowTimer: NodeJS.Timeout | undefined;

  const finish = (graceful: boolean): void => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    if (slowTimer) clearTimeout(slowTimer);
    res.off("drain", onDrain);
    if (graceful) res.end();
    else res.destroy();
    opts.onClose();
  };

  const onDrain = (): void => {
    if (slowTimer) clearTimeout(slowTimer);
    slowTimer = undefined;
  };

  const write = (chunk: string): void => {
    if (closed) return;
    const ok = res.write(chunk);
    if (!ok && !slowTimer) {
      // Backpressure: the socket buffer is full. Give it slowClientMs to drain, else drop the client.
      slowTimer = setTimeout(() => finish(false), opts.slowClientMs);
      res.once("drain", onDrain);
    }
  };

  const heartbeat = setInterval(() => write(": heartbeat\n\n"), opts.heartbeatMs);
  heartbeat.unref();
  res.on("close", () => finish(false));
  write("retry: 2000\n\n");

  return {
    send: (data) => write(`data: ${JSON.stringify(data)}\n\n`),
    close: () => finish(true),
    get closed() {
      return closed;
    },
  };
}
