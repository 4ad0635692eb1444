// Wraps a Responses encoder so the finished response is stored before the client sees its end, and the answer never
// claims `store: true` for a response that is not on disk: when the write fails (disk full, unwritable folder), the
// terminal event (or JSON body) says `store: false` and the run carries a warning saying why.
import type { PatchbayWarning } from "../../core/contract";
import { warn } from "../../core/warnings";
import type { SseFrame } from "../../core/sse-frame";
import type { WireEncoder } from "../../http/model-run/types";
import type { ResponsesEncoder } from "./encode";
import { RECORD_VERSION, type StoredItem, type StoredResponseObject } from "../../responses-store/record";
import type { ResponseStore } from "../../responses-store/response-store";

/** How a response is kept: where, for which app, with which input. */
export interface ResponsePersistence {
  store: Pick<ResponseStore, "put">;
  /** The app's data key (`appDataKey`). */
  app: string;
  /** The stored response this one continues (`previous_response_id`), or null. */
  parent: string | null;
  /** What this request added to that conversation (ids on every item), from `expandStoredInput`: what is written. */
  added: StoredItem[];
  /** The whole effective input (ids on every item), from `expandStoredInput`: kept in memory for the next turn. */
  input: StoredItem[];
  log: (line: string) => void;
}

/** The warning of a response that could not be stored. */
export function notStoredWarning(reason: string): PatchbayWarning {
  return warn.unsupported(
    "store",
    `store: the response could not be stored (${reason}); it was answered with store: false and cannot be retrieved or continued with previous_response_id`,
  );
}

/**
 * `enc` as a {@link WireEncoder} whose `persist` writes the record (awaiting the disk) and, when that fails, amends the
 * terminal frames already returned (the relay sends them only after `persist`) and the body to `store: false`.
 */
export function persistingEncoder(
  enc: ResponsesEncoder,
  p: ResponsePersistence,
  meta: { id: string; createdMs: number },
): WireEncoder {
  let persisted: Promise<string | null> | null = null;
  let warning: PatchbayWarning | null = null;
  /** The frames of the last push/end: the terminal event is among them when `persist` runs. */
  let lastFrames: SseFrame[] = [];
  const remember = (frames: SseFrame[]): SseFrame[] => (lastFrames = frames);

  const persist = async (sessionId: string | null): Promise<string | null> => {
    const final = enc.snapshot().final;
    if (!final) return null;
    try {
      await p.store.put(
        {
          v: RECORD_VERSION,
          id: meta.id,
          app: p.app,
          createdAt: meta.createdMs,
          sessionId,
          parent: p.parent,
          input: p.added,
          inputItems: p.input.length,
          response: final as unknown as StoredResponseObject,
        },
        p.input,
      );
      return meta.id;
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      p.log(`stored responses: could not store ${meta.id} of app '${p.app}': ${reason}`);
      warning = notStoredWarning(shortReason(err));
      for (const frame of lastFrames) frame.data = unstored(frame.data);
      return null;
    }
  };

  return {
    push: (e) => remember(enc.push(e)),
    end: () => remember(enc.end()),
    body: () => {
      const body = enc.body();
      return warning && isObject(body) ? { ...body, store: false } : body;
    },
    get failure() {
      return enc.failure;
    },
    get storeWarning() {
      return warning;
    },
    persist: (sessionId) => (persisted ??= persist(sessionId)),
  };
}

/** A frame's JSON with `response.store` set to false (frames without a response object are left alone). */
function unstored(data: string): string {
  try {
    const event: unknown = JSON.parse(data);
    if (!isObject(event) || !isObject(event.response) || event.response.store !== true) return data;
    return JSON.stringify({ ...event, response: { ...event.response, store: false } });
  } catch {
    return data;
  }
}

/** The error's reason without paths (the client should not learn where the data folder is). */
function shortReason(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const colon = message.lastIndexOf(": ");
  return (colon >= 0 ? message.slice(colon + 2) : message).replace(/\.$/, "");
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
