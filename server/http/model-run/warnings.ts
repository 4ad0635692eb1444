// How warnings leave Patchbay: the `x-patchbay-warnings` header value (model runs and count_tokens) and the request
// log's field, both through core's one formatter.
import type { PatchbayWarning } from "../../core/contract";
import { formatWarning } from "../../core/warnings";

/** The `x-patchbay-warnings` value for `warnings` (in order, `; `-joined), or null for none. Header values must be
 *  Latin-1 without control characters, so anything outside printable ASCII becomes `?`; at most 2000 characters.
 *  No deduplication: each layer reports a thing once and no layer repeats another's. */
export function formatWarningsHeader(warnings: readonly PatchbayWarning[]): string | null {
  if (warnings.length === 0) return null;
  return warnings
    .map(formatWarning)
    .join("; ")
    .replace(/[^\x20-\x7e]/g, "?")
    .slice(0, 2000);
}

/** The request log's `warnings` field: the same texts as the header, unabridged (the log store caps them). */
export function logWarnings(warnings: readonly PatchbayWarning[]): string[] {
  return warnings.map(formatWarning);
}
