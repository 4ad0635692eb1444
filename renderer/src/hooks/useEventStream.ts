// Subscribes to one server-sent-events endpoint of the admin API with EventSource (same origin, cookie auth),
// parsing each event with the row's zod schema. Reconnects automatically (EventSource's own retry).
import { useEffect, useRef, useState } from "react";
import type { z } from "zod";

export type StreamState = "connecting" | "open" | "reconnecting";

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
    const es = new EventSource(url);
    es.onopen = () => setState("open");
    es.onerror = () => setState(es.readyState === EventSource.CLOSED ? "reconnecting" : "connecting");
    es.onmessage = (ev: MessageEvent<string>) => {
      let json: unknown;
      try {
        json = JSON.parse(ev.data);
      } catch {
        return;
      }
      const parsed = schema.safeParse(json);
      if (parsed.success) handler.current(parsed.data);
    };
    return () => es.close();
  }, [url, schema, enabled]);

  return state;
}
