// Maps one session's OpenCode events to neutral ModelEvents (pure, explicit state): text/reasoning deltas, client tool
// calls (names mapped back, arguments never ""), finish with recombined usage, and errors. No I/O, no clocks: the
// receive time is an argument. Event facts (opencode 1.18.33): DESIGN §3 and tests/fixtures/opencode-events/.
import type { FinishReason, ModelError, ModelEvent, PatchbayWarning, Usage } from "../../core/contract";
import { warn } from "../../core/warnings";
import type { OpenCodeEvent } from "./event-hub";
import type { StructuredMode } from "./plan/types";
import { mapOpenCodeError, mapRetryStatus, type OpenCodeErrorShape } from "./upstream-errors";
import { openAiTokenTotals } from "../../../shared/admin/history";

/** What the mapper needs to know about the request. */
export interface MapperInit {
  sessionID: string;
  /** OpenCode tool name → client tool name (from the plan; a Map because names like `constructor` are valid). */
  toolNames: ReadonlyMap<string, string>;
  structured: StructuredMode;
}

interface Tokens {
  input: number;
  output: number;
  reasoning: number;
  cacheRead: number;
  cacheWrite: number;
}

interface ToolPartState {
  callID: string;
  tool: string;
  status: string;
  input: Record<string, unknown>;
  error: string | null;
}

/** Mutable per-session mapping state; create with {@link createMapperState}. */
export interface MapperState extends MapperInit {
  userMessages: Set<string>;
  /** Part id → part type (deltas only carry the id). */
  partTypes: Map<string, string>;
  /** Characters already emitted per text/reasoning part. */
  emitted: Map<string, number>;
  /** Tool parts by call id, in arrival order. */
  toolParts: Map<string, ToolPartState>;
  emittedCalls: Set<string>;
  /** Tokens per assistant message (latest wins). */
  tokens: Map<string, Tokens>;
  /** Last finish reason OpenCode reported (`stop`, `length`, `tool-calls`, `content-filter`, `unknown`, `error`). */
  finish: string | null;
  structuredOutput: { value: unknown } | null;
  /** True once `finish` or `error` was emitted: later events are ignored. */
  done: boolean;
}

const STRUCTURED_OUTPUT_TOOL = "StructuredOutput";
/** OpenCode's finish values for a step the provider ended properly. */
const PROPER_FINISH = new Set(["stop", "length", "tool-calls", "content-filter"]);
/** The error for an answer the provider did not finish (see {@link unfinishedError}). */
const CUT_OFF_MESSAGE = "The provider ended the answer without finishing it (the stream was cut off or malformed).";

/** Fresh state for one session. */
export function createMapperState(init: MapperInit): MapperState {
  return {
    ...init,
    userMessages: new Set(),
    partTypes: new Map(),
    emitted: new Map(),
    toolParts: new Map(),
    emittedCalls: new Set(),
    tokens: new Map(),
    finish: null,
    structuredOutput: null,
    done: false,
  };
}

/**
 * Maps one event of the session to zero or more ModelEvents, updating `state`. Ends with exactly one `finish`
 * (at `session.idle`) or `error` (session.error, or at once on a retry status: OpenCode would otherwise retry silently
 * for up to a minute). `receivedAt` (epoch ms) turns a retry's `next` time into `retryAfter`.
 */
export function mapOpenCodeEvent(event: OpenCodeEvent, state: MapperState, receivedAt = 0): ModelEvent[] {
  if (state.done) return [];
  const p = event.properties;
  switch (event.type) {
    case "message.updated":
      return onMessage(p.info, state);
    case "message.part.updated":
      return onPart(p.part, state);
    case "message.part.delta":
      return onDelta(p, state);
    case "session.status": {
      const status = isRecord(p.status) ? p.status : {};
      if (status.type === "retry") {
        const next = typeof status.next === "number" ? status.next : undefined;
        return fail(
          state,
          mapRetryStatus(typeof status.message === "string" ? status.message : "upstream error", next, receivedAt),
        );
      }
      if (status.type === "idle") return finishNow(state);
      return [];
    }
    case "session.idle":
      return finishNow(state);
    case "session.error":
      return isRecord(p.error) ? onError(p.error as OpenCodeErrorShape, state) : [];
    default:
      return [];
  }
}

/**
 * Ends the stream now with `finish`: flushes tool calls not yet emitted and native structured output, then the finish
 * reason and the recombined usage — or with an `error` when the provider did not finish the answer (what was
 * already streamed stands; the error follows it). Idempotent (returns [] once done).
 */
export function finishNow(state: MapperState): ModelEvent[] {
  if (state.done) return [];
  const unfinished = unfinishedError(state);
  if (unfinished) return fail(state, unfinished);
  const out: ModelEvent[] = [];
  for (const part of state.toolParts.values()) out.push(...emitToolCall(part, state));
  if (state.structured === "native" && state.structuredOutput) {
    out.push({ type: "text-delta", delta: JSON.stringify(state.structuredOutput.value) });
  }
  state.done = true;
  out.push({ type: "finish", reason: finishReason(state), usage: usageOf(state) });
  return out;
}

/** Usage in OpenAI semantics: OpenCode stores input without cache reads/writes and output without reasoning. */
export function usageOf(state: MapperState): Usage {
  const u: Usage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 };
  for (const t of state.tokens.values()) {
    const totals = openAiTokenTotals(t);
    u.inputTokens += totals.input;
    u.outputTokens += totals.output;
    u.cachedInputTokens += t.cacheRead;
    u.reasoningTokens += t.reasoning;
    if (t.cacheWrite > 0) u.cacheWriteTokens = (u.cacheWriteTokens ?? 0) + t.cacheWrite;
  }
  return u;
}

function fail(state: MapperState, error: NonNullable<ReturnType<typeof mapOpenCodeError>>): ModelEvent[] {
  state.done = true;
  return [{ type: "error", error }];
}

/**
 * The error when the provider did not end the answer properly, else null. OpenCode 1.18.33 reports finish
 * `unknown` both for a stream that ended without a finish_reason (cut off, not SSE, empty: no usage either) and for a
 * finish_reason it does not know (e.g. `end_turn`, which comes with the provider's final usage report). Output tokens
 * tell them apart: OpenAI- and Anthropic-style streams report them only at the very end.
 */
function unfinishedError(state: MapperState): ModelError | null {
  if (state.finish !== null && PROPER_FINISH.has(state.finish)) return null;
  if (state.finish === "error")
    return { code: "upstream_error", status: 502, message: "The provider ended the answer with an error." };
  if (usageOf(state).outputTokens > 0) return null;
  return { code: "upstream_error", status: 502, message: CUT_OFF_MESSAGE };
}

function finishReason(state: MapperState): FinishReason {
  if (state.emittedCalls.size > 0) return "tool_calls";
  if (state.finish === "length") return "length";
  if (state.finish === "content-filter") return "content_filter";
  return "stop";
}

function onMessage(raw: unknown, state: MapperState): ModelEvent[] {
  if (!isRecord(raw) || typeof raw.id !== "string") return [];
  if (raw.role === "user") {
    state.userMessages.add(raw.id);
    return [];
  }
  if (raw.role !== "assistant") return [];
  const tokens = tokensOf(raw.tokens);
  if (tokens && (hasTokens(tokens) || !state.tokens.has(raw.id))) state.tokens.set(raw.id, tokens);
  if (typeof raw.finish === "string" && raw.finish) state.finish = raw.finish;
  if (raw.structured !== undefined && raw.structured !== null) state.structuredOutput = { value: raw.structured };
  // Errors also arrive as session.error; mapping them here too makes the mapper independent of which comes first.
  if (isRecord(raw.error)) return onError(raw.error as OpenCodeErrorShape, state);
  return [];
}

/** Warning sent when a model answered with text although `tool_choice` required a tool call (the mapper's only one). */
export const IGNORED_TOOL_CHOICE_WARNING: PatchbayWarning = warn.ignored(
  "tool_choice",
  "the model ignored tool_choice (a tool call was required) and answered with text; finish_reason is stop",
);

/**
 * An OpenCode error of the session. OpenCode's StructuredOutputError on a request that asked for no structured output
 * means only that the model did not call a tool although `tool_choice` required one (OpenCode forces tool use through
 * its structured-output switch): what the model said is the answer, finished normally and flagged with a warning.
 */
function onError(error: OpenCodeErrorShape, state: MapperState): ModelEvent[] {
  if (error.name === "StructuredOutputError" && state.structured !== "native") {
    const out: ModelEvent[] = [];
    for (const part of state.toolParts.values()) out.push(...emitToolCall(part, state));
    state.done = true;
    out.push({
      type: "finish",
      reason: finishReason(state),
      usage: usageOf(state),
      warnings: [IGNORED_TOOL_CHOICE_WARNING],
    });
    return out;
  }
  const err = mapOpenCodeError(error);
  return err ? fail(state, err) : [];
}

function onPart(raw: unknown, state: MapperState): ModelEvent[] {
  if (!isRecord(raw) || typeof raw.id !== "string" || typeof raw.type !== "string") return [];
  state.partTypes.set(raw.id, raw.type);
  if (typeof raw.messageID === "string" && state.userMessages.has(raw.messageID)) return [];
  switch (raw.type) {
    case "text":
    case "reasoning": {
      if (raw.synthetic === true || raw.ignored === true || typeof raw.text !== "string") return [];
      // Catch up if the full text is ahead of the deltas we saw (never re-emits what was already sent).
      const seen = state.emitted.get(raw.id) ?? 0;
      const out = raw.text.length <= seen ? [] : textEvent(raw.type, raw.text.slice(seen), state);
      if (raw.text.length > seen) state.emitted.set(raw.id, raw.text.length);
      if (raw.type === "reasoning") out.push(...signatureEvent(raw, state));
      return out;
    }
    case "tool":
      return onToolPart(raw, state);
    case "step-finish": {
      const t = tokensOf(raw.tokens);
      const messageID = typeof raw.messageID === "string" ? raw.messageID : null;
      if (t && messageID && !hasTokens(state.tokens.get(messageID))) state.tokens.set(messageID, t);
      if (typeof raw.reason === "string" && raw.reason) state.finish = raw.reason;
      return [];
    }
    default:
      return [];
  }
}

function onDelta(p: Record<string, unknown>, state: MapperState): ModelEvent[] {
  if (p.field !== "text" || typeof p.partID !== "string" || typeof p.delta !== "string" || !p.delta) return [];
  if (typeof p.messageID === "string" && state.userMessages.has(p.messageID)) return [];
  const type = state.partTypes.get(p.partID);
  if (type !== "text" && type !== "reasoning") return [];
  state.emitted.set(p.partID, (state.emitted.get(p.partID) ?? 0) + p.delta.length);
  return textEvent(type, p.delta, state);
}

/** The provider's signature of a finished reasoning part (`metadata.anthropic.signature`, set by @ai-sdk/anthropic),
 *  once per part, as a `reasoning-delta` with delta "" and `signature`. */
function signatureEvent(raw: Record<string, unknown>, state: MapperState): ModelEvent[] {
  const anthropic = isRecord(raw.metadata) && isRecord(raw.metadata.anthropic) ? raw.metadata.anthropic : null;
  const signature = anthropic && typeof anthropic.signature === "string" ? anthropic.signature : "";
  const key = `signed:${String(raw.id)}`;
  if (signature === "" || state.emitted.has(key)) return [];
  state.emitted.set(key, 1);
  return [{ type: "reasoning-delta", delta: "", signature }];
}

function textEvent(type: "text" | "reasoning", delta: string, state: MapperState): ModelEvent[] {
  if (type === "reasoning") return [{ type: "reasoning-delta", delta }];
  // Native structured output: the answer is info.structured (emitted at finish); any preamble text is not part of it.
  if (state.structured === "native") return [];
  return [{ type: "text-delta", delta }];
}

function onToolPart(raw: Record<string, unknown>, state: MapperState): ModelEvent[] {
  const callID = typeof raw.callID === "string" ? raw.callID : null;
  const tool = typeof raw.tool === "string" ? raw.tool : null;
  const st = isRecord(raw.state) ? raw.state : null;
  if (!callID || !tool || !st) return [];
  if (tool === STRUCTURED_OUTPUT_TOOL && state.structured === "native") return [];
  const part: ToolPartState = {
    callID,
    tool,
    status: typeof st.status === "string" ? st.status : "pending",
    input: isRecord(st.input) ? st.input : {},
    error: typeof st.error === "string" ? st.error : null,
  };
  state.toolParts.set(callID, part);
  // Emit once the input is final: client tools end `error` (permission rejected) right after the step.
  if (part.status === "error" || part.status === "completed") return emitToolCall(part, state);
  return [];
}

function emitToolCall(part: ToolPartState, state: MapperState): ModelEvent[] {
  if (state.emittedCalls.has(part.callID)) return [];
  if (part.status === "pending" && Object.keys(part.input).length === 0) return []; // never got its arguments
  state.emittedCalls.add(part.callID);
  return [
    {
      type: "tool-call",
      id: part.callID,
      name: state.toolNames.get(part.tool) ?? part.tool,
      arguments: argumentsOf(part),
    },
  ];
}

/** Arguments as JSON text, never "". Unwraps OpenCode's `invalid`-tool repair (`{value: "<raw>"}`) to the raw text. */
function argumentsOf(part: ToolPartState): string {
  const keys = Object.keys(part.input);
  const repaired =
    part.error !== null &&
    /tool 'invalid'/.test(part.error) &&
    keys.length === 1 &&
    typeof part.input.value === "string";
  if (repaired) return (part.input.value as string) || "{}";
  return keys.length ? JSON.stringify(part.input) : "{}";
}

function tokensOf(raw: unknown): Tokens | null {
  if (!isRecord(raw)) return null;
  const n = (x: unknown) => (typeof x === "number" && Number.isFinite(x) ? x : 0);
  const cache = isRecord(raw.cache) ? raw.cache : {};
  return {
    input: n(raw.input),
    output: n(raw.output),
    reasoning: n(raw.reasoning),
    cacheRead: n(cache.read),
    cacheWrite: n(cache.write),
  };
}

function hasTokens(t: Tokens | undefined): boolean {
  return !!t && t.input + t.output + t.reasoning + t.cacheRead + t.cacheWrite > 0;
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}
