// Nesting limit for client-controlled JSON values the bridge serialises (tool schemas, tool-call arguments,
// response_format schemas): JSON.stringify recurses and overflows the stack at a few thousand levels (pure).
import { PatchbayError } from "../core/errors";

/** Deepest nesting (objects/arrays) the bridge accepts in one client value; far above what any real schema or
 *  argument object needs, far below where JSON.stringify overflows. */
export const MAX_JSON_DEPTH = 256;

/** True when `value` nests objects/arrays deeper than `max` levels (`{}` is 1). Iterative: never overflows. */
export function jsonDepthExceeds(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [v, depth] = item;
    if (typeof v !== "object" || v === null) continue;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * Throws PatchbayError `invalid_request_error` (400, `param`) when `value` nests deeper than `max` levels
 * (default {@link MAX_JSON_DEPTH}); `what` names the value in the message, e.g. `the parameters of tool "x"`.
 */
export function assertJsonDepth(value: unknown, param: string, what: string, max = MAX_JSON_DEPTH): void {
  if (jsonDepthExceeds(value, max)) {
    throw new PatchbayError("invalid_request_error", `Too deeply nested: ${what} (more than ${max} levels of objects and arrays).`, { param });
  }
}
