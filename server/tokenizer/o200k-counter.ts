// o200k_base token COUNTS from js-tiktoken's own o200k_base tables (`js-tiktoken/ranks/o200k_base`: the split pattern,
// the special tokens and the byte-pair ranks), with a small table built for counting alone. js-tiktoken's
// `getEncoding()` loads all six of its encodings' sources and builds two maps of 200,000 entries (ranks keyed by
// "104,101,108" strings and a Uint8Array per token for decoding): in the tokenizer worker that was ≈ 180 MB of RSS
// while it ran. Here one map, keyed by each token's bytes as a latin1 string: ≈ 50 MB (worker included). The counts
// are the same as `getEncoding("o200k_base").encode(text, "all").length` (tests/unit/tokenizer/o200k-counter.test.ts
// compares them): the same pattern splits the text, special tokens count one each, and each piece is merged with
// js-tiktoken's own byte-pair algorithm (lowest rank first, leftmost on ties).
import o200k from "js-tiktoken/ranks/o200k_base";

/** Counts the o200k_base tokens of a text (special tokens such as `<|endoftext|>` allowed, one token each). */
export type TokenCountFn = (text: string) => number;

/** Builds the rank table (≈ 0.3–1 s of CPU) and returns the counter. Call it off the event loop (the worker). */
export function createO200kCounter(): TokenCountFn {
  const ranks = new Map<string, number>();
  for (const line of o200k.bpe_ranks.split("\n")) {
    if (!line) continue;
    // "<marker> <first rank> <base64 token> <base64 token> …", ranks consecutive from the first.
    const fields = line.split(" ");
    const first = Number.parseInt(fields[1]!, 10);
    for (let i = 2; i < fields.length; i++)
      ranks.set(Buffer.from(fields[i]!, "base64").toString("latin1"), first + i - 2);
  }
  const pattern = new RegExp(o200k.pat_str, "gu");
  const specials = new RegExp(Object.keys(o200k.special_tokens).map(escapeRegExp).join("|"), "g");

  const countPiece = (piece: string): number => {
    if (ranks.has(piece)) return 1;
    // js-tiktoken's bytePairMerge over byte offsets: merge the adjacent pair of lowest rank until none has a rank.
    const bounds = Array.from({ length: piece.length + 1 }, (_, i) => i);
    for (;;) {
      let best = Infinity;
      let at = -1;
      for (let i = 0; i + 2 < bounds.length; i++) {
        const rank = ranks.get(piece.slice(bounds[i], bounds[i + 2]));
        if (rank !== undefined && rank < best) {
          best = rank;
          at = i;
        }
      }
      if (at < 0) break;
      bounds.splice(at + 1, 1);
    }
    let n = 0;
    for (let i = 0; i + 1 < bounds.length; i++) if (ranks.has(piece.slice(bounds[i], bounds[i + 1]))) n++;
    return n;
  };
  const countOrdinary = (text: string): number => {
    let n = 0;
    for (const m of text.matchAll(pattern)) n += countPiece(asBytes(m[0]));
    return n;
  };
  return (text) => {
    let n = 0;
    let at = 0;
    for (const m of text.matchAll(specials)) {
      n += countOrdinary(text.slice(at, m.index)) + 1;
      at = m.index + m[0].length;
    }
    return n + countOrdinary(text.slice(at));
  };
}

/** `s`'s UTF-8 bytes as a latin1 string (one character per byte): the rank table's keys. ASCII is its own encoding. */
function asBytes(s: string): string {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return Buffer.from(s, "utf8").toString("latin1");
  return s;
}

function escapeRegExp(s: string): string {
  return s.replace(/[\\^$*+?.()|[\]{}]/g, "\\$&");
}
