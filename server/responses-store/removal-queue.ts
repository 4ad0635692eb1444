// Coordination of an app's deletions of stored responses with everything else the store does: deletions of one app run
// one at a time (folds of one deletion never race another's), the ids being deleted are remembered (a response that
// continues one of them and is written meanwhile stands alone: response-store.ts `put`), and a chain walk that failed
// while a deletion ran is tried once more after it. In memory; no I/O of its own.
import { PatchbayError } from "../core/errors";
import type { RemovalResult } from "./remove";

/** How many deleted ids are remembered for responses that were running when their parent was deleted. */
const DOOMED_KEPT = 10_000;

/** See the module comment. */
export class RemovalQueue {
  /** `app/id` being or recently deleted (the newest {@link DOOMED_KEPT}). */
  private readonly doomed = new Set<string>();
  /** Per app, its last deletion. */
  private readonly last = new Map<string, Promise<RemovalResult>>();
  /** Per app, +1 when a deletion starts and when it ends (odd: one is running). */
  private readonly ticks = new Map<string, number>();

  /** Runs `remove` after the app's earlier deletions, `ids` marked as being deleted meanwhile (and after, for those
   *  it removed or found gone). */
  run(app: string, ids: readonly string[], remove: () => Promise<RemovalResult>): Promise<RemovalResult> {
    for (const id of ids) this.mark(`${app}/${id}`);
    const run = (this.last.get(app) ?? Promise.resolve())
      .catch(() => {})
      .then(() => this.tick(app))
      .then(remove)
      .finally(() => this.tick(app))
      .then((r) => {
        const gone = new Set([...r.removed, ...r.missing]);
        for (const id of ids) if (!gone.has(id)) this.doomed.delete(`${app}/${id}`);
        return r;
      });
    this.last.set(app, run);
    return run;
  }

  /** True while `id` is being deleted, and for a while after. */
  isDoomed(app: string, id: string): boolean {
    return this.doomed.has(`${app}/${id}`);
  }

  /** Runs a chain walk; when it fails with `storage_error` while a deletion of the app ran (it may have folded a
   *  record the walk read before removing that record's parent), once more after that deletion. */
  async walk<T>(app: string, fn: () => Promise<T>): Promise<T> {
    const before = this.ticks.get(app) ?? 0;
    try {
      return await fn();
    } catch (err) {
      const now = this.ticks.get(app) ?? 0;
      if (!(err instanceof PatchbayError && err.code === "storage_error") || (now === before && now % 2 === 0))
        throw err;
      await this.last.get(app)?.catch(() => {});
      return fn();
    }
  }

  /** Forgets the app (deleted). */
  forgetApp(app: string): void {
    for (const k of this.doomed) if (k.startsWith(`${app}/`)) this.doomed.delete(k);
  }

  private tick(app: string): void {
    this.ticks.set(app, (this.ticks.get(app) ?? 0) + 1);
  }

  private mark(key: string): void {
    this.doomed.delete(key);
    this.doomed.add(key);
    for (const k of this.doomed) {
      if (this.doomed.size <= DOOMED_KEPT) break;
      this.doomed.delete(k);
    }
  }
}
