// What one stored Response is on disk (zod-validated when read) and how its ids are made and parsed: response ids
// carry their creation time, item ids carry their response's key, so an item_reference finds its record in one read.
// Pure: no I/O, no clock of its own.
import { randomBytes } from "node:crypto";
import { z } from "zod";

/** Format version of the record files written now (2: each record holds only what its turn added; issue 21 item 6). */
export const RECORD_VERSION = 2;

/** An item (input or output) as stored: any Responses item with a string `id` and `type`. */
export const StoredItem = z.looseObject({ id: z.string().min(1), type: z.string().min(1) });
/** An item as stored. */
export type StoredItem = z.infer<typeof StoredItem>;

/** The response object as it was sent (the fields Patchbay relies on are checked, the rest is kept as is). */
export const StoredResponseObject = z.looseObject({
  id: z.string(),
  object: z.literal("response"),
  created_at: z.number(),
  status: z.enum(["completed", "incomplete", "failed", "in_progress"]),
  model: z.string(),
  output: z.array(StoredItem),
  previous_response_id: z.string().nullable(),
  instructions: z.unknown(),
  usage: z.unknown(),
  store: z.literal(true),
});
/** The response object as stored. */
export type StoredResponseObject = z.infer<typeof StoredResponseObject>;

const recordHead = {
  id: z.string(),
  app: z.string(),
  createdAt: z.number().int(),
  /** The OpenCode session that ran it (links the Sessions view), when known. */
  sessionId: z.string().nullable(),
};

/**
 * One stored response: `<dataDir>/responses/<app>/<shard>/<id>.json`. Times are epoch ms. Its effective input (what
 * `input_items` lists and what a request continuing it builds on) is the effective input and output of `parent`
 * (recursively), then `input`; `instructions` is not part of it. So a chain of N turns costs O(N) bytes, not O(N²).
 */
export const StoredResponseRecord = z.object({
  v: z.literal(RECORD_VERSION),
  ...recordHead,
  // `parent` comes first after the head, so a deletion finds it in a file's first bytes ({@link parentInHead}).
  /** The stored response whose conversation `input` continues, or null when `input` is the whole effective input.
   *  Usually `response.previous_response_id`; differs once that response was deleted or pruned and its items were
   *  folded into this record (see chain.ts), or when it was gone before this record was written. */
  parent: z.string().nullable(),
  /** What this response added after `parent`'s conversation: its request's input with item references resolved;
   *  every item has an id. */
  input: z.array(StoredItem),
  /** How many items the effective input has (the dashboard's count, without walking the chain). */
  inputItems: z.number().int().nonnegative(),
  response: StoredResponseObject,
});
/** One stored response. */
export type StoredResponseRecord = z.infer<typeof StoredResponseRecord>;

/** A record of format 1 (before issue 21 item 6): `input` is the whole effective input. Read, never written. */
const LegacyRecord = z.object({
  v: z.literal(1),
  ...recordHead,
  input: z.array(StoredItem),
  response: StoredResponseObject,
});

/** What a record file may hold (either format), read as the current format: a format-1 record has no parent. */
export const StoredRecordFile = z
  .discriminatedUnion("v", [StoredResponseRecord, LegacyRecord])
  .transform((r): StoredResponseRecord =>
    r.v === RECORD_VERSION ? r : { ...r, v: RECORD_VERSION, parent: null, inputItems: r.input.length },
  );

/** The head of a record file as written (`JSON.stringify` keeps the schema's key order), up to `parent`. */
const HEAD =
  /^\{"v":(?:1,|2,"id":"(resp_[0-9a-f]{32})","app":"[^"\\]*","createdAt":\d+,"sessionId":(?:null|"[^"\\]*"),"parent":(null|"resp_[0-9a-f]{32}"))/;

/**
 * The `parent` of record `id` read from the first bytes of its file: null for a format-1 record (it has none),
 * undefined when the head does not read as written (hand-edited, damaged: read the whole record instead).
 */
export function parentInHead(head: string, id: string): string | null | undefined {
  const m = HEAD.exec(head);
  if (!m) return undefined;
  if (m[1] === undefined) return null;
  if (m[1] !== id) return undefined;
  return m[2] === "null" ? null : m[2]?.slice(1, -1);
}

/** `resp_` + 12 hex digits of the creation time (epoch ms) + 20 random hex digits. */
const RESPONSE_ID = /^resp_([0-9a-f]{12})([0-9a-f]{20})$/;
/** `<prefix>_<32-hex key of the response>_<suffix>`: the encoder's default output ids (`msg_<key>_0`) and the ids
 *  given to input items when stored (`msg_<key>_in0`). */
const ITEM_ID = /^[a-z]+_([0-9a-f]{32})_[a-z0-9]+$/;

/** A new response id whose first 12 hex digits are `nowMs` (so listing and pruning need no file reads). */
export function newResponseId(nowMs: number): string {
  const time = Math.max(0, Math.trunc(nowMs)).toString(16).padStart(12, "0").slice(-12);
  return `resp_${time}${randomBytes(10).toString("hex")}`;
}

/** True for ids made by {@link newResponseId} (anything else is unknown: never a path). */
export function isResponseId(id: string): boolean {
  return RESPONSE_ID.test(id);
}

/** Creation time (epoch ms) encoded in a response id, or null when it is not one. */
export function createdAtOfId(id: string): number | null {
  const m = RESPONSE_ID.exec(id);
  return m?.[1] ? parseInt(m[1], 16) : null;
}

/** The response id an item id belongs to (`msg_<key>_0` → `resp_<key>`), or null for other ids. */
export function responseIdOfItem(itemId: string): string | null {
  const m = ITEM_ID.exec(itemId);
  return m?.[1] ? `resp_${m[1]}` : null;
}

/** The id prefix of a new input item of `type` (`message` → `msg`, `function_call` → `fc`, …). */
function prefixOf(type: string): string {
  switch (type) {
    case "message":
      return "msg";
    case "function_call":
      return "fc";
    case "function_call_output":
      return "fco";
    case "reasoning":
      return "rs";
    default:
      return type.replace(/[^a-z]/g, "").slice(0, 12) || "item";
  }
}

/** The id of the `n`-th input item of response `responseId` that came without one. */
export function inputItemId(responseId: string, type: string, n: number): string {
  return `${prefixOf(type)}_${responseId.replace(/^resp_/, "")}_in${n}`;
}
