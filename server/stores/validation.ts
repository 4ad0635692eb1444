// Converts zod validation failures of store inputs into PatchbayError `invalid_request_error` naming the field.
// Must not validate anything itself: the schemas live in shared/.
import type { z } from "zod";
import { PatchbayError } from "../core/errors";

/** Formats a zod issue path as `limits.concurrency` / `models[2]`; empty when the issue is at the root. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out === "" ? String(part) : `.${String(part)}`;
  }
  return out;
}

/**
 * Parses `value` with `schema`; on failure throws PatchbayError `invalid_request_error` whose message names the
 * field (`param` prefixed to the issue path) and whose `param` is that field.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, param: string | null = null): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw fromZodError(result.error, param);
}

/** PatchbayError `invalid_request_error` for the first issue of a ZodError. */
export function fromZodError(err: z.ZodError, param: string | null = null): PatchbayError {
  const issue = err.issues[0];
  const sub = issue ? formatIssuePath(issue.path) : "";
  const field = param && sub ? (sub.startsWith("[") ? `${param}${sub}` : `${param}.${sub}`) : param || sub || null;
  const message = issue?.message ?? "Invalid value";
  return new PatchbayError("invalid_request_error", field ? `Invalid ${field}: ${message}` : message, {
    param: field,
    cause: err,
  });
}

/**
 * Keeps only the fields the caller actually sent. Zod 4 fills `.default()`s even inside `.partial()`, so a parsed
 * patch such as `SettingsPatch.parse({port: 1})` carries every default; merging it would reset the other fields.
 * `raw` is the unparsed input, `parsed` its parsed form; keys absent (or undefined) in `raw` are dropped.
 */
export function presentFields<T extends object>(raw: unknown, parsed: T): Partial<T> {
  if (typeof raw !== "object" || raw === null) return {};
  const out: Partial<T> = {};
  for (const key of Object.keys(parsed) as (keyof T)[]) {
    if ((raw as Record<PropertyKey, unknown>)[key as PropertyKey] !== undefined) out[key] = parsed[key];
  }
  return out;
}
