// Nesting bound for the client JSON Patchbay keeps and re-serialises (tool schemas, structured-output schemas, tool-call
// arguments): values nested deeper would overflow the stack later (hashing, serialising). Pure; no wire knowledge.
import { invalidRequest } from "../core/errors";

/** Deepest nesting accepted in those fields (objects and arrays, the outermost counts as 1). Real JSON Schemas and
 *  arguments stay far below it. */
export const MAX_JSON_DEPTH = 64;

/**
 * Throws a 400 `invalid_request_error` naming `param` when `value` nests objects/arrays deeper than
 * {@link MAX_JSON_DEPTH}. Recursion stops at the bound, so the check itself cannot overflow.
 */
export function assertJsonDepth(value: unknown, param: string): void {
  if (depthExceeds(value, MAX_JSON_DEPTH)) {
    throw invalidRequest(
      `Invalid '${param}': JSON nested deeper than ${MAX_JSON_DEPTH} levels is not accepted; flatten the structure.`,
      param,
    );
  }
}

/** True when `value` has more than `budget` levels of objects/arrays. */
function depthExceeds(value: unknown, budget: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (budget <= 0) return true;
  const children = Array.isArray(value) ? value : Object.values(value);
  return children.some((child) => depthExceeds(child, budget - 1));
}
