// The Anthropic Messages encoder: ONE state machine fed with neutral ModelEvents that yields the SSE events
// (Anthropic API reference, "Streaming Messages") and, from the same state, the non-stream Message object, so the two
// never disagree. Pure: ids are injected; no clocks, no I/O.
import { assertRunFinished, endRun } from "../../core/run-end";
import type { FinishReason, ModelError, ModelEvent, Usage, WebSearchHit } from "../../core/contract";
import type { PatchbayError } from "../../core/errors";
import { modelErrorToPatchbayError, STREAM_ENDED_EARLY } from "../../core/model-error";
import type { SseFrame } from "../../core/sse-frame";
import { toAnthropicErrorBody } from "./error-envelope";
import {
  anthropicServerToolUsage,
  serverToolResultBlock,
  serverToolUseBlock,
  webSearchCitations,
  type AnthropicServerToolResultBlock,
  type AnthropicServerToolUseBlock,
  type WebSearchResultLocation,
} from "../../server-tools/anthropic-blocks";

/** Anthropic usage. `input_tokens` EXCLUDES cache reads (neutral usage includes them). */
export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  /** Server tool calls Patchbay ran; only when the request offered server tools. */
  server_tool_use?: { web_search_requests: number; web_fetch_requests: number };
}

/** A content block of the answer. `signature` is "" when the upstream gave none. */
export type AnthropicContentBlock =
  | { type: "text"; text: string; citations?: WebSearchResultLocation[] }
  | { type: "thinking"; thinking: string; signature: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> }
  | AnthropicServerToolUseBlock
  | AnthropicServerToolResultBlock;

/** Why the model stopped. */
export type AnthropicStopReason = "end_turn" | "max_tokens" | "stop_sequence" | "tool_use" | "refusal";

/** The Message object (`POST /v1/messages` without `stream`). */
export interface AnthropicMessage {
  id: string;
  type: "message";
  role: "assistant";
  model: string;
  content: AnthropicContentBlock[];
  stop_reason: AnthropicStopReason | null;
  stop_sequence: string | null;
  usage: AnthropicUsage;
}

/** Options: made by the caller (no ids in here). */
export interface MessagesEncoderOptions {
  /** `msg_…`. */
  id: string;
  /** The model id echoed to the client (what it asked for). */
  model: string;
}

/** The SSE keepalive Anthropic sends while the model is silent (`event: ping`). */
export const PING_FRAME_TEXT = 'event: ping\ndata: {"type": "ping"}\n\n';

/** Anthropic usage from neutral usage: cache reads are moved out of `input_tokens`; cache writes are not reported by
 *  the backend (0). */
export function toAnthropicUsage(usage: Usage): AnthropicUsage {
  return {
    input_tokens: Math.max(0, usage.inputTokens - usage.cachedInputTokens),
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: usage.cachedInputTokens,
    ...anthropicServerToolUsage(usage),
  };
}

/** The stop reason: `tool_use` whenever tool calls were sent; length → max_tokens; content_filter → refusal. The
 *  backend does not say which stop sequence matched, so a stop sequence reads as `end_turn` (stop_sequence null). */
export function anthropicStopReason(reason: FinishReason, toolCalls: number): AnthropicStopReason {
  if (toolCalls > 0) return "tool_use";
  if (reason === "length") return "max_tokens";
  if (reason === "content_filter") return "refusal";
  return "end_turn";
}

/** Tool-call arguments as the `input` object: JSON text that is an object is parsed; anything else (invalid JSON, a
 *  non-object) becomes `{}` (Anthropic requires an object; the stream and the JSON body carry the same value). */
export function toolInputOf(args: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(args);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

interface EncoderState {
  phase: "open" | "finished" | "failed";
  ended: boolean;
  started: boolean;
  blocks: AnthropicContentBlock[];
  /** Index of the open text/thinking block, or null. */
  open: number | null;
  toolCalls: number;
  stopReason: AnthropicStopReason | null;
  usage: Usage | null;
  failure: ModelError | null;
  /** Results of the searches so far: text that names one of their URLs cites it. */
  hits: WebSearchHit[];
}

/**
 * Encodes one Message. Usage:
 * ```ts
 * const enc = new MessagesEncoder({ id: "msg_…", model });
 * for await (const event of backend.stream(req, signal)) write(enc.push(event));
 * write(enc.end());          // nothing after a finish; an in-band error if the stream was cut
 * const json = enc.body();    // the same answer as one object (throws if the run failed)
 * ```
 * Stream rules: `message_start` (empty content, zero usage) comes before the first block; text and reasoning deltas
 * open a `text` / `thinking` block when the open block is of another kind (closing it first); each tool call is a
 * whole `tool_use` block (start with `input: {}`, one `input_json_delta` with the complete JSON, stop); a reasoning
 * signature is a `signature_delta` that closes its thinking block (thinking without one keeps `signature: ""`); `finish`
 * closes the open block and sends `message_delta` (stop_reason, full usage) and `message_stop`. An `error` event is one
 * `event: error` frame `{type:"error", error:{type,message}}`. Events after `finish`/`error` are ignored.
 */
export class MessagesEncoder {
  private readonly s: EncoderState = {
    phase: "open",
    ended: false,
    started: false,
    blocks: [],
    open: null,
    toolCalls: 0,
    stopReason: null,
    usage: null,
    failure: null,
    hits: [],
  };

  constructor(private readonly options: MessagesEncoderOptions) {}

  /** Feeds one event; returns the frames to write now (possibly none). */
  push(event: ModelEvent): SseFrame[] {
    const s = this.s;
    if (s.phase !== "open") return [];
    switch (event.type) {
      case "start":
        return [];
      case "text-delta":
        return event.delta === "" ? [] : this.delta("text", event.delta);
      case "reasoning-delta": {
        const frames = event.delta === "" ? [] : this.delta("thinking", event.delta);
        if (event.signature) frames.push(...this.sign(event.signature));
        return frames;
      }
      case "tool-call": {
        const frames = [...this.messageStart(), ...this.closeOpen()];
        const index = s.blocks.length;
        const id = event.id === "" ? `toolu_${this.options.id.replace(/^msg_/, "")}_${index}` : event.id;
        const input = toolInputOf(event.arguments);
        s.blocks.push({ type: "tool_use", id, name: event.name, input });
        s.toolCalls++;
        frames.push(
          this.frame("content_block_start", {
            index,
            content_block: { type: "tool_use", id, name: event.name, input: {} },
          }),
          this.frame("content_block_delta", {
            index,
            delta: { type: "input_json_delta", partial_json: JSON.stringify(input) },
          }),
          this.frame("content_block_stop", { index }),
        );
        return frames;
      }
      case "server-tool-call": {
        const frames = [...this.messageStart(), ...this.closeOpen()];
        const index = s.blocks.length;
        const block = serverToolUseBlock(event.id, event.name, event.input);
        s.blocks.push(block);
        frames.push(
          this.frame("content_block_start", { index, content_block: { ...block, input: {} } }),
          this.frame("content_block_delta", {
            index,
            delta: { type: "input_json_delta", partial_json: JSON.stringify(event.input) },
          }),
          this.frame("content_block_stop", { index }),
        );
        return frames;
      }
      case "server-tool-result": {
        // Anthropic sends a result block whole in its content_block_start (no deltas).
        const frames = [...this.messageStart(), ...this.closeOpen()];
        const index = s.blocks.length;
        const block = serverToolResultBlock(event.id, event.outcome);
        s.blocks.push(block);
        if (!("error" in event.outcome) && event.outcome.kind === "web_search") s.hits.push(...event.outcome.hits);
        frames.push(
          this.frame("content_block_start", { index, content_block: block }),
          this.frame("content_block_stop", { index }),
        );
        return frames;
      }
      case "finish": {
        const frames = [...this.messageStart(), ...this.closeOpen()];
        s.phase = "finished";
        s.stopReason = anthropicStopReason(event.reason, s.toolCalls);
        s.usage = event.usage;
        frames.push(
          this.frame("message_delta", {
            delta: { stop_reason: s.stopReason, stop_sequence: null },
            usage: toAnthropicUsage(event.usage),
          }),
          this.frame("message_stop", {}),
        );
        return frames;
      }
      case "error":
        return [this.fail(event.error)];
    }
  }

  /** Closes the stream: nothing after a finish or an error; if neither came (the backend stream was cut) this is a
   *  failure and returns the in-band error frame. Idempotent. */
  end(): SseFrame[] {
    return endRun(this.s, (error) => [this.fail(error)]);
  }

  /** The non-stream Message, built from the same state as the events.
   *  @throws PatchbayError when the run failed or did not finish. */
  body(): AnthropicMessage {
    const s = this.s;
    assertRunFinished(s);
    if (!s.usage) throw modelErrorToPatchbayError(STREAM_ENDED_EARLY);
    return {
      ...this.envelope(),
      content: structuredClone(s.blocks),
      stop_reason: s.stopReason,
      stop_sequence: null,
      usage: toAnthropicUsage(s.usage),
    };
  }

  /** The run's failure (an `error` event, or `end()` before `finish`), else null. */
  get failure(): PatchbayError | null {
    return this.s.failure ? modelErrorToPatchbayError(this.s.failure) : null;
  }

  private envelope() {
    return { id: this.options.id, type: "message" as const, role: "assistant" as const, model: this.options.model };
  }

  private messageStart(): SseFrame[] {
    if (this.s.started) return [];
    this.s.started = true;
    const message: AnthropicMessage = {
      ...this.envelope(),
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    };
    return [this.frame("message_start", { message })];
  }

  /** Closes the open block. A text block that names search results gets their citations first: one
   *  `citations_delta` each (the stream's way to add them; the SDK's MessageStream appends them to the block). */
  private closeOpen(): SseFrame[] {
    const s = this.s;
    if (s.open === null) return [];
    const index = s.open;
    s.open = null;
    const frames: SseFrame[] = [];
    const block = s.blocks[index];
    if (block?.type === "text" && s.hits.length > 0) {
      const citations = webSearchCitations(block.text, s.hits);
      if (citations.length > 0) block.citations = citations;
      for (const citation of citations)
        frames.push(this.frame("content_block_delta", { index, delta: { type: "citations_delta", citation } }));
    }
    frames.push(this.frame("content_block_stop", { index }));
    return frames;
  }

  private delta(kind: "text" | "thinking", text: string): SseFrame[] {
    const s = this.s;
    const current = s.open === null ? undefined : s.blocks[s.open];
    const frames = current?.type === kind ? this.messageStart() : this.openBlock(kind);
    const index = s.open ?? 0;
    const block = s.blocks[index];
    if (block?.type === "text") block.text += text;
    else if (block?.type === "thinking") block.thinking += text;
    frames.push(
      this.frame("content_block_delta", {
        index,
        delta: kind === "text" ? { type: "text_delta", text } : { type: "thinking_delta", thinking: text },
      }),
    );
    return frames;
  }

  /** Sets the open thinking block's signature (opening an empty one if none is open) and closes it: the signature
   *  ends a thinking block (Anthropic sends `signature_delta` right before `content_block_stop`). */
  private sign(signature: string): SseFrame[] {
    const s = this.s;
    const open = s.open === null ? undefined : s.blocks[s.open];
    const frames = open?.type === "thinking" ? [] : this.openBlock("thinking");
    const index = s.open;
    const block = index === null ? undefined : s.blocks[index];
    if (index === null || block?.type !== "thinking") return frames;
    block.signature = signature;
    frames.push(this.frame("content_block_delta", { index, delta: { type: "signature_delta", signature } }));
    frames.push(...this.closeOpen());
    return frames;
  }

  /** Closes the open block and opens an empty text or thinking block (after message_start). */
  private openBlock(kind: "text" | "thinking"): SseFrame[] {
    const s = this.s;
    const frames = [...this.messageStart(), ...this.closeOpen()];
    const index = s.blocks.length;
    const block: AnthropicContentBlock =
      kind === "text" ? { type: "text", text: "" } : { type: "thinking", thinking: "", signature: "" };
    s.blocks.push(block);
    s.open = index;
    frames.push(this.frame("content_block_start", { index, content_block: structuredClone(block) }));
    return frames;
  }

  private fail(error: ModelError): SseFrame {
    this.s.phase = "failed";
    this.s.failure = error;
    const body = toAnthropicErrorBody(modelErrorToPatchbayError(error));
    return { event: "error", data: JSON.stringify(body) };
  }

  private frame(type: string, payload: Record<string, unknown>): SseFrame {
    return { event: type, data: JSON.stringify({ type, ...payload }) };
  }
}
