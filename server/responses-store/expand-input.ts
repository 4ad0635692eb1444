// Expands a Responses request against the app's stored responses BEFORE the (stateless) decoder sees it:
// `previous_response_id` → that response's conversation (its effective input + output items, rebuilt from its chain
// of records: chain.ts), then this request's input; each
// `item_reference` (or an id-only item) → the stored item. Also assigns ids to id-less items for storing. The decoder
// then gets an ordinary full conversation, so a stored turn reaches the upstream exactly as the inline one would.
// Reads only; never writes. OpenAI API reference, "Create a model response" (`previous_response_id`, `input`).
import { quoteClientText } from "../core/client-text";
import { PatchbayError, invalidRequest } from "../core/errors";
import { isJsonObject } from "../core/wire-parse";
import { historyOf, type ChainReader } from "./chain";
import { inputItemId, responseIdOfItem, type StoredItem, type StoredResponseRecord } from "./record";

/** What expansion reads: a record of this app by id (throws PatchbayError `response_not_found` when absent) and,
 *  when the reader keeps them, a response's conversation (else it is rebuilt from the records: chain.ts). Both hand
 *  out copies the caller may change. */
export interface StoredResponseReader extends ChainReader {
  history?(app: string, id: string, param?: string | null): Promise<StoredItem[]>;
}

/** The request prepared for the decoder and for storing. */
export interface ExpandedRequest {
  /** The body for the decoder: the original one, or (when something was expanded) a copy whose `input` is the
   *  effective input and without `previous_response_id`. */
  body: unknown;
  /** The effective input, every item with an `id` (null when `input` is not a string or an array: the decoder
   *  reports that). */
  input: StoredItem[] | null;
  /** What this request adds to the conversation it continues (the tail of `input`): what its record stores. */
  added: StoredItem[] | null;
  /** The `previous_response_id` the request named (echoed on the response), or null. */
  previousResponseId: string | null;
  /** How many items of the decoder's `input` came from the stored chain (they come first; 0 without one). */
  storedItems: number;
}

/** True for `{type: "item_reference", id}` and for the bare `{id}` form (an item without type and role). */
function isReference(item: Record<string, unknown>): boolean {
  return item.type === "item_reference" || (item.type === undefined && !("role" in item) && "id" in item);
}

/** The stored item `id` of this app, found through the response its id names. Throws 404 `item_not_found`. */
async function resolveReference(
  reader: StoredResponseReader,
  app: string,
  id: unknown,
  at: string,
  cache: Map<string, StoredResponseRecord>,
): Promise<StoredItem> {
  if (typeof id !== "string" || id === "")
    throw invalidRequest(`Invalid '${at}.id': an item_reference needs the id of a stored item.`, `${at}.id`);
  const notFound = () =>
    new PatchbayError("item_not_found", `Item with id ${quoteClientText(id)} not found.`, {
      param: `${at}.id`,
      status: 404,
    });
  const responseId = responseIdOfItem(id);
  if (!responseId) throw notFound();
  let record = cache.get(responseId);
  if (!record) {
    try {
      record = await reader.get(app, responseId);
    } catch (err) {
      if (err instanceof PatchbayError && err.code === "response_not_found") throw notFound();
      throw err;
    }
    cache.set(responseId, record);
  }
  const item = record.response.output.find((x) => x.id === id) ?? record.input.find((x) => x.id === id);
  if (!item) throw notFound();
  return structuredClone(item);
}

/**
 * Expands `body` for `app` (see the module comment). `responseId` is the id the new response will get (input items
 * without an id get `<prefix>_<key>_in<n>`). Leaves anything it does not understand to the decoder (a body that is not
 * an object, an `input` of the wrong type, items that are not objects).
 * @throws PatchbayError 400 `previous_response_id` not a string / `previous_response_not_found` (unknown, another
 *   app's, deleted or pruned: OpenAI answers "Previous response with id '…' not found." with 400); 404 `item_not_found`
 *   naming `input[i].id`; `storage_error` (500) when a needed record is damaged.
 */
export async function expandStoredInput(
  body: unknown,
  app: string,
  reader: StoredResponseReader,
  responseId: string,
): Promise<ExpandedRequest> {
  if (!isJsonObject(body)) return { body, input: null, added: null, previousResponseId: null, storedItems: 0 };
  const prevId = body.previous_response_id;
  if (prevId !== undefined && prevId !== null && (typeof prevId !== "string" || prevId === ""))
    throw invalidRequest(
      "Invalid 'previous_response_id': expected the id of a stored response.",
      "previous_response_id",
    );
  const previousResponseId = typeof prevId === "string" ? prevId : null;

  const raw = body.input;
  if (typeof raw !== "string" && !Array.isArray(raw)) {
    if (previousResponseId) await previous(reader, app, previousResponseId);
    return { body: withoutPrevious(body), input: null, added: null, previousResponseId, storedItems: 0 };
  }
  const cache = new Map<string, StoredResponseRecord>();
  let expanded = previousResponseId !== null;
  const own: unknown[] =
    typeof raw === "string" ? [{ type: "message", role: "user", content: raw }] : (raw as unknown[]);
  const items: unknown[] = [];
  for (const [i, item] of own.entries()) {
    if (isJsonObject(item) && isReference(item)) {
      items.push(await resolveReference(reader, app, item.id, `input[${i}]`, cache));
      expanded = true;
    } else {
      items.push(item);
    }
  }
  const history = previousResponseId ? await previous(reader, app, previousResponseId) : [];
  let n = 0;
  const withIds = items.map((item): unknown => {
    if (!isJsonObject(item)) return item;
    const type = typeof item.type === "string" ? item.type : "role" in item ? "message" : "item";
    const id = typeof item.id === "string" && item.id !== "" ? item.id : inputItemId(responseId, type, n++);
    return { ...item, type, id };
  });
  const added = withIds.every((x) => isJsonObject(x)) ? (withIds as StoredItem[]) : null;
  const input = added ? [...history, ...added] : null;
  if (!expanded) return { body, input, added, previousResponseId, storedItems: 0 };
  const storedItems = history.length;
  return {
    body: { ...withoutPrevious(body), input: [...history, ...items] },
    input,
    added,
    previousResponseId,
    storedItems,
  };
}

/**
 * A decoder error about `input[i]` in the client's terms: the decoder saw the stored chain's items first, so an index
 * below `storedItems` is an item of the stored conversation (the error then names `previous_response_id`), and the
 * client's own items are shifted back. Other errors are returned as they are.
 */
export function inClientTerms(
  err: unknown,
  expanded: Pick<ExpandedRequest, "storedItems" | "previousResponseId">,
): unknown {
  const m =
    err instanceof PatchbayError && expanded.storedItems > 0 ? /^input\[(\d+)\](.*)$/.exec(err.param ?? "") : null;
  if (!m || !(err instanceof PatchbayError)) return err;
  const i = Number(m[1]);
  const opts = { status: err.status, cause: err };
  if (i >= expanded.storedItems) {
    const own = `input[${i - expanded.storedItems}]`;
    return new PatchbayError(err.code, err.message.split(`input[${i}]`).join(own), { ...opts, param: `${own}${m[2]}` });
  }
  return new PatchbayError(
    err.code,
    `The conversation stored for previous_response_id '${expanded.previousResponseId}' cannot be continued: its ` +
      `item ${i} is refused (${err.message})`,
    { ...opts, param: "previous_response_id" },
  );
}

/** The conversation of the previous response (fresh objects: readers hand out copies). */
async function previous(reader: StoredResponseReader, app: string, id: string): Promise<StoredItem[]> {
  try {
    const param = "previous_response_id";
    return reader.history ? await reader.history(app, id, param) : await historyOf(reader, app, id, param);
  } catch (err) {
    if (err instanceof PatchbayError && err.code === "response_not_found") {
      throw new PatchbayError(
        "previous_response_not_found",
        `Previous response with id ${quoteClientText(id)} not found.`,
        {
          param: "previous_response_id",
        },
      );
    }
    throw err;
  }
}

function withoutPrevious(body: Record<string, unknown>): Record<string, unknown> {
  const copy = { ...body };
  delete copy.previous_response_id;
  return copy;
}

/** Runs `decode`; a 400 about the expanded input is re-worded for what the client sent (see {@link inClientTerms}). */
export function decodeInClientTerms<T>(expanded: ExpandedRequest, decode: () => T): T {
  try {
    return decode();
  } catch (err) {
    throw inClientTerms(err, expanded);
  }
}
