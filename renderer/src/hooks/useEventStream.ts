// Subscribes to one server-sent-events endpoint of the admin API with a streaming fetch (not EventSource: it cannot
// send the session's Authorization header, issue 16 item 9), parsing each event's `data` with the row's zod schema.
// Reconnects after a drop, like EventSource does; stops on 401 (the status poll then shows the sign-in screen).
import { useEffect, useRef, useState } from "react";
import type { z } from "zod";
import { authHeaders } from "../session";

export type StreamState = "connecting" | "open" | "reconnecting";

/** Wait before reconnecting (ms): the server's `retry:` line says 2000 too. */
const RETRY_MS = 2_000;

/** Splits a buffer of SSE text into complete events' `data` payloads; returns them and the unfinished rest. */
export function takeSseData(buffer: string): { data: string[]; rest: string } {
  const normalized = buffer.replace(/\r\n?/g, "\n");
  const blocks = normalized.split("\n\n");
  const rest = blocks.pop() ?? "";
  const data: string[] = [];
  for (const block of blocks) {
    const lines = block
      .split("\n")
      .filter((l) => l.startsWith("data:"))
      .map((l) => l.slice(5).replace(/^ /, ""));
    if (lines.length) data.push(lines.join("\n"));
  }
  return { data, rest };
}

/** Opens `url` while `enabled`; calls `onEvent` with each valid event. Invalid events are ignored. */
export function useEventStream<S extends z.ZodType>(
  url: string,
  schema: S,
  onEvent: (data: z.output<S>) => void,
  enabled = true,
): StreamState {
  const [state, setState] = useState<StreamState>("connecting");
  const handler = useRef(onEvent);
  useEffect(() => {
    handler.current = onEvent;
  });

  useEffect(() => {
    if (!enabled) return;
    const abort = new AbortController();
    let retryTimer: ReturnType<typeof setTimeout> | undefined;

    const deliver = (text: string): void => {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        return;
      }
      const parsed = schema.safeParse(json);
      if (parsed.success) handler.current(parsed.data);
    };

    const connect = async (): Promise<void> => {
      let unauthorized = false;
      try {
        const res = await fetch(url, {
          headers: { accept: "text/event-stream", ...authHeaders() },
          credentials: "omit",
          cache: "no-store",
          signal: abort.signal,
        });
        unauthorized = res.status === 401;
        if (res.ok && res.body) {
          setState("open");
          const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
          let buffer = "";
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            const { data, rest } = takeSseData(buffer + value);
            buffer = rest;
            data.forEach(deliver);
          }
        }
      } catch {
        // network error or aborted: handled below
      }
      if (abort.signal.aborted || unauthorized) return;
      setState("reconnecting");
      retryTimer = setTimeout(() => void connect(), RETRY_MS);
    };
    void connect();
    return () => {
      abort.abort();
      if (retryTimer) clearTimeout(retryTimer);
    };
  }, [url, schema, enabled]);

  return state;
}
