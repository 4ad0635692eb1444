// Deleting stored responses (DELETE, the dashboard, pruning) without breaking the responses that continue them: each
// record holds only what its turn added (record.ts), so before a response's file goes, every remaining record whose
// chain runs through it gets the deleted items folded into its own input (chain.ts `foldOut`). A later response keeps
// its effective input, `input_items` and `previous_response_id` continuation, as when every record held the whole
// input; the deleted one is gone (404, and 400 `previous_response_not_found` when continued). No HTTP details.
import { PatchbayError } from "../core/errors";
import { describeFsError } from "../stores/storage-error";
import { foldOut } from "./chain";
import { createdAtOfId, type StoredResponseRecord } from "./record";

/** What removal needs of the store (response-store.ts). */
export interface RemovalStore {
  /** The record (throws `response_not_found`, `storage_error`). */
  get(app: string, id: string): Promise<StoredResponseRecord>;
  /** The record's `parent`; null also when it cannot be read (nothing to fold into it). */
  parentOf(app: string, id: string): Promise<string | null>;
  /** Ids of the app created at or after `fromMs` (a child is always newer than its parent), writes in flight
   *  included and settled. */
  idsSince(app: string, fromMs: number): Promise<string[]>;
  /** Overwrites a record atomically (throws `storage_error`). */
  rewrite(record: StoredResponseRecord): Promise<void>;
  /** Removes a record's file; false when it was already absent. Throws `storage_error`. */
  unlink(app: string, id: string): Promise<boolean>;
  log(line: string): void;
}

/** What a removal did: ids removed (in the order given), ids that were not there, failures (logged) and the first
 *  failure's error (`storage_error`). */
export interface RemovalResult {
  removed: string[];
  missing: string[];
  failed: number;
  error: PatchbayError | null;
}

/**
 * Removes `ids` of `app` after folding them into the records that still need them. A response whose folding into a
 * child could not be written is kept (counted in `failed`), so no remaining record loses its conversation; a doomed
 * record that is damaged is removed anyway (its children had lost their conversation already).
 */
export async function removeResponses(s: RemovalStore, app: string, ids: readonly string[]): Promise<RemovalResult> {
  const result: RemovalResult = { removed: [], missing: [], failed: 0, error: null };
  if (ids.length === 0) return result;
  const doomed = new Set(ids);
  const from = Math.min(...ids.map((id) => createdAtOfId(id) ?? 0));
  const children: string[] = [];
  for (const id of await s.idsSince(app, from)) {
    if (doomed.has(id)) continue;
    const parent = await s.parentOf(app, id);
    if (parent !== null && doomed.has(parent)) children.push(id);
  }
  const keep = new Set<string>();
  const loaded = new Map<string, StoredResponseRecord>();
  for (const id of children) {
    let child: StoredResponseRecord;
    let folded: StoredResponseRecord;
    try {
      child = await s.get(app, id);
      folded = await foldOut(s, app, child, doomed, loaded);
    } catch (err) {
      // The child is unreadable, or a doomed ancestor is missing or damaged: nothing can be saved for it.
      s.log(`stored responses: could not keep the conversation of ${id} of app '${app}': ${describeFsError(err)}`);
      continue;
    }
    try {
      await s.rewrite(folded);
    } catch (err) {
      s.log(`stored responses: could not fold deleted responses into ${id} of app '${app}': ${describeFsError(err)}`);
      result.error ??= new PatchbayError(
        "storage_error",
        `Could not delete: the later stored response '${id}' still needs it, and could not be updated (${describeFsError(err)}).`,
      );
      for (let p = child.parent; p !== null && doomed.has(p) && !keep.has(p); p = await s.parentOf(app, p)) keep.add(p);
    }
  }
  for (const id of ids) {
    if (keep.has(id)) {
      result.failed++;
      continue;
    }
    try {
      if (await s.unlink(app, id)) result.removed.push(id);
      else result.missing.push(id);
    } catch (err) {
      if (!(err instanceof PatchbayError)) throw err;
      result.failed++;
      result.error ??= err;
      s.log(`stored responses: could not delete ${id} of app '${app}': ${err.message}`);
    }
  }
  return result;
}
