// Walking a stored response's chain of `parent` records (record.ts): its effective input is rebuilt from each
// ancestor's own items and output, oldest first, so no record repeats what an earlier one holds (issue 21 item 6).
// Folding moves a deleted ancestor's items into a child that still needs them. Walks are loops with a depth bound and
// a cycle check, so tampered files give a clear `storage_error`, never a hang or a stack overflow. Reads only.
import { quoteClientText } from "../core/client-text";
import { PatchbayError } from "../core/errors";
import type { StoredItem, StoredResponseRecord } from "./record";

/** Most ancestors one walk reads. Real chains stay far below (each turn is one record, and deletions fold records
 *  away); only hand-edited files reach it. */
export const MAX_CHAIN_DEPTH = 10_000;

/** What a walk reads: a record of the app by id (PatchbayError `response_not_found` when absent). */
export interface ChainReader {
  get(app: string, id: string, param?: string | null): Promise<StoredResponseRecord>;
}

/** Conversations already known by id (a copy of a response's history, see {@link historyOf}); optional. */
export interface KnownHistories {
  history(app: string, id: string): StoredItem[] | undefined;
}

/** 500 `storage_error`: the chain of `id` cannot be rebuilt (`reason` says why). */
function brokenChain(id: string, reason: string): PatchbayError {
  return new PatchbayError(
    "storage_error",
    `The conversation of stored response ${quoteClientText(id)} cannot be rebuilt: ${reason} (Patchbay's data folder was changed by hand or damaged). Start a new conversation, or delete this response with DELETE /v1/responses/${id}.`,
  );
}

/**
 * The conversation `record` continues: its parent's effective input and output, recursively, oldest first (empty when
 * it has no parent). Stops early at an ancestor whose history `known` has.
 * @throws PatchbayError `storage_error` (500) when an ancestor is missing, damaged, loops back or lies deeper than
 *   {@link MAX_CHAIN_DEPTH}.
 */
export async function historyBefore(
  reader: ChainReader,
  app: string,
  record: StoredResponseRecord,
  known?: KnownHistories,
): Promise<StoredItem[]> {
  const ancestors: StoredResponseRecord[] = [];
  const seen = new Set([record.id]);
  let base: StoredItem[] = [];
  for (let parentId = record.parent; parentId !== null;) {
    const cached = known?.history(app, parentId);
    if (cached) {
      base = cached;
      break;
    }
    if (seen.has(parentId))
      throw brokenChain(record.id, `its chain of earlier responses loops back to ${quoteClientText(parentId)}`);
    if (ancestors.length >= MAX_CHAIN_DEPTH)
      throw brokenChain(record.id, `its chain of earlier responses is longer than ${MAX_CHAIN_DEPTH} responses`);
    seen.add(parentId);
    let parent: StoredResponseRecord;
    try {
      parent = await reader.get(app, parentId);
    } catch (err) {
      if (err instanceof PatchbayError && err.code === "response_not_found")
        throw brokenChain(record.id, `the earlier response ${quoteClientText(parentId)} it continues is missing`);
      throw err;
    }
    ancestors.push(parent);
    parentId = parent.parent;
  }
  const items = [...base];
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const a = ancestors[i] as StoredResponseRecord;
    items.push(...a.input, ...a.response.output);
  }
  return items;
}

/** The effective input of `record` (what `input_items` lists): {@link historyBefore}, then its own input. */
export async function effectiveInput(
  reader: ChainReader,
  app: string,
  record: StoredResponseRecord,
  known?: KnownHistories,
): Promise<StoredItem[]> {
  return [...(await historyBefore(reader, app, record, known)), ...record.input];
}

/**
 * The conversation a request continuing response `id` builds on: its effective input, then its output. Throws
 * `response_not_found` (404, `param`) when `id` itself is absent; `storage_error` as {@link historyBefore}.
 */
export async function historyOf(
  reader: ChainReader,
  app: string,
  id: string,
  param: string | null,
  known?: KnownHistories,
): Promise<StoredItem[]> {
  const record = await reader.get(app, id, param);
  return [...(await effectiveInput(reader, app, record, known)), ...record.response.output];
}

/**
 * `child` with the items of its ancestors in `doomed` (about to be deleted) folded into its own input, its `parent`
 * then the first ancestor that stays (or null): its effective input is unchanged, and it no longer needs them.
 * `loaded` caches the doomed records read (one read each when several children need them).
 * @throws what reading a doomed ancestor throws (missing, damaged); `storage_error` for a loop.
 */
export async function foldOut(
  reader: ChainReader,
  app: string,
  child: StoredResponseRecord,
  doomed: ReadonlySet<string>,
  loaded: Map<string, StoredResponseRecord>,
): Promise<StoredResponseRecord> {
  const folded: StoredResponseRecord[] = [];
  const seen = new Set([child.id]);
  let parent = child.parent;
  while (parent !== null && doomed.has(parent)) {
    if (seen.has(parent) || folded.length >= MAX_CHAIN_DEPTH)
      throw brokenChain(child.id, `its chain of earlier responses loops back to ${quoteClientText(parent)}`);
    seen.add(parent);
    let record = loaded.get(parent);
    if (!record) {
      record = await reader.get(app, parent);
      loaded.set(parent, record);
    }
    folded.push(record);
    parent = record.parent;
  }
  const items: StoredItem[] = [];
  for (let i = folded.length - 1; i >= 0; i--) {
    const a = folded[i] as StoredResponseRecord;
    items.push(...a.input, ...a.response.output);
  }
  return { ...child, parent, input: [...items, ...child.input] };
}
