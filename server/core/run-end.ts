// How a run ends in every wire encoder: `end()` is idempotent, a stream cut before its terminal event fails with
// STREAM_ENDED_EARLY, and a non-stream body exists only for a run that finished. The wires differ only in frames.
import type { ModelError } from "./contract";
import type { PatchbayError } from "./errors";
import { STREAM_ENDED_EARLY, modelErrorToPatchbayError } from "./model-error";
import type { SseFrame } from "./sse-frame";

/** The part of an encoder's state this module reads and writes. `phase` is `open` until the terminal event. */
export interface RunEndState {
  phase: string;
  ended: boolean;
  failure: ModelError | null;
}

/** The frames of `end()`: none once ended or after a failure; `fail(STREAM_ENDED_EARLY)` for a run still open;
 *  `closing` for a run that finished (chat's `[DONE]`). Marks the state ended. */
export function endRun(s: RunEndState, fail: (error: ModelError) => SseFrame[], closing: SseFrame[] = []): SseFrame[] {
  if (s.ended) return [];
  const frames = s.phase === "open" ? fail(STREAM_ENDED_EARLY) : s.phase === "failed" ? [] : closing;
  s.ended = true;
  return frames;
}

/** Guards `body()`: @throws the run's failure (as `toError` words it), or STREAM_ENDED_EARLY for a run still open. */
export function assertRunFinished(
  s: RunEndState,
  toError: (error: ModelError) => PatchbayError = modelErrorToPatchbayError,
): void {
  if (s.phase === "failed" && s.failure) throw toError(s.failure);
  if (s.phase === "open") throw modelErrorToPatchbayError(STREAM_ENDED_EARLY);
}
