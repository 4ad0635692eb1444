// How many models OpenCode offers, counted once per start of OpenCode, so the terminal, the Overview and the Connect
// page can say at once that there are none (issue 16 item 12), not at the first 404.
import type { OpenCodeState } from "../../shared/status";

/** What the count needs: the model list, and OpenCode's state as it changes. */
export interface ModelCountOptions {
  listModels: () => Promise<readonly unknown[]>;
  state: () => OpenCodeState;
  now: () => number;
  /** Called when the count changes. */
  changed: () => void;
}

/** The count's handle: {@link value} for status reads, {@link stateChanged} on each OpenCode status event. */
export interface ModelCount {
  /** Models offered; null while unknown (OpenCode not ready yet, or a count failed: reading retries it). */
  value(): number | null;
  /** OpenCode's state changed: a new start counts again, a sleep and its wake keep the count. */
  stateChanged(state: OpenCodeState): void;
}

/** Retry pause after a count (ms): at most one count in flight and one try per 2 s. */
const RETRY_MS = 2_000;

/** See the module comment. */
export function trackModelCount(o: ModelCountOptions): ModelCount {
  let count: number | null = null;
  let counting = false;
  let lastCountAt = -Infinity;
  let lastState = o.state();
  const countNow = (): void => {
    if (counting || o.now() - lastCountAt < RETRY_MS) return;
    counting = true;
    lastCountAt = o.now();
    o.listModels()
      .then(
        (models) => {
          if (o.state() !== "ready" || count === models.length) return;
          count = models.length;
          o.changed();
        },
        () => undefined,
      )
      .finally(() => {
        counting = false;
      });
  };
  return {
    value() {
      // A failed count is retried by the next status read instead of leaving the count unknown for the whole run.
      if (count === null && o.state() === "ready") countNow();
      return count;
    },
    stateChanged(state) {
      if (state === lastState) return;
      // A sleep and its wake keep the count: logins are read at start, so the models cannot have changed.
      const sleepOrWake = state === "sleeping" || lastState === "sleeping";
      lastState = state;
      if (!sleepOrWake) count = null;
      lastCountAt = -Infinity;
      if (state === "ready") countNow();
    },
  };
}
