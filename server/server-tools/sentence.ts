// Joins the parts of a server tool's error message into one sentence that ends in exactly one period, whatever the
// parts end in: a backend's message may end in ".", in nothing ("fetch failed"), or in "?)"; joining them naively
// gave "… 15000 ms.." (newcomer's finding).

/** `parts` joined with ": ", trailing periods and spaces removed, then one "." added (kept as is when the text ends
 *  in "?" or "!", which end a sentence already). Empty parts are skipped. */
export function sentence(...parts: string[]): string {
  const text = parts
    .map((p) => p.trim().replace(/[\s.]+$/, ""))
    .filter((p) => p !== "")
    .join(": ");
  return /[?!]$/.test(text) ? text : `${text}.`;
}
