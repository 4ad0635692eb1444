// Writes Server-Sent Events to an HTTP response: commits headers once, formats frames, and sends keepalive
// comments while the model is silent so proxies and client timeouts do not cut the stream.
import type { Response } from "express";
import { formatSseFrame, type SseFrame } from "../core/sse-frame";

/** SSE response writer with keepalive; `keepaliveMs` defaults to 15 s. */
export class SseWriter {
  private committed = false;
  private lastWrite = 0;
  private timer: NodeJS.Timeout | null = null;
  private keepaliveText = ": keepalive\n\n";

  constructor(
    private readonly res: Response,
    private readonly keepaliveMs = 15_000,
  ) {}

  get isCommitted(): boolean {
    return this.committed;
  }

  /** Sets the raw text sent as a keepalive (default an SSE comment; the Anthropic wire sends `event: ping`). */
  setKeepalive(text: string): void {
    this.keepaliveText = text;
  }

  /** Sends status 200 and SSE headers (plus `extraHeaders`) once, then starts keepalives. */
  commit(extraHeaders: Record<string, string> = {}): void {
    if (this.committed) return;
    this.committed = true;
    const res = this.res;
    res.status(200);
    res.setHeader("Content-Type", "text/event-stream; charset=utf-8");
    res.setHeader("Cache-Control", "no-cache");
    res.setHeader("Connection", "keep-alive");
    res.setHeader("X-Accel-Buffering", "no");
    for (const [k, v] of Object.entries(extraHeaders)) res.setHeader(k, v);
    res.flushHeaders();
    this.lastWrite = Date.now();
    this.timer = setInterval(
      () => {
        if (Date.now() - this.lastWrite >= this.keepaliveMs) this.raw(this.keepaliveText);
      },
      Math.max(50, Math.floor(this.keepaliveMs / 3)),
    );
    this.timer.unref();
  }

  /** Writes frames (commits first if needed). */
  write(frames: readonly SseFrame[]): void {
    if (frames.length === 0) return;
    this.commit();
    this.raw(frames.map(formatSseFrame).join(""));
  }

  /** Ends the response and stops keepalives. */
  end(): void {
    this.stop();
    if (!this.res.writableEnded) this.res.end();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private raw(text: string): void {
    if (this.res.writableEnded || this.res.destroyed) return;
    this.lastWrite = Date.now();
    this.res.write(text);
  }
}
