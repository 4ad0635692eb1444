// Counting tokens of texts within a bounded budget, given an encoder: the part of the count_tokens estimate that runs
// in the tokenizer worker (token-count-worker.ts). Pure: no tokenizer import, so the main thread never loads one.

/** BPE merges cost grows faster than linearly within one run of text without spaces, so text is encoded in pieces of
 *  at most this many characters (cut at a space where there is one). A cut adds at most a token. */
const MAX_PIECE_CHARS = 64;
/** Characters encoded exactly per request (~0.3 s on a slow machine); the rest is estimated at the ratio measured so
 *  far, so no request can occupy the tokenizer for long (a 24 MB body would otherwise take half a minute). */
export const EXACT_BUDGET_CHARS = 64 * 1024;
/** Wall time spent encoding exactly per request (ms): a run of text without spaces encodes slowly in js-tiktoken, so
 *  the character budget alone does not bound the time. */
const EXACT_BUDGET_MS = 100;
/** Tokens per character before anything was measured (English text is ~4 characters a token). */
export const DEFAULT_TOKENS_PER_CHAR = 0.25;

/** One text to count: its first characters (`text`, at most what the budget can encode) and its whole `length`. */
export interface TextToCount {
  text: string;
  length: number;
}

/** Tokens of `text` under `encode`'s tokenizer (e.g. js-tiktoken's `encode(text, "all").length`). */
export type Encode = (text: string) => number;

/**
 * Total tokens of `texts`: encoded exactly for at most {@link EXACT_BUDGET_CHARS} characters, in pieces of at most
 * {@link MAX_PIECE_CHARS}, for at most {@link EXACT_BUDGET_MS} ms; the rest (and every character beyond a text's
 * `text` prefix) is extrapolated from the measured tokens per character. Never negative.
 */
export function countTexts(texts: readonly TextToCount[], encode: Encode, now: () => number = Date.now): number {
  const deadline = now() + EXACT_BUDGET_MS;
  let exactChars = 0;
  let exactTokens = 0;
  const exhausted = () => exactChars >= EXACT_BUDGET_CHARS || (exactChars > 0 && now() > deadline);
  const extrapolate = (chars: number) =>
    Math.ceil(chars * (exactChars > 0 ? exactTokens / exactChars : DEFAULT_TOKENS_PER_CHAR));
  let total = 0;
  for (const { text, length } of texts) {
    let n = 0;
    let at = 0;
    while (at < text.length && !exhausted()) {
      let end = Math.min(text.length, at + MAX_PIECE_CHARS);
      if (end < text.length) {
        const space = text.lastIndexOf(" ", end);
        if (space > at) end = space; // the space starts the next piece, as BPE joins it to the next word
      }
      const tokens = encode(text.slice(at, end));
      exactChars += end - at;
      exactTokens += tokens;
      n += tokens;
      at = end;
    }
    total += n + extrapolate(Math.max(0, length - at));
  }
  return total;
}

/** `texts` cut to what {@link countTexts} can encode exactly (the rest only counts by length), so a huge body is not
 *  copied to the worker. */
export function withinBudget(texts: readonly string[]): TextToCount[] {
  let left = EXACT_BUDGET_CHARS + MAX_PIECE_CHARS;
  return texts.map((t) => {
    const text = t.length <= left ? t : t.slice(0, left);
    left -= text.length;
    return { text, length: t.length };
  });
}
