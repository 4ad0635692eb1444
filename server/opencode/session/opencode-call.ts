// One SDK call into OpenCode with its failure as a PatchbayError naming the step, and the per-call time bounds the
// session layer uses.
import { PatchbayError } from "../../core/errors";

/** Bound of an ordinary call, ms: the first call into a new directory boots an instance (seconds on a busy machine). */
export const CALL_TIMEOUT_MS = 30_000;
/** Bound of an abort, delete or dispose, ms. */
export const ABORT_TIMEOUT_MS = 5_000;

/** Runs an SDK call; returns its data or throws PatchbayError `backend_unavailable` naming what failed. */
export async function callOpenCode<T>(what: string, call: () => Promise<{ data?: T; error?: unknown }>): Promise<T> {
  let res: { data?: T; error?: unknown };
  try {
    res = await call();
  } catch (err) {
    throw new PatchbayError("backend_unavailable", `OpenCode could not ${what}: ${describe(err)}`, { cause: err });
  }
  if (res.error !== undefined || res.data === undefined) {
    throw new PatchbayError("backend_unavailable", `OpenCode could not ${what}: ${describe(res.error)}`);
  }
  return res.data;
}

/** A short reason for an SDK failure: "timed out", OpenCode's error message, or the error's name. */
export function describe(err: unknown): string {
  if (err instanceof Error) return err.name === "TimeoutError" ? "timed out" : err.message;
  if (typeof err === "object" && err !== null) {
    const e = err as { data?: { message?: unknown }; message?: unknown; name?: unknown };
    if (typeof e.data?.message === "string") return e.data.message;
    if (typeof e.message === "string") return e.message;
    if (typeof e.name === "string") return e.name;
  }
  return String(err);
}
