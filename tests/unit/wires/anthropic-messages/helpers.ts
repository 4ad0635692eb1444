// Test helpers for the Anthropic codec: run neutral events through the MessagesEncoder and let the real
// `@anthropic-ai/sdk` parse the resulting SSE (its own MessageStream, through a fake fetch). Test-only.
import Anthropic from "@anthropic-ai/sdk";
import type { ModelEvent } from "../../../../server/core/contract";
import type { PatchbayError } from "../../../../server/core/errors";
import { MessagesEncoder, type AnthropicMessage } from "../../../../server/wires/anthropic-messages/encode";
import { formatSseFrame, type SseFrame } from "../../../../server/core/sse-frame";

/** The fixed encoder options of the tests. */
export const MESSAGE_OPTIONS = { id: "msg_test", model: "mock/mock-model" };

/** One encoder run: every frame (events then end), and the JSON body or what `message()` threw. */
export interface MessagesRun {
  frames: SseFrame[];
  body: AnthropicMessage | null;
  thrown: PatchbayError | null;
}

/** Feeds `events` to a fresh encoder, then `end()`; collects the body (or its error). */
export function runMessages(events: readonly ModelEvent[]): MessagesRun {
  const enc = new MessagesEncoder(MESSAGE_OPTIONS);
  const frames: SseFrame[] = [];
  for (const e of events) frames.push(...enc.push(e));
  frames.push(...enc.end());
  try {
    return { frames, body: enc.body(), thrown: null };
  } catch (err) {
    return { frames, body: null, thrown: err as PatchbayError };
  }
}

/** What the official SDK makes of the frames: `client.messages.stream(...).finalMessage()` over a fake fetch that
 *  answers with exactly this SSE text. Resolves to the message, or rejects with the SDK's error. */
export async function sdkFinalMessage(frames: readonly SseFrame[]): Promise<Anthropic.Message> {
  const sse = frames.map(formatSseFrame).join("");
  const client = new Anthropic({
    apiKey: "test",
    baseURL: "http://127.0.0.1:9",
    maxRetries: 0,
    fetch: async () => new Response(sse, { status: 200, headers: { "content-type": "text/event-stream" } }),
  });
  return client.messages
    .stream({ model: MESSAGE_OPTIONS.model, max_tokens: 10, messages: [{ role: "user", content: "x" }] })
    .finalMessage();
}

/** A readable form of frames for golden files: data parsed as JSON. */
export function framesForGolden(frames: readonly SseFrame[]): unknown[] {
  return frames.map((f) => ({ event: f.event, data: JSON.parse(f.data) as unknown }));
}
