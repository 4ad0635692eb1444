// The Responses encoder's options and explicit state (server/wires/openai-responses/encode.ts): what the stream and the
// response object share, kept apart so the encoder file reads as its steps.
import type { ModelError } from "../../core/contract";
import type { ToolNameMap } from "./tools";
import type { OutputItem, ResponseEcho, ResponseObject } from "./wire-types";

/** Item id prefixes: `msg_` messages, `fc_` function calls, `ctc_` custom tool calls, `rs_` reasoning. */
export type ItemIdPrefix = "msg" | "fc" | "ctc" | "rs";

/** What the stream and the response object share; made by the caller (no ids or clocks in here). */
export interface ResponsesEncoderOptions {
  /** `resp_...`. */
  id: string;
  /** Unix seconds. */
  createdAt: number;
  /** The model id echoed to the client. */
  model: string;
  /** Echoed request fields, from `decodeResponsesRequest`. */
  echo: ResponseEcho;
  /** Makes output item ids; default `<prefix>_<id without "resp_">_<n>` (n counts items from 0). */
  newId?: (prefix: ItemIdPrefix) => string;
  /** Stream reasoning deltas as a `reasoning` item; default: when the request asked for `reasoning.summary`. */
  emitReasoning?: boolean;
  /** Flat tool name → the client's tool (from `decodeResponsesRequest`): calls of namespace members come back as
   *  `function_call` items with `namespace`, calls of custom tools as `custom_tool_call` items. Absent: every call is a
   *  plain `function_call`. */
  toolNames?: ToolNameMap;
}

/** The item whose text is still growing. */
export type OpenItem = { kind: "message" | "reasoning"; id: string; outputIndex: number; text: string };

/** The encoder's explicit state. */
export interface ResponsesEncoderState {
  phase: "open" | "completed" | "incomplete" | "failed";
  ended: boolean;
  /** The next `sequence_number`. */
  sequence: number;
  /** `response.created` and `response.in_progress` were sent. */
  announced: boolean;
  /** Items whose `response.output_item.done` was sent, in output order. */
  output: OutputItem[];
  open: OpenItem | null;
  /** Items created so far (for default ids). */
  itemCount: number;
  failure: ModelError | null;
  /** The response object of the terminal event (the JSON body). */
  final: ResponseObject | null;
}
