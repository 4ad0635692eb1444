// The Responses encoder: ONE state machine fed with neutral ModelEvents that yields the named SSE events and, from the
// same state, the final response object, so the stream and the JSON never disagree. Pure: ids and times are injected.
import { assertRunFinished, endRun } from "../../core/run-end";
import type { ModelError, ModelEvent, WebSearchHit } from "../../core/contract";
import { urlCitations, webSearchCallItem, webSearchItemId } from "../../server-tools/responses-items";
import type { PatchbayError } from "../../core/errors";
import { STREAM_ENDED_EARLY, modelErrorToPatchbayError } from "../../core/model-error";
import type { SseFrame } from "../../core/sse-frame";
import { normaliseArguments } from "../../core/tool-helpers";
import {
  customInputOf,
  failureError,
  responseErrorCode,
  responseErrorMessage,
  textPart,
  toResponseUsage,
} from "./encode-fields";
import type { ItemIdPrefix, OpenItem, ResponsesEncoderOptions, ResponsesEncoderState } from "./encoder-state";
export type { ItemIdPrefix, ResponsesEncoderOptions, ResponsesEncoderState } from "./encoder-state";
import type {
  ItemStatus,
  OutputItem,
  OutputMessageItem,
  OutputReasoningItem,
  ResponseObject,
  ResponseStatus,
} from "./wire-types";

/**
 * Encodes one response. Usage:
 * ```ts
 * const { request, echo } = decodeResponsesRequest(body);
 * const enc = new ResponsesEncoder({ id, createdAt, model, echo });
 * for await (const event of backend.stream(req, signal)) write(enc.push(event));
 * write(enc.end());               // nothing after a terminal event; a failure if the backend stream was cut
 * const json = enc.body();    // non-stream: the same response object (throws if the run failed)
 * ```
 * Stream: every event has `event: <type>` and `data` with `type` and `sequence_number` (0, 1, 2, … no gaps).
 * `response.created` + `response.in_progress` come with the first output (or the terminal event), so an error before
 * any output can still become an HTTP error (the caller discards the frames). Text: `output_item.added` (message),
 * `content_part.added`, `output_text.delta`…, then `output_text.done`, `content_part.done`, `output_item.done` when
 * another item starts or the response ends. Tool calls: `output_item.added` (function_call, with `namespace` for a
 * namespace member), one `function_call_arguments.delta` with the complete arguments ("{}" for none),
 * `function_call_arguments.done`, `output_item.done`; a custom tool's call is a `custom_tool_call` item with
 * `custom_tool_call_input.delta`/`.done` instead. Then exactly one of `response.completed`, `response.incomplete` (`incomplete_details.reason`
 * `max_output_tokens` or `content_filter`) or `response.failed` (`error: {code, message}`); an item still open then is
 * closed first (status `incomplete` unless completed). Its `response.output` equals the `output_item.done` items.
 * Reasoning: when `emitReasoning`, a `reasoning` item whose summary text is the reasoning
 * (`response.reasoning_summary_part.added`, `response.reasoning_summary_text.delta`… and their `.done` events);
 * otherwise reasoning deltas are dropped (their tokens still count in usage). Events after the terminal one are ignored.
 */
export class ResponsesEncoder {
  private readonly state: ResponsesEncoderState = {
    phase: "open",
    ended: false,
    sequence: 0,
    announced: false,
    output: [],
    open: null,
    itemCount: 0,
    failure: null,
    final: null,
  };
  private readonly emitReasoning: boolean;
  /** The web search call in progress (between its call and result events). */
  private searching: { query: string; output_index: number } | null = null;
  /** Every hit of this response's searches: URLs the text names become `url_citation` annotations. */
  private readonly hits: WebSearchHit[] = [];

  constructor(private readonly options: ResponsesEncoderOptions) {
    this.emitReasoning = options.emitReasoning ?? options.echo.reasoning.summary !== null;
  }

  /** Feeds one event; returns the frames to write now (possibly none). */
  push(event: ModelEvent): SseFrame[] {
    if (this.state.phase !== "open") return [];
    const frames: SseFrame[] = [];
    switch (event.type) {
      case "start":
        break;
      case "text-delta":
        if (event.delta !== "") this.appendText("message", event.delta, frames);
        break;
      case "reasoning-delta":
        if (event.delta !== "" && this.emitReasoning) this.appendText("reasoning", event.delta, frames);
        break;
      case "tool-call":
        this.toolCall(event.id, event.name, event.arguments, frames);
        break;
      case "server-tool-call":
      case "server-tool-result":
        this.webSearchCall(event, frames);
        break;
      case "finish": {
        const reason =
          event.reason === "length" ? "max_output_tokens" : event.reason === "content_filter" ? "content_filter" : null;
        this.announce(frames);
        this.closeOpen(reason ? "incomplete" : "completed", frames);
        this.state.phase = reason ? "incomplete" : "completed";
        const final = this.snapshotResponse(reason ? "incomplete" : "completed", {
          usage: toResponseUsage(event.usage),
          incomplete_details: reason ? { reason } : null,
        });
        this.state.final = final;
        frames.push(this.event(reason ? "response.incomplete" : "response.completed", { response: final }));
        break;
      }
      case "error":
        this.fail(event.error, frames);
        break;
    }
    return frames;
  }

  /** Closes the stream. After a terminal event: nothing (the Responses API has no `[DONE]`). If none came (the backend
   *  stream was cut), this is a failure: returns the closing events and `response.failed`. Idempotent. */
  end(): SseFrame[] {
    return endRun(this.state, (error) => {
      const frames: SseFrame[] = [];
      this.fail(error, frames);
      return frames;
    });
  }

  /** The non-stream response object: the same object the terminal stream event carried.
   *  @throws PatchbayError when the run failed or did not finish (the caller answers with an HTTP error). */
  body(): ResponseObject {
    const s = this.state;
    assertRunFinished(s, failureError);
    if (!s.final) throw modelErrorToPatchbayError(STREAM_ENDED_EARLY);
    return structuredClone(s.final);
  }

  /** True once model output was sent (an output item); an error after that must stay in-band. */
  get outputStarted(): boolean {
    return this.state.itemCount > 0;
  }

  /** The run's failure as a PatchbayError (for an HTTP error or the log), or null. */
  get failure(): PatchbayError | null {
    return this.state.failure ? failureError(this.state.failure) : null;
  }

  /** A read-only copy of the state (for logs and tests). */
  snapshot(): Readonly<ResponsesEncoderState> {
    return structuredClone(this.state);
  }

  private event(type: string, fields: Record<string, unknown>): SseFrame {
    const data = { type, sequence_number: this.state.sequence++, ...fields };
    return { event: type, data: JSON.stringify(data) };
  }

  private nextId(prefix: ItemIdPrefix): string {
    const n = this.state.itemCount++;
    return this.options.newId ? this.options.newId(prefix) : `${prefix}_${this.options.id.replace(/^resp_/, "")}_${n}`;
  }

  private snapshotResponse(status: ResponseStatus, extra: Partial<ResponseObject> = {}): ResponseObject {
    const { id, createdAt, model, echo } = this.options;
    return structuredClone({
      id,
      object: "response",
      created_at: createdAt,
      status,
      background: false,
      error: null,
      incomplete_details: null,
      instructions: echo.instructions,
      max_output_tokens: echo.max_output_tokens,
      max_tool_calls: null,
      model,
      output: this.state.output,
      parallel_tool_calls: echo.parallel_tool_calls,
      previous_response_id: echo.previous_response_id ?? null,
      prompt_cache_key: echo.prompt_cache_key,
      reasoning: echo.reasoning,
      service_tier: "default",
      store: echo.store ?? false,
      temperature: echo.temperature,
      text: echo.text,
      tool_choice: echo.tool_choice,
      tools: echo.tools,
      top_logprobs: 0,
      top_p: echo.top_p,
      truncation: "disabled",
      usage: null,
      user: echo.user,
      metadata: echo.metadata,
      ...extra,
    });
  }

  /** `response.created` + `response.in_progress`, once, before anything else. */
  private announce(frames: SseFrame[]): void {
    if (this.state.announced) return;
    this.state.announced = true;
    frames.push(this.event("response.created", { response: this.snapshotResponse("in_progress") }));
    frames.push(this.event("response.in_progress", { response: this.snapshotResponse("in_progress") }));
  }

  private appendText(kind: OpenItem["kind"], delta: string, frames: SseFrame[]): void {
    this.announce(frames);
    let open = this.state.open;
    if (open?.kind !== kind) {
      this.closeOpen("completed", frames);
      open = {
        kind,
        id: this.nextId(kind === "message" ? "msg" : "rs"),
        outputIndex: this.state.output.length,
        text: "",
      };
      this.state.open = open;
      const { id, outputIndex } = open;
      if (kind === "message") {
        const item: OutputMessageItem = { id, type: "message", status: "in_progress", role: "assistant", content: [] };
        frames.push(this.event("response.output_item.added", { output_index: outputIndex, item }));
        frames.push(
          this.event("response.content_part.added", {
            item_id: id,
            output_index: outputIndex,
            content_index: 0,
            part: textPart(""),
          }),
        );
      } else {
        const item: OutputReasoningItem = { id, type: "reasoning", status: "in_progress", summary: [] };
        frames.push(this.event("response.output_item.added", { output_index: outputIndex, item }));
        frames.push(
          this.event("response.reasoning_summary_part.added", {
            item_id: id,
            output_index: outputIndex,
            summary_index: 0,
            part: { type: "summary_text", text: "" },
          }),
        );
      }
    }
    open.text += delta;
    const where = { item_id: open.id, output_index: open.outputIndex };
    frames.push(
      kind === "message"
        ? this.event("response.output_text.delta", { ...where, content_index: 0, delta, logprobs: [] })
        : this.event("response.reasoning_summary_text.delta", { ...where, summary_index: 0, delta }),
    );
  }

  /** Sends the `.done` events of the open item with `status` and moves it to the output. */
  private closeOpen(status: ItemStatus, frames: SseFrame[]): void {
    const open = this.state.open;
    if (!open) return;
    this.state.open = null;
    const where = { item_id: open.id, output_index: open.outputIndex };
    let item: OutputItem;
    if (open.kind === "message") {
      const annotations = urlCitations(open.text, this.hits);
      annotations.forEach((annotation, annotation_index) =>
        frames.push(
          this.event("response.output_text.annotation.added", {
            ...where,
            content_index: 0,
            annotation_index,
            annotation,
          }),
        ),
      );
      frames.push(
        this.event("response.output_text.done", { ...where, content_index: 0, text: open.text, logprobs: [] }),
      );
      const part = textPart(open.text, annotations);
      frames.push(this.event("response.content_part.done", { ...where, content_index: 0, part }));
      item = { id: open.id, type: "message", status, role: "assistant", content: [part] };
    } else {
      const part = { type: "summary_text" as const, text: open.text };
      frames.push(this.event("response.reasoning_summary_text.done", { ...where, summary_index: 0, text: open.text }));
      frames.push(this.event("response.reasoning_summary_part.done", { ...where, summary_index: 0, part }));
      item = { id: open.id, type: "reasoning", status, summary: [part] };
    }
    this.state.output.push(item);
    frames.push(this.event("response.output_item.done", { output_index: open.outputIndex, item }));
  }

  /** A `web_search_call` item: added (in_progress) with `web_search_call.in_progress` and `.searching` at the call;
   *  `.completed` (not for a failed search) and `output_item.done` (status completed or failed) at its result. */
  private webSearchCall(
    event: Extract<ModelEvent, { type: "server-tool-call" | "server-tool-result" }>,
    frames: SseFrame[],
  ): void {
    this.announce(frames);
    this.closeOpen("completed", frames);
    const item_id = webSearchItemId(event.id);
    if (event.type === "server-tool-call") {
      const query = typeof event.input.query === "string" ? event.input.query : "";
      const output_index = this.state.output.length;
      this.state.itemCount++;
      this.searching = { query, output_index };
      frames.push(
        this.event("response.output_item.added", { output_index, item: webSearchCallItem(event.id, query, null) }),
      );
      frames.push(this.event("response.web_search_call.in_progress", { output_index, item_id }));
      frames.push(this.event("response.web_search_call.searching", { output_index, item_id }));
      return;
    }
    const { query, output_index } = this.searching ?? { query: "", output_index: this.state.output.length };
    this.searching = null;
    const item = webSearchCallItem(event.id, query, event.outcome);
    if (!("error" in event.outcome) && event.outcome.kind === "web_search") this.hits.push(...event.outcome.hits);
    if (item.status === "completed")
      frames.push(this.event("response.web_search_call.completed", { output_index, item_id }));
    this.state.output.push(item);
    frames.push(this.event("response.output_item.done", { output_index, item }));
  }

  private toolCall(callId: string, flatName: string, rawArguments: string, frames: SseFrame[]): void {
    this.announce(frames);
    this.closeOpen("completed", frames);
    const wire = this.options.toolNames?.get(flatName);
    if (wire?.kind === "custom") {
      this.customToolCall(callId, wire.name, wire.namespace, customInputOf(rawArguments), frames);
      return;
    }
    const outputIndex = this.state.output.length;
    const id = this.nextId("fc");
    const args = normaliseArguments(rawArguments);
    const name = wire?.name ?? flatName;
    const base = {
      id,
      type: "function_call" as const,
      call_id: callId === "" ? `call_${id}` : callId,
      ...(wire?.namespace ? { namespace: wire.namespace } : {}),
      name,
    };
    frames.push(
      this.event("response.output_item.added", {
        output_index: outputIndex,
        item: { ...base, status: "in_progress", arguments: "" },
      }),
    );
    frames.push(
      this.event("response.function_call_arguments.delta", { item_id: id, output_index: outputIndex, delta: args }),
    );
    frames.push(
      this.event("response.function_call_arguments.done", {
        item_id: id,
        output_index: outputIndex,
        name,
        arguments: args,
      }),
    );
    const item: OutputItem = { ...base, status: "completed", arguments: args };
    this.state.output.push(item);
    frames.push(this.event("response.output_item.done", { output_index: outputIndex, item }));
  }

  /** A `custom_tool_call` item: added (empty input), one `response.custom_tool_call_input.delta` with the whole input,
   *  `response.custom_tool_call_input.done`, done (OpenAPI `ResponseCustomToolCallInput{Delta,Done}Event`). */
  private customToolCall(
    callId: string,
    name: string,
    namespace: string | undefined,
    input: string,
    frames: SseFrame[],
  ): void {
    const outputIndex = this.state.output.length;
    const id = this.nextId("ctc");
    const base = {
      id,
      type: "custom_tool_call" as const,
      call_id: callId === "" ? `call_${id}` : callId,
      ...(namespace ? { namespace } : {}),
      name,
    };
    frames.push(
      this.event("response.output_item.added", {
        output_index: outputIndex,
        item: { ...base, status: "in_progress", input: "" },
      }),
    );
    if (input !== "")
      frames.push(
        this.event("response.custom_tool_call_input.delta", { item_id: id, output_index: outputIndex, delta: input }),
      );
    frames.push(this.event("response.custom_tool_call_input.done", { item_id: id, output_index: outputIndex, input }));
    const item: OutputItem = { ...base, status: "completed", input };
    this.state.output.push(item);
    frames.push(this.event("response.output_item.done", { output_index: outputIndex, item }));
  }

  private fail(error: ModelError, frames: SseFrame[]): void {
    this.announce(frames);
    this.closeOpen("incomplete", frames);
    this.state.phase = "failed";
    this.state.failure = error;
    const final = this.snapshotResponse("failed", {
      error: { code: responseErrorCode(error), message: responseErrorMessage(error) },
    });
    this.state.final = final;
    frames.push(this.event("response.failed", { response: final }));
  }
}
