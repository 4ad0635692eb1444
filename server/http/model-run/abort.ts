// Why a run stopped early: the client left, or one of the app's deadlines passed. The first reason wins.
import type { ModelError } from "../../core/contract";
import { CLIENT_CLOSED_STATUS } from "../../../shared/log-entry";

/** An AbortController that remembers the first reason, as a ModelError. */
export class RunAbort {
  private readonly controller = new AbortController();
  private why: ModelError | null = null;
  private readonly timers: NodeJS.Timeout[] = [];

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The first reason given, or null while the run goes on. */
  get reason(): ModelError | null {
    return this.why;
  }

  /** Stops the run with `error` (ignored once stopped). */
  abort(error: ModelError): void {
    if (this.controller.signal.aborted) return;
    this.why = error;
    this.controller.abort();
  }

  /** The client closed the connection. */
  clientClosed(): void {
    this.abort({ code: "client_closed", status: CLIENT_CLOSED_STATUS, message: "The client closed the connection." });
  }

  /** Aborts with a 504 `timeout` after `ms`; returns a function that cancels this deadline. */
  deadline(ms: number, message: string): () => void {
    const timer = setTimeout(() => this.abort({ code: "timeout", status: 504, message }), ms);
    this.timers.push(timer);
    return () => clearTimeout(timer);
  }

  /** Starts the app's first-token and total deadlines; returns the function that stops the first-token one. */
  startAppDeadlines(limits: { firstTokenTimeoutMs: number; totalTimeoutMs: number }): () => void {
    const seconds = (ms: number) => Math.round(ms / 1000);
    this.deadline(
      limits.totalTimeoutMs,
      `The request took longer than ${seconds(limits.totalTimeoutMs)} s (the app's total timeout).`,
    );
    return this.deadline(
      limits.firstTokenTimeoutMs,
      `No token arrived within ${seconds(limits.firstTokenTimeoutMs)} s (the app's first-token timeout).`,
    );
  }

  /** Calls `fn` after `ms` unless the run is disposed first. */
  later(ms: number, fn: () => void): void {
    this.timers.push(setTimeout(fn, ms));
  }

  /** A promise that resolves when the run is aborted (for racing against the backend's next event). */
  aborted(): Promise<"aborted"> {
    return new Promise((resolve) => {
      if (this.signal.aborted) resolve("aborted");
      else this.signal.addEventListener("abort", () => resolve("aborted"), { once: true });
    });
  }

  /** Clears every timer. */
  dispose(): void {
    for (const t of this.timers) clearTimeout(t);
  }
}
