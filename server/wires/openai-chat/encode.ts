// The Chat Completions encoder: ONE state machine fed with neutral ModelEvents that yields the SSE chunks and,
// from the same state, the non-stream `chat.completion`, so the two never disagree. Pure: ids and times are injected.
import { assertRunFinished, endRun } from "../../core/run-end";
import type { FinishReason, ModelError, ModelEvent, ToolCall, Usage } from "../../core/contract";
import type { PatchbayError } from "../../core/errors";
import { toOpenAiErrorBody } from "../openai/error-envelope";
import { STREAM_ENDED_EARLY, modelErrorToPatchbayError } from "../../core/model-error";
import type { SseFrame } from "../../core/sse-frame";
import { normaliseArguments } from "../../core/tool-helpers";
import type { ChatCompletion, ChatCompletionChunk, ChatDelta, ChatUsage } from "./wire-types";

/** What every chunk and the completion share; made by the caller (no ids or clocks in here). */
export interface ChatEncoderOptions {
  /** `chatcmpl-...`, the same on every chunk and on the completion. */
  id: string;
  /** Unix seconds. */
  created: number;
  /** The model id echoed to the client. */
  model: string;
  /** `stream_options.include_usage`: adds the usage chunk (`choices: []`) last before `[DONE]`. */
  includeUsage: boolean;
}

/** The encoder's explicit state. `open` until a `finish` or `error` event; `end()` marks it `ended`. */
export interface ChatEncoderState {
  phase: "open" | "finished" | "failed";
  ended: boolean;
  /** True once a chunk carrying `delta.role` was produced (i.e. output started). */
  roleSent: boolean;
  /** Concatenation of every `delta.content` sent. */
  content: string;
  /** Concatenation of every `delta.reasoning_content` sent. */
  reasoning: string;
  /** Tool calls in the order sent; the position is the chunk `index`. */
  toolCalls: ToolCall[];
  finishReason: FinishReason | null;
  usage: Usage | null;
  failure: ModelError | null;
}

/** OpenAI chat usage from neutral usage (both count cached input and reasoning output inside the totals). */
export function toChatUsage(usage: Usage): ChatUsage {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedInputTokens },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens },
  };
}

/** The chat finish reason: `tool_calls` whenever calls were sent (and never otherwise), else the backend's. */
export function chatFinishReason(reason: FinishReason, toolCallCount: number): FinishReason {
  if (toolCallCount > 0) return "tool_calls";
  return reason === "tool_calls" ? "stop" : reason;
}

/**
 * Encodes one chat completion. Usage:
 * ```ts
 * const enc = new ChatEncoder({ id, created, model, includeUsage });
 * for await (const event of backend.stream(req, signal)) write(enc.push(event));
 * write(enc.end());                    // stream: `[DONE]` after a finish; nothing after an error
 * const json = enc.body();       // non-stream: the same answer as one object (throws if the run failed)
 * ```
 * Stream rules: the first chunk carries `delta.role: "assistant"`; text goes in `delta.content`, reasoning in
 * `delta.reasoning_content`; each tool call is one chunk with `index`, `id`, `type: "function"`, the complete name and
 * complete arguments ("{}" for none), and no `content`; exactly one chunk has a non-null `finish_reason`; with
 * `includeUsage` a usage chunk (`choices: []`) follows it, else no chunk has empty choices. An `error` event yields one
 * in-band frame `{"error":{message,type,param,code}}` and no finish chunk; the caller decides whether it can still send
 * an HTTP error instead (nothing written yet) and then discards the frame. Events after `finish`/`error` are ignored.
 */
export class ChatEncoder {
  private readonly state: ChatEncoderState = {
    phase: "open",
    ended: false,
    roleSent: false,
    content: "",
    reasoning: "",
    toolCalls: [],
    finishReason: null,
    usage: null,
    failure: null,
  };

  constructor(private readonly options: ChatEncoderOptions) {}

  /** Feeds one event; returns the frames to write now (possibly none). */
  push(event: ModelEvent): SseFrame[] {
    const s = this.state;
    if (s.phase !== "open") return [];
    switch (event.type) {
      case "start":
        return [];
      case "text-delta":
        if (event.delta === "") return [];
        s.content += event.delta;
        return [this.chunk({ content: event.delta })];
      case "reasoning-delta":
        if (event.delta === "") return [];
        s.reasoning += event.delta;
        return [this.chunk({ reasoning_content: event.delta })];
      case "server-tool-call":
      case "server-tool-result":
        return []; // chat completions offers no server tools (the loop never runs for it)
      case "tool-call": {
        const index = s.toolCalls.length;
        const call: ToolCall = {
          id: event.id === "" ? `call_${this.options.id}_${index}` : event.id,
          name: event.name,
          arguments: normaliseArguments(event.arguments),
        };
        s.toolCalls.push(call);
        return [
          this.chunk({
            tool_calls: [
              { index, id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } },
            ],
          }),
        ];
      }
      case "finish": {
        const frames: SseFrame[] = [];
        // An answer with no output still gets its role chunk, so the first chunk always carries the role.
        if (!s.roleSent) frames.push(this.chunk({ content: "" }));
        s.phase = "finished";
        s.finishReason = chatFinishReason(event.reason, s.toolCalls.length);
        s.usage = event.usage;
        frames.push(this.chunk({}, s.finishReason));
        if (this.options.includeUsage)
          frames.push(
            this.frame({ ...this.envelope("chat.completion.chunk"), choices: [], usage: toChatUsage(event.usage) }),
          );
        return frames;
      }
      case "error":
        return [this.fail(event.error)];
    }
  }

  /** Closes the stream: `[DONE]` after a finish, nothing after an error. If neither came (the backend stream was cut),
   *  this is a failure: returns the in-band error frame. Idempotent. */
  end(): SseFrame[] {
    return endRun(this.state, (error) => [this.fail(error)], [{ data: "[DONE]" }]);
  }

  /** The non-stream `chat.completion`, built from the same state as the chunks.
   *  @throws PatchbayError when the run failed or did not finish (the caller answers with an HTTP error). */
  body(): ChatCompletion {
    const s = this.state;
    assertRunFinished(s);
    if (!s.finishReason || !s.usage) throw modelErrorToPatchbayError(STREAM_ENDED_EARLY);
    const hasCalls = s.toolCalls.length > 0;
    return {
      ...this.envelope("chat.completion"),
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: hasCalls && s.content === "" ? null : s.content,
            refusal: null,
            ...(hasCalls
              ? {
                  tool_calls: s.toolCalls.map((c) => ({
                    id: c.id,
                    type: "function" as const,
                    function: { name: c.name, arguments: c.arguments },
                  })),
                }
              : {}),
            ...(s.reasoning === "" ? {} : { reasoning_content: s.reasoning }),
          },
          logprobs: null,
          finish_reason: s.finishReason,
        },
      ],
      usage: toChatUsage(s.usage),
    };
  }

  /** True once model output was sent (a chunk with the role); an error after that must stay in-band. */
  get outputStarted(): boolean {
    return this.state.roleSent;
  }

  /** The run's failure as a PatchbayError (for an HTTP error or the log), or null. */
  get failure(): PatchbayError | null {
    return this.state.failure ? modelErrorToPatchbayError(this.state.failure) : null;
  }

  /** A read-only copy of the state (for logs and tests). */
  snapshot(): Readonly<ChatEncoderState> {
    return structuredClone(this.state);
  }

  private fail(error: ModelError): SseFrame {
    this.state.phase = "failed";
    this.state.failure = error;
    return this.frame(toOpenAiErrorBody(modelErrorToPatchbayError(error)));
  }

  /** The fields every chunk and the completion share. */
  private envelope<O extends "chat.completion" | "chat.completion.chunk">(object: O) {
    const { id, created, model } = this.options;
    return { id, object, created, model };
  }

  /** A one-choice chunk; the first one also carries the role. */
  private chunk(delta: ChatDelta, finishReason: FinishReason | null = null): SseFrame {
    const withRole: ChatDelta = this.state.roleSent ? delta : { role: "assistant", ...delta };
    this.state.roleSent = true;
    const chunk: ChatCompletionChunk = {
      ...this.envelope("chat.completion.chunk"),
      choices: [{ index: 0, delta: withRole, logprobs: null, finish_reason: finishReason }],
    };
    return this.frame(chunk);
  }

  private frame(body: unknown): SseFrame {
    return { data: JSON.stringify(body) };
  }
}
