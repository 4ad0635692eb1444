// Stopping a session whose prompt is still setting up its OpenCode instance. OpenCode 1.18 sets up an instance's shared
// state (provider, model, tools) inside the first prompt that runs in it; `session.abort` during that set-up interrupts
// the shared state itself, and every later prompt in the instance then dies at once ("All fibers interrupted without
// error"; Patchbay saw 502 "provider ended the answer…" until a restart). So a client that leaves during an instance's
// first prompt does not abort it at once: the abort waits until the prompt reaches its model (set-up done), then stops
// it; the upstream call it opens is closed right away.
import type { OpenCodeEvent, OpenCodeEventHub } from "./event-hub";

/** Longest wait for a prompt to reach its model before it is aborted anyway (ms): set-up takes 1–15 s. */
export const DEFERRED_ABORT_MAX_MS = 60_000;

/**
 * True for an event showing that a session's prompt reached its model (the instance is set up): the start of a model
 * step or a streamed part delta. Idle and error events end the prompt without telling whether set-up finished.
 */
export function showsModelReached(event: OpenCodeEvent): boolean {
  if (event.type === "message.part.delta") return true;
  if (event.type !== "message.part.updated") return false;
  const part = event.properties.part as { type?: unknown } | undefined;
  return part?.type === "step-start";
}

/** How an event ends the wait: "idle" (nothing runs any more), "failed" (an error; OpenCode may retry), or null. */
function promptEnd(event: OpenCodeEvent): "idle" | "failed" | null {
  if (event.type === "session.idle") return "idle";
  if (event.type === "session.error") return "failed";
  if (event.type !== "session.status") return null;
  const status = (event.properties.status as { type?: unknown } | undefined)?.type;
  return status === "idle" ? "idle" : status === "retry" ? "failed" : null;
}

/** What {@link abortAfterSetUp} needs. */
export interface DeferredAbortOptions {
  hub: Pick<OpenCodeEventHub, "subscribe">;
  sessionID: string;
  /** Sends `session.abort`; its failure is the caller's to log. */
  abort: () => Promise<void>;
  /** True once the instance is set up (checked after subscribing, so an event seen just before is not missed). */
  isSetUp: () => boolean;
  /** Called once the prompt reached its model (the instance is set up). */
  onModelReached: () => void;
  maxWaitMs?: number;
}

/**
 * Aborts `sessionID` once its instance is set up (at once if it already is) or its prompt reaches its model, or when it reports an error, or after `maxWaitMs`
 * (default {@link DEFERRED_ABORT_MAX_MS}). A prompt that ends idle is not aborted (nothing runs); a lost event stream
 * (OpenCode going down) ends the wait without an abort. Resolves when done; never rejects.
 */
export function abortAfterSetUp(opts: DeferredAbortOptions): Promise<void> {
  return new Promise<void>((resolve) => {
    let done = false;
    const finish = (abort: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      unsubscribe();
      if (!abort) return resolve();
      opts
        .abort()
        .catch(() => {})
        .finally(resolve);
    };
    const timer = setTimeout(() => finish(true), opts.maxWaitMs ?? DEFERRED_ABORT_MAX_MS);
    timer.unref();
    const unsubscribe = opts.hub.subscribe(opts.sessionID, (m) => {
      if (m.kind === "down") return finish(false);
      if (showsModelReached(m.event)) {
        opts.onModelReached();
        return finish(true);
      }
      const end = promptEnd(m.event);
      if (end) finish(end === "failed");
    });
    if (opts.isSetUp()) finish(true);
  });
}
