// What one OpenCode process knows that every request asks: its built-in tool ids and its provider list, loaded once
// per process (keyed by its URL) through the default instance, and warmed when a process becomes ready.
import type { OpencodeClient } from "@opencode-ai/sdk/v2";
import type { OpenCodeStatus } from "../../../shared/status";
import type { ModelInfo } from "../../core/contract";
import type { InstancePool } from "../process/instance-pool";
import type { OpenCodeSupervisor } from "../process/supervisor";
import { CALL_TIMEOUT_MS, callOpenCode, describe } from "./opencode-call";
import { mapProviders } from "./models";

/** Built-in tool ids and models of the current OpenCode process. */
export class OpenCodeCatalog {
  private runUrl: string | null = null;
  private builtins: Promise<string[]> | null = null;
  private modelsLoading: Promise<ModelInfo[]> | null = null;
  private lastModels: ModelInfo[] | null = null;
  private readonly offStatus: () => void;

  /** Follows `supervisor`'s status; a new process also resets `instances` (it has none booted). */
  constructor(
    private readonly supervisor: OpenCodeSupervisor,
    private readonly instances: InstancePool,
    private readonly log: (line: string) => void,
  ) {
    this.offStatus = supervisor.onStatus((s) => this.onStatus(s));
    this.onStatus(supervisor.status());
  }

  /** A client of the default instance (no client tools). */
  defaultClient(): OpencodeClient {
    const dir = this.supervisor.defaultDirectory();
    return dir ? this.supervisor.client(dir) : this.supervisor.client();
  }

  /** The provider list as ModelInfo. One call for everyone waiting: requests held during a recycle are let in
   *  together. Throws PatchbayError `backend_unavailable`. */
  models(): Promise<ModelInfo[]> {
    this.modelsLoading ??= callOpenCode("list the providers", () =>
      this.defaultClient().config.providers({}, { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) }),
    )
      .then((res) => (this.lastModels = mapProviders(res.providers)))
      .finally(() => {
        this.modelsLoading = null;
      });
    return this.modelsLoading;
  }

  /** The last provider list any OpenCode process gave (kept across restarts and sleeps), null before the first. */
  lastKnownModels(): ModelInfo[] | null {
    return this.lastModels;
  }

  /** OpenCode's built-in tool ids (the default instance has no client tools: its ids are exactly the built-ins).
   *  Cached per process; a failure is not cached. Throws PatchbayError `backend_unavailable`. */
  builtinToolIds(): Promise<string[]> {
    this.builtins ??= callOpenCode("list the built-in tools", () =>
      this.defaultClient().tool.ids({}, { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) }),
    ).catch((err: unknown) => {
      this.builtins = null;
      throw err;
    });
    return this.builtins;
  }

  /** Stops following the supervisor. */
  close(): void {
    this.offStatus();
  }

  private onStatus(s: OpenCodeStatus): void {
    if (s.url === this.runUrl) return;
    this.runUrl = s.url;
    this.builtins = null;
    this.modelsLoading = null;
    this.instances.reset(); // a new OpenCode process has no instances
    // Warm the default instance (model list, built-in tool ids) so the first request does not pay for it.
    if (s.state === "ready")
      void this.models()
        .then(() => this.builtinToolIds())
        .catch((err: unknown) => {
          // A stop or crash right after `ready` fails the warm-up too; only a live OpenCode's failure is news.
          if (this.supervisor.status().state === "ready" && !this.supervisor.stopRequested)
            this.log(`[opencode] warm-up failed: ${describe(err)}`);
        });
  }
}
