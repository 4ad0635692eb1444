// How warnings leave Patchbay: one header value for `x-patchbay-warnings` (the log keeps the list itself).

/** The `x-patchbay-warnings` value for `warnings` (each once, in order, `; `-joined), or null for none. Header values
 *  must be Latin-1 without control characters, so anything else becomes `?`; at most 2000 characters. */
export function formatWarningsHeader(warnings: readonly string[]): string | null {
  const unique = [...new Set(warnings)];
  if (unique.length === 0) return null;
  return unique
    .join("; ")
    .replace(/[^\x20-\x7e]/g, "?")
    .slice(0, 2000);
}
