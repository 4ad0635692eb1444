// `POST /v1/messages/count_tokens`: an ESTIMATE of a request's input tokens with js-tiktoken's o200k_base encoding.
// The real count depends on the upstream model's own tokenizer and on how OpenCode frames the request; clients (Claude
// Code) use it for context-window budgeting, where a close estimate is enough. Pure apart from the encoding tables.
import { getEncoding, type Tiktoken } from "js-tiktoken";
import type { NeutralRequest } from "../../core/contract";

/** Tokens added per message and per tool for framing (role markers, separators), as OpenAI's cookbook estimates. */
const PER_MESSAGE = 3;
const PER_TOOL = 8;
/** Rough token cost of an image or PDF part (Anthropic: ~1 600 tokens for a 1 092×1 092 image). */
const PER_MEDIA = 1600;

/** BPE merges cost grows faster than linearly within one run of text without spaces, so text is encoded in pieces of
 *  at most this many characters (cut at a space where there is one). A cut adds at most a token. */
const MAX_PIECE_CHARS = 64;
/** Characters encoded exactly per request (~0.3 s on a slow machine); the rest is estimated at the ratio measured so
 *  far, so no request can block the server (a 24 MB body would otherwise take half a minute). */
const EXACT_BUDGET_CHARS = 64 * 1024;
/** Wall time spent encoding exactly per request (ms): a run of text without spaces encodes slowly in js-tiktoken, so
 *  the character budget alone does not bound the time. */
const EXACT_BUDGET_MS = 100;
/** Tokens per character before anything was measured (English text is ~4 characters a token). */
const DEFAULT_TOKENS_PER_CHAR = 0.25;

/** The encoding, loaded once on first use (its tables take a moment). */
let encoding: Tiktoken | null = null;

/** Counts tokens of many texts within one exact-encoding budget. */
class TokenCounter {
  private exactChars = 0;
  private exactTokens = 0;
  private readonly deadline = Date.now() + EXACT_BUDGET_MS;

  count(text: string): number {
    let n = 0;
    for (let at = 0; at < text.length;) {
      if (this.exhausted()) return n + this.extrapolate(text.length - at);
      let end = Math.min(text.length, at + MAX_PIECE_CHARS);
      if (end < text.length) {
        const space = text.lastIndexOf(" ", end);
        if (space > at) end = space; // the space starts the next piece, as BPE joins it to the next word
      }
      n += this.piece(text.slice(at, end));
      at = end;
    }
    return n;
  }

  private exhausted(): boolean {
    return this.exactChars >= EXACT_BUDGET_CHARS || (this.exactChars > 0 && Date.now() > this.deadline);
  }

  private extrapolate(chars: number): number {
    const ratio = this.exactChars > 0 ? this.exactTokens / this.exactChars : DEFAULT_TOKENS_PER_CHAR;
    return Math.ceil(chars * ratio);
  }

  private piece(piece: string): number {
    encoding ??= getEncoding("o200k_base");
    const tokens = encoding.encode(piece, "all").length;
    this.exactChars += piece.length;
    this.exactTokens += tokens;
    return tokens;
  }
}

/** Estimated input tokens of `request`: system texts, messages (text, tool calls, tool results; media at a flat
 *  {@link PER_MEDIA}), and tool definitions (name, description, JSON schema). Never negative; 0 for nothing. Bounded
 *  time: at most {@link EXACT_BUDGET_CHARS} characters are encoded exactly, in pieces of at most
 *  {@link MAX_PIECE_CHARS}, for at most {@link EXACT_BUDGET_MS} ms (loading the encoding tables, once, comes on
 *  top); the rest is extrapolated from the measured tokens per character. */
export function estimateInputTokens(request: NeutralRequest): number {
  const counter = new TokenCounter();
  const tokens = (text: string) => counter.count(text);
  let n = 0;
  for (const s of request.system) n += tokens(s) + PER_MESSAGE;
  for (const m of request.messages) {
    n += PER_MESSAGE;
    if (m.role === "tool") {
      n += tokens(m.content);
      continue;
    }
    for (const p of m.content) n += p.type === "text" ? tokens(p.text) : PER_MEDIA;
    if (m.role === "assistant") for (const c of m.toolCalls) n += tokens(c.name) + tokens(c.arguments) + PER_MESSAGE;
  }
  for (const t of request.tools) {
    n += PER_TOOL + tokens(t.name) + tokens(t.description ?? "") + tokens(JSON.stringify(t.parameters));
  }
  return n;
}
