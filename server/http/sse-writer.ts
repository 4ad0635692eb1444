// Writes Server-Sent Events to an HTTP response: commits headers once, formats frames, and sends keepalive
// comments while the model is silent so proxies and client timeouts do not cut the stream.
import type { Response } from "express";
import { formatSseFrame, type SseFrame } from "../core/sse-frame";

/** How much a client that stops reading may make Patchbay hold for it, and for how long. */
export interface StreamBufferLimits {
  /** Bytes waiting in Patchbay for a client that reads too slowly before the stall clock starts (default 1 MiB). */
  stallBytes: number;
  /** Over `stallBytes`, the client must read (drain) within this long (ms, default 30 000), else it is dropped. */
  stallMs: number;
  /** Bytes waiting at most: over it the client is dropped at once (default 8 MiB). */
  maxBytes: number;
}

/** Default {@link StreamBufferLimits}. */
export const DEFAULT_STREAM_BUFFER: StreamBufferLimits = {
  stallBytes: 1024 * 1024,
  stallMs: 30_000,
  maxBytes: 8 * 1024 * 1024,
};

/**
 * SSE response writer with keepalive (`keepaliveMs` defaults to 15 s) and a bounded buffer: a client that stops
 * reading is dropped (its socket destroyed, `onStalled` told first) once Patchbay holds more than `maxBytes` for it,
 * or more than `stallBytes` for longer than `stallMs`, instead of Patchbay buffering the whole answer for it.
 */
export class SseWriter {
  private committed = false;
  private lastWrite = 0;
  private timer: NodeJS.Timeout | null = null;
  private stallTimer: NodeJS.Timeout | null = null;
  private keepaliveText = ": keepalive\n\n";
  private readonly limits: StreamBufferLimits;

  constructor(
    private readonly res: Response,
    private readonly keepaliveMs = 15_000,
    options: { limits?: Partial<StreamBufferLimits>; onStalled?: (message: string) => void } = {},
  ) {
    this.limits = { ...DEFAULT_STREAM_BUFFER, ...options.limits };
    this.onStalled = options.onStalled ?? (() => undefined);
  }

  private readonly onStalled: (message: string) => void;

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
    this.clearStall();
  }

  private raw(text: string): void {
    if (this.res.writableEnded || this.res.destroyed) return;
    this.lastWrite = Date.now();
    this.res.write(text);
    this.checkBuffer();
  }

  /** Applies the buffer limits after a write (see the class comment). */
  private checkBuffer(): void {
    const held = this.res.writableLength;
    if (held > this.limits.maxBytes) {
      return this.drop(`The client stopped reading the stream (over ${this.limits.maxBytes} bytes waiting for it).`);
    }
    if (held <= this.limits.stallBytes || this.stallTimer) return;
    this.stallTimer = setTimeout(() => {
      this.stallTimer = null;
      if (this.res.writableLength > this.limits.stallBytes)
        this.drop(`The client stopped reading the stream (nothing read for ${this.limits.stallMs} ms).`);
    }, this.limits.stallMs);
    this.stallTimer.unref();
    this.res.once("drain", () => this.clearStall());
  }

  private clearStall(): void {
    if (this.stallTimer) clearTimeout(this.stallTimer);
    this.stallTimer = null;
  }

  private drop(message: string): void {
    this.stop();
    this.onStalled(message);
    this.res.destroy();
  }
}
