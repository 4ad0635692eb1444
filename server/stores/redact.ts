// Redaction of request-log entries before they are stored or broadcast: API keys, Bearer tokens, auth headers, the
// secrets Patchbay knows by value (admin token, login tokens, OpenCode's password), and size caps on every string
// (an entry echoes client input). Must stay pure (no I/O) and must never return the
// caller's object (it copies).
import type { RequestLogEntry } from "../../shared/log-entry";

/** A Patchbay key, or anything long enough to be a piece of one beyond its public prefix. */
const KEY_PATTERN = /pb-[A-Za-z0-9_-]{12,}/g;
/** `Bearer <token>` anywhere in a string (headers copied into messages, curl lines, bodies). Placeholders are not
 *  tokens: `<key>` in Patchbay's own help texts and `$KEY` / `${KEY}` in shell lines stay readable. */
const BEARER_PATTERN = /\b(bearer)\s+(?![<$])[^\s"',;]+/gi;
/** Object fields whose values are credentials whatever they look like. */
const SECRET_FIELD = /^(authorization|proxy-authorization|x-api-key|api[-_]?key|cookie|set-cookie|password)$/i;
const MAX_DEPTH = 64;

export const REDACTED = "[redacted]";

/** Longest kept value of an entry's short fields (id, app, key prefix, method, endpoint, models, error code,
 *  session id), characters before the truncation marker. */
export const MAX_ENTRY_FIELD_CHARS = 512;
/** Longest kept error message or warning, characters before the truncation marker. */
export const MAX_ENTRY_MESSAGE_CHARS = 2048;
/** Most warnings kept per entry. */
export const MAX_ENTRY_WARNINGS = 32;

const SHORT_FIELDS = [
  "id",
  "app",
  "keyPrefix",
  "method",
  "endpoint",
  "modelAsked",
  "modelResolved",
  "errorCode",
  "sessionId",
] as const satisfies readonly (keyof RequestLogEntry)[];

/** `text` cut to `max` characters plus a marker saying how much was cut. */
function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…[truncated, ${text.length - max} more characters]` : text;
}

/** Known secrets shorter than this are not searched for (they would blank out ordinary words). */
const MIN_SECRET_CHARS = 8;

/** Scrubs keys, Bearer tokens and every one of `secrets` (by value, wherever it appears) from one string. */
export function redactString(text: string, secrets: readonly string[] = []): string {
  for (const secret of secrets) {
    if (secret.length >= MIN_SECRET_CHARS && text.includes(secret)) text = text.split(secret).join(REDACTED);
  }
  if (!text.includes("pb-") && !/bearer/i.test(text)) return text;
  return text
    .replace(KEY_PATTERN, `pb-${REDACTED}`)
    .replace(BEARER_PATTERN, (_m, word: string) => `${word} ${REDACTED}`);
}

export interface RedactOptions {
  /** Strings in request/response bodies longer than this are cut (characters). */
  maxBodyStringChars: number;
  /** Secrets to remove by value wherever they appear (admin token, login tokens, OpenCode's password…). */
  secrets?: readonly string[];
}

/**
 * A redacted copy of `value` (JSON-like): every string scrubbed (see {@link redactString}), credential fields
 * replaced, strings longer than `maxStringChars` cut, nesting deeper than 64 levels replaced by a marker.
 */
export function redactValue(
  value: unknown,
  maxStringChars = Infinity,
  depth = 0,
  secrets: readonly string[] = [],
): unknown {
  // Secrets are removed before cutting, so a cut cannot leave a recognisable piece of one.
  if (typeof value === "string") return truncate(redactString(value, secrets), maxStringChars);
  if (value === null || typeof value === "number" || typeof value === "boolean") return value;
  if (typeof value !== "object") return value === undefined ? undefined : String(value);
  if (depth >= MAX_DEPTH) return "[too deeply nested]";
  if (Array.isArray(value)) return value.map((v) => redactValue(v, maxStringChars, depth + 1, secrets));
  // Object.fromEntries defines own properties, so a body's `__proto__` key stays a plain field (an assignment
  // would set the copy's prototype instead).
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      truncate(redactString(k, secrets), maxStringChars),
      SECRET_FIELD.test(k) && v !== null && v !== undefined
        ? REDACTED
        : redactValue(v, maxStringChars, depth + 1, secrets),
    ]),
  );
}

/**
 * A redacted copy of a log entry; bodies are kept only if the entry carries them (the caller decides). Every string
 * is capped: {@link MAX_ENTRY_FIELD_CHARS} for the short fields, {@link MAX_ENTRY_MESSAGE_CHARS} for the error message
 * and each warning (at most {@link MAX_ENTRY_WARNINGS}), `maxBodyStringChars` for body strings.
 */
export function redactEntry(entry: RequestLogEntry, options: RedactOptions): RequestLogEntry {
  const { requestBody, responseBody, warnings, ...rest } = entry;
  const capped: Record<string, unknown> = { ...rest };
  for (const field of SHORT_FIELDS) {
    const value = capped[field];
    if (typeof value === "string") capped[field] = truncate(value, MAX_ENTRY_FIELD_CHARS);
  }
  const secrets = options.secrets ?? [];
  const out = redactValue(capped, MAX_ENTRY_MESSAGE_CHARS, 0, secrets) as RequestLogEntry;
  out.warnings = (warnings ?? [])
    .slice(0, MAX_ENTRY_WARNINGS)
    .map((w) => truncate(redactString(String(w), secrets), MAX_ENTRY_MESSAGE_CHARS));
  if (requestBody !== undefined) out.requestBody = redactValue(requestBody, options.maxBodyStringChars, 0, secrets);
  if (responseBody !== undefined) out.responseBody = redactValue(responseBody, options.maxBodyStringChars, 0, secrets);
  return out;
}
