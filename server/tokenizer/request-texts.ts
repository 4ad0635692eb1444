// What a request's input tokens are ESTIMATED from, for both count endpoints (Anthropic's `count_tokens`, OpenAI's
// Responses `input_tokens`): js-tiktoken's o200k_base encoding over its texts, plus a fixed cost for framing and media.
// The real count depends on the upstream model's own tokenizer and on how OpenCode frames the request; clients (Claude
// Code, Codex) use it for context-window budgeting, where a close estimate is enough. Pure: the texts are gathered
// here; the routes count them in the tokenizer worker (token-count-pool.ts), so neither loading its tables nor
// counting a large body ever delays another request.
import type { NeutralRequest } from "../core/contract";

/** Tokens added per message and per tool for framing (role markers, separators), as OpenAI's cookbook estimates. */
const PER_MESSAGE = 3;
const PER_TOOL = 8;
/** Rough token cost of an image or PDF part (Anthropic: ~1 600 tokens for a 1 092×1 092 image). */
const PER_MEDIA = 1600;

/** The texts of `request` to tokenize (system texts, message texts, tool calls and results, tool definitions) and
 *  the tokens of its framing and media, which need no tokenizer. */
export function textsOf(request: NeutralRequest): { texts: string[]; fixedTokens: number } {
  const texts: string[] = [];
  let fixedTokens = 0;
  for (const s of request.system) {
    texts.push(s);
    fixedTokens += PER_MESSAGE;
  }
  for (const m of request.messages) {
    fixedTokens += PER_MESSAGE;
    if (m.role === "tool") {
      texts.push(m.content);
      continue;
    }
    for (const p of m.content) {
      if (p.type === "text") texts.push(p.text);
      else fixedTokens += PER_MEDIA;
    }
    if (m.role === "assistant")
      for (const c of m.toolCalls) {
        texts.push(c.name, c.arguments);
        fixedTokens += PER_MESSAGE;
      }
  }
  for (const t of request.tools) {
    texts.push(t.name, t.description ?? "", JSON.stringify(t.parameters));
    fixedTokens += PER_TOOL;
  }
  return { texts, fixedTokens };
}
