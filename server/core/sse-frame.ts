// The SSE frame type the OpenAI encoders produce, and its serialisation to bytes on the wire.
// Pure: no I/O; writing frames to a socket is server/http's job.

/** One Server-Sent Events frame. `event` is the SSE event name (the Responses API names every event; chat chunks
 *  have none). `data` is the payload text (JSON, or chat's `[DONE]` sentinel). */
export interface SseFrame {
  event?: string;
  data: string;
}

/** Serialises a frame per the WHATWG SSE format: optional `event:` line, one `data:` line per line of `data`,
 *  then a blank line. Example: `{data: "[DONE]"}` → `"data: [DONE]\n\n"`. */
export function formatSseFrame(frame: SseFrame): string {
  let out = frame.event === undefined ? "" : `event: ${frame.event}\n`;
  for (const line of frame.data.split(/\r\n|\r|\n/)) out += `data: ${line}\n`;
  return `${out}\n`;
}
