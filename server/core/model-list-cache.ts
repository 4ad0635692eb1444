// The one cache of the connected models: each request resolves its model from it once (the backend keeps no copy);
// briefly cached so requests do not ask OpenCode each time; concurrent callers share one fetch.
import type { ModelBackend, ModelInfo } from "./contract";

/** Model list cache. `ttlMs` defaults to 10 s; errors are not cached. */
export class ModelListCache {
  private cached: { at: number; models: ModelInfo[] } | null = null;
  private inflight: Promise<ModelInfo[]> | null = null;

  constructor(
    private readonly backend: Pick<ModelBackend, "listModels">,
    private readonly now: () => number = Date.now,
    private readonly ttlMs = 10_000,
  ) {}

  /** Connected models; throws what the backend throws (e.g. PatchbayError `backend_starting`). */
  async list(): Promise<ModelInfo[]> {
    if (this.cached && this.now() - this.cached.at < this.ttlMs) return this.cached.models;
    this.inflight ??= this.backend
      .listModels()
      .then((models) => {
        this.cached = { at: this.now(), models };
        return models;
      })
      .finally(() => {
        this.inflight = null;
      });
    return this.inflight;
  }

  /** Drops the cache (e.g. after OpenCode restarted or logins changed). */
  invalidate(): void {
    this.cached = null;
  }
}
