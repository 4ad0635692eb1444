// The model runs in flight, by who started them (app id and key prefix), so deleting an app or revoking a key ends
// that app's or key's running requests at once instead of letting them run (and store) to the end.
import type { ModelError } from "../../core/contract";
import type { RunAbort } from "./abort";

/** Who a run belongs to: the app (its id tells a recreated app of the same name apart) and the key it presented. */
export interface RunOwner {
  appId: string;
  appName: string;
  keyPrefix: string;
}

/** The error a run ends with when its key or app is gone (401: the credential no longer exists). */
export const REVOKED_ERROR: ModelError = {
  code: "invalid_api_key",
  status: 401,
  message: "This request's API key was revoked, or its app deleted, while it ran.",
};

/** Runs in flight. Single-threaded: no locking needed. */
export class RunRegistry {
  private readonly runs = new Map<RunAbort, RunOwner>();

  /** Registers a run; returns the function that removes it (call when the run ended; idempotent). */
  add(owner: RunOwner, abort: RunAbort): () => void {
    this.runs.set(abort, owner);
    return () => void this.runs.delete(abort);
  }

  /** Number of runs in flight. */
  get size(): number {
    return this.runs.size;
  }

  /** Ends (with {@link REVOKED_ERROR}) every run whose owner `stillValid` rejects; returns how many it ended. */
  endInvalid(stillValid: (owner: RunOwner) => boolean): number {
    let ended = 0;
    for (const [abort, owner] of [...this.runs]) {
      if (stillValid(owner)) continue;
      this.runs.delete(abort);
      abort.abort(REVOKED_ERROR);
      ended++;
    }
    return ended;
  }
}
