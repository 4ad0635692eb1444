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
 * True when the JSON text `text` nests objects/arrays deeper than `max` levels, read without parsing (brackets
 * outside strings are counted), so a client's string-valued tool-call `arguments` are bounded before anything parses
 * or re-serialises them. Brackets of text that is not JSON count too.
 */
export function jsonTextDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > max) return true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
  }
  return false;
}

/**
 * Throws PatchbayError `invalid_request_error` (400, `param`) when `value` nests deeper than `max` levels
 * (default {@link MAX_CLIENT_JSON_DEPTH}). `what` names the value in the message (default: the field).
 */
export function assertJsonDepth(value: unknown, param: string, what = `'${param}'`, max = MAX_CLIENT_JSON_DEPTH): void {
  if (jsonDepthExceeds(value, max)) throw tooDeep(what, max, param);
}

/**
 * {@link assertJsonDepth} for JSON text (string-valued tool-call `arguments`): throws the same 400 naming `param`.
 * Text that is not JSON is not refused here (the bridge carries it as text), so only deep text is parsed to tell.
 */
export function assertJsonTextDepth(
  text: string,
  param: string,
  what = `'${param}'`,
  max = MAX_CLIENT_JSON_DEPTH,
): void {
  if (!jsonTextDepthExceeds(text, max)) return;
  try {
    JSON.parse(text);
  } catch {
    return;
  }
  throw tooDeep(what, max, param);
}

function tooDeep(what: string, max: number, param: string): PatchbayError {
  return new PatchbayError(
    "invalid_request_error",
    `Too deeply nested: ${what} (more than ${max} levels of objects and arrays); flatten the structure.`,
    { param },
  );
}
