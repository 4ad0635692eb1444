// How warnings leave Patchbay: the `x-patchbay-warnings` header value (model runs and count_tokens) and the request
// log's field, both through core's one formatter.
import type { PatchbayWarning } from "../../core/contract";
import { formatWarning } from "../../core/warnings";

/** Our own messages' typography in ASCII, so a header still reads as the log does. */
const ASCII_SPELLING: Record<string, string> = {
  "\u2026": "...",
  "\u2013": "-",
  "\u2014": "-",
  "\u2018": "'",
  "\u2019": "'",
  "\u201c": '"',
  "\u201d": '"',
  "\u2192": "->",
  "\u00d7": "x",
};

/** The `x-patchbay-warnings` value for `warnings` (in order, `; `-joined), or null for none. Header values must be
 *  Latin-1 without control characters, so our typography is spelled in ASCII (`…` → `...`) and anything else outside
 *  printable ASCII (a client's own text) becomes `?`; at most 2000 characters. No deduplication: each layer reports
 *  a thing once and no layer repeats another's. */
export function formatWarningsHeader(warnings: readonly PatchbayWarning[]): string | null {
  if (warnings.length === 0) return null;
  return warnings
    .map(formatWarning)
    .join("; ")
    .replace(/[^\x20-\x7e]/g, (c) => ASCII_SPELLING[c] ?? "?")
    .slice(0, 2000);
}

/** The request log's `warnings` field: the same texts as the header, unabridged (the log store caps them). */
export function logWarnings(warnings: readonly PatchbayWarning[]): string[] {
  return warnings.map(formatWarning);
}
