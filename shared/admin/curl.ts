// "Copy as curl" for a request-log entry. Never includes a key: the command reads it from $PATCHBAY_KEY, and anything
// in the logged body that looks like a Patchbay key or a bearer token is replaced. Pure; no Node, no DOM.
import type { RequestLogEntry } from "../log-entry";
import { KEY_ENV, shellQuote } from "./snippets";

/** Patchbay keys (`pb-` + 43 base64url characters) and bearer tokens, as they might appear inside a logged body. */
const SECRET_PATTERNS: RegExp[] = [/\bpb-[A-Za-z0-9_-]{12,}/g, /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi];

/** Replaces anything key-like in a string. */
export function redactSecrets(text: string): string {
  return SECRET_PATTERNS.reduce((t, re) => t.replace(re, "<redacted>"), text);
}

/** The body to replay: the logged one when bodies were kept, else a minimal body for the endpoint. */
function replayBody(entry: RequestLogEntry): unknown {
  if (entry.requestBody !== undefined) return entry.requestBody;
  const model = entry.modelAsked ?? "provider/model";
  if (entry.endpoint.endsWith("/responses")) return { model, input: "Hello!", stream: entry.stream, store: false };
  const messages = [{ role: "user", content: "Hello!" }];
  if (entry.endpoint.endsWith("/chat/completions")) return { model, messages, stream: entry.stream };
  // Anthropic Messages: max_tokens is required (API reference, Create a Message); count_tokens takes none.
  if (entry.endpoint.endsWith("/messages/count_tokens")) return { model, messages };
  if (entry.endpoint.endsWith("/messages")) return { model, max_tokens: 1024, messages, stream: entry.stream };
  return undefined;
}

/** The Anthropic wire: its endpoints take an `anthropic-version` header (the SDKs send 2023-06-01). */
function isAnthropicEndpoint(endpoint: string): boolean {
  return /\/messages(\/count_tokens)?$/.test(endpoint);
}

/**
 * A curl command repeating `entry` against the OpenAI listener at `baseUrl` (`http://host:port/v1`).
 * The Authorization header is always `Bearer $PATCHBAY_KEY`; the key itself never appears.
 */
export function curlForEntry(entry: RequestLogEntry, baseUrl: string): string {
  const origin = baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "");
  const path = entry.endpoint.startsWith("/") ? entry.endpoint : `/${entry.endpoint}`;
  const lines = [`curl${entry.stream ? " -N" : ""} -X ${entry.method.toUpperCase()} ${shellQuote(origin + path)}`];
  lines.push(`  -H "Authorization: Bearer $${KEY_ENV}"`);
  if (isAnthropicEndpoint(path)) lines.push(`  -H 'anthropic-version: 2023-06-01'`);
  const body = replayBody(entry);
  if (body !== undefined && entry.method.toUpperCase() !== "GET") {
    lines.push(`  -H 'Content-Type: application/json'`);
    lines.push(`  -d ${shellQuote(redactSecrets(JSON.stringify(body, null, 2)))}`);
  }
  return lines.join(" \\\n");
}
