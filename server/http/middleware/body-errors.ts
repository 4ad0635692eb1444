// Maps body-parser's failures and the router's bad %-escapes to PatchbayErrors, for every listener (the API's wire
// envelopes and the admin API), so the same client mistake gets the same status and code everywhere.
import { PatchbayError } from "../../core/errors";

/** How a listener words its body-size advice. */
export interface BodyErrorHints {
  /** Whose limit it is, in "larger than <owner> allows" (e.g. "this app", "the admin API"). */
  limitOwner: string;
  /** Appended to the "too large" message (e.g. where to raise the limit). */
  tooLargeAdvice: string;
}

/**
 * Maps body-parser errors (http-errors with `status`, most with a `type`) and the router's bad percent-encoding (a
 * URIError with status 400) to PatchbayErrors: `invalid_json` 400, `payload_too_large` 413 (naming the limit in
 * bytes/KB/MB), `unsupported_media_type` 415, `invalid_request_error` 400. A 4xx without a known `type` (a corrupt
 * gzip/deflate/br body) is the client's fault too: 400, never 500. Returns null for any other error.
 */
export function mapBodyParserError(err: unknown, hints: BodyErrorHints): PatchbayError | null {
  if (!err || typeof err !== "object" || err instanceof PatchbayError) return null;
  const { type, limit, status, expose } = err as { type?: unknown; limit?: number; status?: unknown; expose?: unknown };
  if (err instanceof URIError && status === 400) {
    return new PatchbayError(
      "invalid_request_error",
      "The URL path has invalid percent-encoding (e.g. '%ff'). Encode it as UTF-8.",
    );
  }
  switch (type) {
    case "entity.parse.failed":
      return new PatchbayError(
        "invalid_json",
        "We could not parse the JSON body of your request. Send valid JSON with 'Content-Type: application/json'.",
      );
    case "entity.too.large":
      return new PatchbayError(
        "payload_too_large",
        `The request body is larger than ${hints.limitOwner} allows${limit ? ` (${formatBytes(limit)})` : ""}. ${hints.tooLargeAdvice}`,
      );
    case "encoding.unsupported":
    case "charset.unsupported":
      return new PatchbayError("unsupported_media_type", "Unsupported request body encoding. Send UTF-8 JSON.");
  }
  if (typeof type === "string" && type.startsWith("request.")) {
    return new PatchbayError(
      "invalid_request_error",
      "The request body could not be read: it ended before its announced length (Content-Length).",
    );
  }
  if (expose === true && typeof status === "number" && status >= 400 && status < 500) {
    return new PatchbayError(
      "invalid_request_error",
      "We could not read the request body (a corrupt compressed body, or a bad Content-Encoding). Send plain UTF-8 JSON.",
    );
  }
  return null;
}

/** `n` bytes as "512 bytes", "1.5 KB" or "2 MB". */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  const [value, unit] = n < 1024 * 1024 ? [n / 1024, "KB"] : [n / 1024 / 1024, "MB"];
  return `${Number(value.toFixed(1))} ${unit}`;
}
