// Types of what Patchbay sends on the Chat Completions wire (OpenAI API reference, "The chat completion object" and
// "The chat completion chunk object"). Types only.
import type { FinishReason } from "../../core/contract";

/** OpenAI chat usage; `prompt_tokens` includes cached tokens, `completion_tokens` includes reasoning tokens. */
export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
  completion_tokens_details: { reasoning_tokens: number };
}

/** A tool call in a `chat.completion` message. */
export interface ChatToolCallOut {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** The assistant message of a `chat.completion`. `content` is null when the turn is only tool calls.
 *  `reasoning_content` (present only when the model reasoned) is the de-facto extension used by DeepSeek and
 *  read by @ai-sdk/openai-compatible; OpenAI itself never sends reasoning text on this API. */
export interface ChatCompletionMessage {
  role: "assistant";
  content: string | null;
  refusal: null;
  tool_calls?: ChatToolCallOut[];
  reasoning_content?: string;
}

/** `chat.completion` (non-stream response). */
export interface ChatCompletion {
  id: string;
  object: "chat.completion";
  /** Unix seconds. */
  created: number;
  model: string;
  choices: [{ index: 0; message: ChatCompletionMessage; logprobs: null; finish_reason: FinishReason }];
  usage: ChatUsage;
}

/** One tool-call delta: the first for an index carries `id`, `type` and the complete `name`. */
export interface ChatToolCallDelta {
  index: number;
  id?: string;
  type?: "function";
  function: { name?: string; arguments: string };
}

/** The `delta` of a chunk. */
export interface ChatDelta {
  role?: "assistant";
  content?: string;
  reasoning_content?: string;
  tool_calls?: ChatToolCallDelta[];
}

/** `chat.completion.chunk`; the usage chunk has `choices: []` and `usage`. */
export interface ChatCompletionChunk {
  id: string;
  object: "chat.completion.chunk";
  created: number;
  model: string;
  choices: { index: 0; delta: ChatDelta; logprobs: null; finish_reason: FinishReason | null }[];
  usage?: ChatUsage;
}
