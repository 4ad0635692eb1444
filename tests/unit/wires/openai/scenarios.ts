// Representative neutral event sequences for the encoder golden tests (the shapes the OpenCode mapper produces).
// Test-only data.
import type { ModelEvent } from "../../../../server/core/contract";
import { USAGE } from "./helpers";

const start: ModelEvent = { type: "start", sessionId: "ses_test", warnings: [] };

/** name → events. Sequences without a terminal event model a cut backend stream. */
export const SCENARIOS: Record<string, ModelEvent[]> = {
  text: [
    start,
    { type: "text-delta", delta: "Hello" },
    { type: "text-delta", delta: ", world." },
    { type: "finish", reason: "stop", usage: USAGE },
  ],
  "tool-call": [
    start,
    { type: "tool-call", id: "call_w1", name: "get_weather", arguments: '{"city":"Paris"}' },
    { type: "finish", reason: "tool_calls", usage: USAGE },
  ],
  "parallel-tool-calls": [
    start,
    { type: "text-delta", delta: "Checking both." },
    { type: "tool-call", id: "call_a", name: "get_weather", arguments: '{"city":"Paris"}' },
    { type: "tool-call", id: "call_b", name: "get_time", arguments: "" },
    // Backends may report "stop" for a step that ended in calls; the wire must still say tool_calls.
    { type: "finish", reason: "stop", usage: USAGE },
  ],
  length: [start, { type: "text-delta", delta: "Once upon a" }, { type: "finish", reason: "length", usage: USAGE }],
  "content-filter": [
    start,
    { type: "text-delta", delta: "I" },
    { type: "finish", reason: "content_filter", usage: USAGE },
  ],
  "error-before-output": [
    start,
    {
      type: "error",
      error: {
        code: "upstream_rate_limited",
        status: 429,
        message: "The provider is rate limiting this model.",
        retryAfter: 3,
      },
    },
  ],
  "error-after-output": [
    start,
    { type: "text-delta", delta: "Partial answ" },
    { type: "error", error: { code: "upstream_error", status: 502, message: "The provider closed the connection." } },
  ],
  reasoning: [
    start,
    { type: "reasoning-delta", delta: "The user greets; " },
    { type: "reasoning-delta", delta: "answer briefly." },
    { type: "text-delta", delta: "Hi!" },
    { type: "finish", reason: "stop", usage: USAGE },
  ],
  "empty-answer": [start, { type: "finish", reason: "stop", usage: USAGE }],
  "cut-stream": [start, { type: "text-delta", delta: "Half" }],
};
