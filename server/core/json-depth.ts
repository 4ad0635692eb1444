// Nesting bounds for client JSON that Patchbay keeps and re-serialises (tool schemas, structured-output schemas,
// tool-call arguments): JSON.stringify and hashing recurse and overflow the stack at a few thousand levels. Pure.
import { PatchbayError } from "./errors";

/** Deepest nesting the wire decoders accept in those fields (objects/arrays; `{}` is 1). Real JSON Schemas and
 *  arguments stay far below it. */
export const MAX_CLIENT_JSON_DEPTH = 64;

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
 * (default {@link MAX_CLIENT_JSON_DEPTH}). `what` names the value in the message (default: the field).
 */
export function assertJsonDepth(value: unknown, param: string, what = `'${param}'`, max = MAX_CLIENT_JSON_DEPTH): void {
  if (jsonDepthExceeds(value, max)) {
    throw new PatchbayError(
      "invalid_request_error",
      `Too deeply nested: ${what} (more than ${max} levels of objects and arrays); flatten the structure.`,
      { param },
    );
  }
}
