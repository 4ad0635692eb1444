// The dashboard's view of stored responses: list rows (newest first, a damaged record listed with its error) and one
// response's whole conversation. Reads through the store; no HTTP details.
import type { StoredResponseDetail, StoredResponsePage, StoredResponseSummary } from "../../shared/admin-api";
import { PatchbayError } from "../core/errors";
import type { StoredItem, StoredResponseRecord } from "./record";
import type { ResponseStore } from "./response-store";

const PREVIEW_CHARS = 120;

/** The text of the last user message of `input` (null when there is none), shortened to {@link PREVIEW_CHARS}. */
function lastUserText(input: readonly StoredItem[]): string | null {
  for (let i = input.length - 1; i >= 0; i--) {
    const item = input[i] as Record<string, unknown>;
    if (item.type !== "message" || item.role !== "user") continue;
    const c = item.content;
    const text =
      typeof c === "string"
        ? c
        : Array.isArray(c)
          ? c
              .map((p) => (typeof p === "object" && p && "text" in p && typeof p.text === "string" ? p.text : ""))
              .join(" ")
          : "";
    return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS - 1)}…` : text;
  }
  return null;
}

/** How many earlier turns a preview looks through for a user message (a long run of tool turns shows none). */
const PREVIEW_TURNS = 20;

/** The last user text of `r`'s effective input: in its own input, else (a turn that only sent tool results) in the
 *  nearest earlier turn that has one. A broken chain shows none here; opening the response says what is wrong. */
async function previewOf(store: ResponseStore, app: string, r: StoredResponseRecord): Promise<string> {
  let record = r;
  for (let turns = 0; turns <= PREVIEW_TURNS; turns++) {
    const text = lastUserText(record.input);
    if (text !== null || record.parent === null) return text ?? "";
    const parent = await store.get(app, record.parent).catch(() => null);
    if (!parent) return "";
    record = parent;
  }
  return "";
}

function summaryOf(r: StoredResponseRecord, preview: string): StoredResponseSummary {
  return {
    id: r.id,
    createdAt: r.createdAt,
    model: r.response.model,
    status: r.response.status,
    previousResponseId: r.response.previous_response_id,
    sessionId: r.sessionId,
    inputItems: r.inputItems,
    outputItems: r.response.output.length,
    preview,
    error: null,
  };
}

/** A page of the app's stored responses, newest first (`before`: the last id of the previous page). */
export async function listStoredResponses(
  store: ResponseStore,
  app: string,
  q: { limit: number; before?: string | undefined },
): Promise<StoredResponsePage> {
  const { ids, more } = await store.list(app, { limit: q.limit, ...(q.before ? { before: q.before } : {}) });
  const responses = await Promise.all(
    ids.map(async ({ id, createdAt }): Promise<StoredResponseSummary | null> => {
      try {
        const r = await store.get(app, id);
        return summaryOf(r, await previewOf(store, app, r));
      } catch (err) {
        if (err instanceof PatchbayError && err.code === "response_not_found") return null;
        const message = err instanceof Error ? err.message : String(err);
        return {
          id,
          createdAt,
          model: null,
          status: null,
          previousResponseId: null,
          sessionId: null,
          inputItems: 0,
          outputItems: 0,
          preview: "",
          error: message,
        };
      }
    }),
  );
  return {
    responses: responses.filter((r): r is StoredResponseSummary => r !== null),
    nextBefore: more ? (ids.at(-1)?.id ?? null) : null,
    total: await store.count(app),
  };
}

/** One stored response with its whole conversation. Throws `response_not_found`, `storage_error`. */
export async function storedResponseDetail(
  store: ResponseStore,
  app: string,
  id: string,
): Promise<StoredResponseDetail> {
  const r = await store.get(app, id);
  return {
    id: r.id,
    createdAt: r.createdAt,
    sessionId: r.sessionId,
    previousResponseId: r.response.previous_response_id,
    model: r.response.model,
    status: r.response.status,
    instructions: typeof r.response.instructions === "string" ? r.response.instructions : null,
    input: await store.inputOf(app, id),
    output: r.response.output,
    usage: r.response.usage ?? null,
  };
}
