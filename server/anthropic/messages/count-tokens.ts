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

let encoding: Tiktoken | null = null;

function tokens(text: string): number {
  encoding ??= getEncoding("o200k_base");
  return encoding.encode(text, "all").length;
}

/** Estimated input tokens of `request`: system texts, messages (text, tool calls, tool results; media at a flat
 *  {@link PER_MEDIA}), and tool definitions (name, description, JSON schema). Never negative; 0 for nothing. */
export function estimateInputTokens(request: NeutralRequest): number {
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
