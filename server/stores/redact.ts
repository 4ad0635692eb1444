// Redaction of request-log entries before they are stored or broadcast: API keys, Bearer tokens, auth headers.
// Must stay pure (no I/O) and must never return the caller's object (it copies).
import type { RequestLogEntry } from "../../shared/log-entry";

/** A Patchbay key, or anything long enough to be a piece of one beyond its public prefix. */
const KEY_PATTERN = /pb-[A-Za-z0-9_-]{12,}/g;
/** `Bearer <token>` anywhere in a string (headers copied into messages, curl lines, bodies). */
const BEARER_PATTERN = /\b(bearer)\s+[^\s"',;]+/gi;
/** Object fields whose values are credentials whatever they look like. */
const SECRET_FIELD = /^(authorization|proxy-authorization|x-api-key|api[-_]?key|cookie|set-cookie|password)$/i;
const MAX_DEPTH = 64;

export const REDACTED = "[redacted]";

/** Scrubs keys and Bearer tokens from one string. */
export function redactString(text: string): string {
  if (!text.includes("pb-") && !/bearer/i.test(text)) return text;
  return text
    .replace(KEY_PATTERN, `pb-${REDACTED}`)
    .replace(BEARER_PATTERN, (_m, word: string) => `${word} ${REDACTED}`);
}

export interface RedactOptions {
  /** Strings in request/response bodies longer than this are cut (characters). */
  maxBodyStringChars: number;
}

/**
 * A redacted copy of `value` (JSON-like): every string scrubbed, credential fields replaced, strings longer than
 * `maxStringChars` cut, nesting deeper than 64 levels replaced by a marker.
 */
export function redactValue(value: unknown, maxStringChars = Infinity, depth = 0): unknown {
  if (typeof value === "string") {
    const cut =
      value.length > maxStringChars
        ? `${value.slice(0, maxStringChars)}…[truncated, ${value.length - maxStringChars} more characters]`
        : value;
    return redactString(cut);
  }
  if (value === null || typeof value === "number" || typeof value === "boolean") return value;
  if (typeof value !== "object") return value === undefined ? undefined : String(value);
  if (depth >= MAX_DEPTH) return "[too deeply nested]";
  if (Array.isArray(value)) return value.map((v) => redactValue(v, maxStringChars, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const key = redactString(k);
    out[key] =
      SECRET_FIELD.test(k) && v !== null && v !== undefined ? REDACTED : redactValue(v, maxStringChars, depth + 1);
  }
  return out;
}

/** A redacted copy of a log entry; bodies are kept only if the entry carries them (the caller decides). */
export function redactEntry(entry: RequestLogEntry, options: RedactOptions): RequestLogEntry {
  const { requestBody, responseBody, ...rest } = entry;
  const out = redactValue(rest) as RequestLogEntry;
  if (requestBody !== undefined) out.requestBody = redactValue(requestBody, options.maxBodyStringChars);
  if (responseBody !== undefined) out.responseBody = redactValue(responseBody, options.maxBodyStringChars);
  return out;
}
