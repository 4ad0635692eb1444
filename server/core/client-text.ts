// Client-supplied text inside our own messages: cut to a bounded length, so an error (and the request-log entry that
// records it) never echoes a client's megabytes back. Pure string helpers; no knowledge of where the text came from.

/** Longest piece of client text quoted in an error message (characters). */
export const MAX_QUOTED_CHARS = 200;

/** `text` cut to at most `max` characters plus `…` when longer (never splitting a surrogate pair). */
export function shortenClientText(text: string, max = MAX_QUOTED_CHARS): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
  return `${text.slice(0, end)}…`;
}

/** `text` in single quotes for an error message, shortened by {@link shortenClientText}: `'gpt-4o'`, `'xxxx…'`. */
export function quoteClientText(text: string, max = MAX_QUOTED_CHARS): string {
  return `'${shortenClientText(text, max)}'`;
}
