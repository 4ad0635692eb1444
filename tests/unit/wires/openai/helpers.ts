// Test helpers for the OpenAI codecs: run event sequences through the encoders, re-parse the SSE text with a real SSE
// parser, check the wire invariants every client relies on, and compare with golden files. Test-only.
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { matchGoldenFile } from "../../../harness/golden";
import { createParser } from "eventsource-parser";
import type { ModelEvent, Usage } from "../../../../server/core/contract";
import type { PatchbayError } from "../../../../server/core/errors";
import { ChatEncoder, type ChatEncoderOptions } from "../../../../server/wires/openai-chat/encode";
import type { ChatCompletion } from "../../../../server/wires/openai-chat/wire-types";
import { ResponsesEncoder, type ResponsesEncoderOptions } from "../../../../server/wires/openai-responses/encode";
import type { ResponseEcho, ResponseObject } from "../../../../server/wires/openai-responses/wire-types";
import { formatSseFrame, type SseFrame } from "../../../../server/core/sse-frame";
import {
  ChatChunkSchema,
  ChatCompletionSchema,
  OpenAiErrorBodySchema,
  ResponseObjectSchema,
  ResponseStreamEventSchema,
  type ResponseStreamEventWire,
} from "./wire-schemas";

export const USAGE: Usage = { inputTokens: 21, outputTokens: 9, cachedInputTokens: 5, reasoningTokens: 3 };

export const DEFAULT_ECHO: ResponseEcho = {
  instructions: null,
  max_output_tokens: null,
  metadata: {},
  parallel_tool_calls: true,
  prompt_cache_key: null,
  reasoning: { effort: null, summary: null },
  temperature: null,
  text: { format: { type: "text" } },
  tool_choice: "auto",
  tools: [],
  top_p: null,
  user: null,
};

/** Serialises frames and parses them back with eventsource-parser (what real clients do). */
export function reparse(frames: readonly SseFrame[]): SseFrame[] {
  const out: SseFrame[] = [];
  const parser = createParser({
    onEvent: (e) => out.push(e.event === undefined ? { data: e.data } : { event: e.event, data: e.data }),
  });
  parser.feed(frames.map(formatSseFrame).join(""));
  return out;
}

/** Result of a run: the frames (push + end), and the JSON body or what it threw. */
export interface Run<T> {
  frames: SseFrame[];
  body: T | null;
  thrown: PatchbayError | null;
}

function collect<T>(
  push: (e: ModelEvent) => SseFrame[],
  end: () => SseFrame[],
  body: () => T,
  events: readonly ModelEvent[],
): Run<T> {
  const frames: SseFrame[] = [];
  for (const e of events) frames.push(...push(e));
  frames.push(...end());
  try {
    return { frames, body: body(), thrown: null };
  } catch (err) {
    return { frames, body: null, thrown: err as PatchbayError };
  }
}

export const CHAT_OPTIONS: ChatEncoderOptions = {
  id: "chatcmpl-test1",
  created: 1_700_000_000,
  model: "demo/echo",
  includeUsage: false,
};

export function runChat(events: readonly ModelEvent[], options: Partial<ChatEncoderOptions> = {}): Run<ChatCompletion> {
  const enc = new ChatEncoder({ ...CHAT_OPTIONS, ...options });
  return collect(
    (e) => enc.push(e),
    () => enc.end(),
    () => enc.body(),
    events,
  );
}

export const RESPONSES_OPTIONS: ResponsesEncoderOptions = {
  id: "resp_test1",
  createdAt: 1_700_000_000,
  model: "demo/echo",
  echo: DEFAULT_ECHO,
};

export function runResponses(
  events: readonly ModelEvent[],
  options: Partial<ResponsesEncoderOptions> = {},
): Run<ResponseObject> {
  const enc = new ResponsesEncoder({ ...RESPONSES_OPTIONS, ...options });
  return collect(
    (e) => enc.push(e),
    () => enc.end(),
    () => enc.body(),
    events,
  );
}

/** What a client reassembles from a chat stream. */
export interface ChatStreamSummary {
  content: string;
  reasoning: string;
  sawContent: boolean;
  toolCalls: { id: string; name: string; arguments: string }[];
  finishReason: string | null;
  usage: unknown;
  error: unknown;
  done: boolean;
}

/** Checks every chat stream rule (schema per chunk, role first, one id, one finish, usage placement, tool deltas,
 *  [DONE] last / absent after an error) and returns what a client would reassemble. */
export function checkChatStream(frames: readonly SseFrame[], includeUsage: boolean): ChatStreamSummary {
  const parsed = reparse(frames);
  assert.deepEqual(parsed, frames, "SSE text must parse back to the same frames");
  const summary: ChatStreamSummary = {
    content: "",
    reasoning: "",
    sawContent: false,
    toolCalls: [],
    finishReason: null,
    usage: null,
    error: null,
    done: false,
  };
  let finishCount = 0;
  let usageAt = -1;
  let finishAt = -1;
  const ids = new Set<string>();
  frames.forEach((frame, i) => {
    assert.equal(frame.event, undefined, "chat frames have no event name");
    assert.equal(summary.done, false, "nothing may follow [DONE]");
    assert.equal(summary.error, null, "nothing may follow an error frame");
    if (frame.data === "[DONE]") {
      summary.done = true;
      return;
    }
    const json: unknown = JSON.parse(frame.data);
    if (typeof json === "object" && json !== null && "error" in json) {
      summary.error = OpenAiErrorBodySchema.parse(json).error;
      return;
    }
    const chunk = ChatChunkSchema.parse(json);
    ids.add(chunk.id);
    if (i === 0) assert.equal(chunk.choices[0]?.delta.role, "assistant", "first chunk carries the role");
    else assert.equal(chunk.choices[0]?.delta.role, undefined, "only the first chunk carries the role");
    if (chunk.choices.length === 0) {
      assert.ok(includeUsage, "no empty-choices chunk without include_usage");
      assert.ok(chunk.usage, "the empty-choices chunk is the usage chunk");
      assert.equal(usageAt, -1, "one usage chunk");
      usageAt = i;
      summary.usage = chunk.usage;
      return;
    }
    assert.equal(chunk.usage, undefined, "usage only on the usage chunk");
    assert.equal(chunk.choices.length, 1);
    const choice = chunk.choices[0]!;
    assert.equal(choice.index, 0);
    if (choice.delta.content !== undefined) {
      summary.sawContent = true;
      summary.content += choice.delta.content;
    }
    if (choice.delta.reasoning_content !== undefined) summary.reasoning += choice.delta.reasoning_content;
    for (const tc of choice.delta.tool_calls ?? []) {
      assert.equal(choice.delta.content, undefined, "no content in tool-call chunks");
      const known = summary.toolCalls[tc.index];
      if (!known) {
        assert.equal(tc.index, summary.toolCalls.length, "tool-call indexes are contiguous from 0");
        assert.ok(tc.id && tc.type === "function" && tc.function.name, "first delta of a call has id, type and name");
        assert.notEqual(tc.function.arguments, "", "arguments are never empty");
        summary.toolCalls.push({ id: tc.id, name: tc.function.name, arguments: tc.function.arguments });
      } else {
        assert.equal(tc.id, undefined);
        known.arguments += tc.function.arguments;
      }
    }
    if (choice.finish_reason !== null) {
      finishCount++;
      finishAt = i;
      summary.finishReason = choice.finish_reason;
    }
  });
  assert.equal(ids.size <= 1, true, "one id across chunks");
  if (summary.error) {
    assert.equal(finishCount, 0, "no finish_reason after an error");
    assert.equal(summary.done, false, "no [DONE] after an error");
  } else {
    assert.equal(finishCount, 1, "exactly one finish_reason");
    assert.ok(summary.done, "[DONE] last");
    if (includeUsage) assert.equal(usageAt, frames.length - 2, "usage chunk is last before [DONE]");
    else assert.equal(finishAt, frames.length - 2, "finish chunk is last before [DONE]");
    if (summary.toolCalls.length > 0) assert.equal(summary.finishReason, "tool_calls");
    else assert.notEqual(summary.finishReason, "tool_calls");
  }
  return summary;
}

/** The stream (as a client reassembles it) and the JSON body say the same thing. */
export function assertChatAgreement(summary: ChatStreamSummary, run: Run<ChatCompletion>): void {
  if (summary.error) {
    assert.equal(run.body, null, "a failed run has no JSON body");
    assert.ok(run.thrown, "completion() throws for a failed run");
    assert.equal(run.thrown.message, (summary.error as { message: string }).message);
    return;
  }
  const body = checkChatCompletion(run.body);
  const message = body.choices[0].message;
  assert.equal(message.content, summary.toolCalls.length > 0 && summary.content === "" ? null : summary.content);
  assert.equal(message.reasoning_content ?? "", summary.reasoning);
  assert.deepEqual(
    (message.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })),
    summary.toolCalls,
  );
  assert.equal(body.choices[0].finish_reason, summary.finishReason);
  if (summary.usage) assert.deepEqual(body.usage, summary.usage);
}

/** Checks a chat.completion against the schema. */
export function checkChatCompletion(body: unknown): ChatCompletion {
  return ChatCompletionSchema.parse(body) as ChatCompletion;
}

/** What a client reassembles from a Responses stream. */
export interface ResponsesStreamSummary {
  events: ResponseStreamEventWire[];
  terminal: ResponseStreamEventWire & { response: ResponseObject };
  doneItems: unknown[];
  /** Concatenated text deltas per item id (output_text and reasoning summary). */
  texts: Map<string, string>;
  /** Concatenated argument deltas per item id. */
  args: Map<string, string>;
}

const TERMINAL = new Set(["response.completed", "response.incomplete", "response.failed"]);

/** Checks every Responses stream rule (schema per event, event name == type, contiguous sequence numbers, created and
 *  in_progress first, item lifecycles, exactly one terminal event last, output == done items) and summarises it. */
export function checkResponsesStream(frames: readonly SseFrame[]): ResponsesStreamSummary {
  assert.deepEqual(reparse(frames), frames, "SSE text must parse back to the same frames");
  const events = frames.map((frame, i) => {
    const event = ResponseStreamEventSchema.parse(JSON.parse(frame.data));
    assert.equal(frame.event, event.type, "event name equals data.type");
    assert.equal(event.sequence_number, i, "sequence numbers are 0,1,2,... without gaps");
    return event;
  });
  assert.equal(events[0]?.type, "response.created");
  assert.equal(events[1]?.type, "response.in_progress");
  const terminals = events.filter((e) => TERMINAL.has(e.type));
  assert.equal(terminals.length, 1, "exactly one terminal event");
  const terminal = events.at(-1)!;
  assert.ok(TERMINAL.has(terminal.type), "the terminal event is last");
  const id = (events[0] as { response: ResponseObject }).response.id;
  const texts = new Map<string, string>();
  const args = new Map<string, string>();
  const doneItems: unknown[] = [];
  const openItems = new Map<string, number>();
  for (const e of events) {
    if ("response" in e) {
      assert.equal(e.response.id, id, "one response id");
      if (e.type === "response.created" || e.type === "response.in_progress") {
        assert.equal(e.response.status, "in_progress");
        assert.deepEqual(e.response.output, []);
      }
    }
    switch (e.type) {
      case "response.output_item.added":
        assert.equal(e.output_index, doneItems.length, "items are added in output order");
        assert.equal(e.item.status, "in_progress");
        openItems.set(e.item.id, e.output_index);
        texts.set(e.item.id, "");
        if (e.item.type === "function_call" || e.item.type === "custom_tool_call") args.set(e.item.id, "");
        break;
      case "response.output_text.delta":
      case "response.reasoning_summary_text.delta":
        assert.equal(openItems.get(e.item_id), e.output_index, "deltas belong to an open item at its index");
        texts.set(e.item_id, (texts.get(e.item_id) ?? "") + e.delta);
        break;
      case "response.output_text.done":
      case "response.reasoning_summary_text.done":
        assert.equal(e.text, texts.get(e.item_id), ".done text equals the concatenated deltas");
        break;
      case "response.function_call_arguments.delta":
        args.set(e.item_id, (args.get(e.item_id) ?? "") + e.delta);
        break;
      case "response.function_call_arguments.done":
        assert.equal(e.arguments, args.get(e.item_id));
        break;
      case "response.custom_tool_call_input.delta":
        assert.equal(openItems.get(e.item_id), e.output_index, "deltas belong to an open item at its index");
        args.set(e.item_id, (args.get(e.item_id) ?? "") + e.delta);
        break;
      case "response.custom_tool_call_input.done":
        assert.equal(e.input, args.get(e.item_id), ".done input equals the concatenated deltas");
        break;
      case "response.output_item.done": {
        assert.equal(openItems.get(e.item.id), e.output_index, "done for an added item at its index");
        openItems.delete(e.item.id);
        if (e.item.type === "message") assert.equal(e.item.content[0]?.text, texts.get(e.item.id));
        if (e.item.type === "reasoning") assert.equal(e.item.summary[0]?.text, texts.get(e.item.id));
        if (e.item.type === "function_call") assert.equal(e.item.arguments, args.get(e.item.id));
        if (e.item.type === "custom_tool_call") assert.equal(e.item.input, args.get(e.item.id));
        doneItems.push(e.item);
        break;
      }
      default:
        break;
    }
  }
  assert.equal(openItems.size, 0, "every added item is done before the terminal event");
  const final = (terminal as { response: ResponseObject }).response;
  ResponseObjectSchema.parse(final);
  assert.deepEqual(final.output, doneItems, "response.output equals the output_item.done items");
  return { events, terminal: terminal as ResponsesStreamSummary["terminal"], doneItems, texts, args };
}

// ---- golden files --------------------------------------------------------------------------------------------

const GOLDEN_DIR = new URL("../../../fixtures/golden/", import.meta.url);

/** A readable form of frames for golden files: data parsed as JSON where it is JSON. */
export function framesForGolden(frames: readonly SseFrame[]): unknown[] {
  return frames.map((f) => {
    const data: unknown = f.data === "[DONE]" ? "[DONE]" : JSON.parse(f.data);
    return f.event === undefined ? { data } : { event: f.event, data };
  });
}

/** Compares `actual` with tests/fixtures/golden/<name>.json (see tests/harness/golden.ts for the update flag). */
export function matchGolden(name: string, actual: unknown): void {
  matchGoldenFile(fileURLToPath(new URL(`${name}.json`, GOLDEN_DIR)), actual);
}

/** A PatchbayError as plain data (for golden files and comparisons). */
export function errorData(err: PatchbayError | null): unknown {
  return err && { code: err.code, status: err.status, param: err.param, message: err.message };
}

/** The Responses stream and the JSON body say the same thing: the body IS the terminal event's response. */
export function assertResponsesAgreement(summary: ResponsesStreamSummary, run: Run<ResponseObject>): void {
  const final = summary.terminal.response;
  if (summary.terminal.type === "response.failed") {
    assert.equal(final.status, "failed");
    assert.equal(run.body, null, "a failed run has no JSON body");
    assert.equal(final.error?.message, run.thrown?.message);
    return;
  }
  assert.equal(run.thrown, null);
  assert.deepEqual(ResponseObjectSchema.parse(run.body), final);
  assert.equal(final.status, summary.terminal.type === "response.completed" ? "completed" : "incomplete");
}
