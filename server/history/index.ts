// Entry of the history feature for the composition root and the admin listener: builds the service and the sweeper
// from Patchbay's parts, and names what the admin API needs of them. Owns no logic of its own.
import type { HistoryLimits } from "../../shared/apps";
import type { LastSweep, PrunePreview, SweepResult } from "../../shared/admin/history";
import { appDirectory } from "../opencode/process/instance-pool";
import { HistoryService, type PruneOptions } from "./history-service";
import type { OpenCodeClientFactory, OpenCodeHistoryPort } from "./opencode-port";
import { Sweeper } from "./sweeper";

export { HistoryService } from "./history-service";
export { Sweeper, describeSweep } from "./sweeper";

/** What the admin API calls (see server/http/admin/routes/history-handlers.ts). */
export interface AdminHistory {
  service: Pick<HistoryService, "list" | "messages" | "delete" | "deleteOne" | "previewPrune">;
  /** "Prune now" (a bounded sweep with the app's saved limits, queued behind a running one) and the last result. */
  runNow(app: string, opts?: { dryRun?: boolean }): Promise<SweepResult>;
  lastSweep(app: string): LastSweep;
}

/** Inputs of {@link createHistory}. */
export interface CreateHistoryOptions {
  /** The OpenCode supervisor (`client()` throws PatchbayError `backend_unavailable` while it is down). */
  opencode: OpenCodeClientFactory;
  /** The OpenCode calls (default: the adapter over `opencode`); the composition root passes one that counts as a use
   *  of OpenCode, so the keep-alive never stops it under a history call. */
  port?: OpenCodeHistoryPort;
  /** False while automatic sweeps (timer, after requests) must not run, e.g. OpenCode sleeps and waking it for a
   *  sweep is not due; "Prune now" always runs. Default: always. */
  automaticSweeps?: () => boolean;
  /** Patchbay's data folder (apps' session folders are `<dataDir>/apps/<data key>/<toolset>/`). */
  dataDir: string;
  /** The data key of app `name` (shared/apps.ts `appDataKey`; default: the name itself). */
  dataKeyOf?: (name: string) => string;
  /** Saved history limits of an app; null when the app does not exist. */
  limitsOf(app: string): HistoryLimits | null;
  /** Every app name (for the periodic sweep). */
  apps(): string[];
  /** Patchbay requests in flight across apps; sweeps yield to them. */
  activeRequests?: () => number;
  /** Directories with a live OpenCode instance (the instance pool's `liveDirectories()`). */
  liveDirectories?: () => readonly string[];
  log: (line: string) => void;
  now?: () => number;
  /** Stored Responses, pruned with the app's sessions by the same limits (same sweeps, "Prune now" and preview). */
  responses?: PrunableResponses;
}

/** What the history needs of the stored-Responses store (server/responses-store/response-store.ts). */
export interface PrunableResponses {
  /** Responses over `limits` now (oldest first). */
  overLimits(app: string, limits: HistoryLimits, now: number): Promise<unknown[]>;
  /** Deletes them (at most `budget`). */
  prune(app: string, limits: HistoryLimits, now: number, budget?: number): Promise<{ removed: string[] }>;
}

/** The history service, its background sweeper (call `sweeper.start()` / `stop()`, and `sweeper.notifyRequest(app)`
 *  after each request), and the admin API's view of both. */
export function createHistory(o: CreateHistoryOptions): {
  service: HistoryService;
  sweeper: Sweeper;
  admin: AdminHistory;
} {
  const service = new HistoryService({
    opencode: o.opencode,
    ...(o.port ? { port: o.port } : {}),
    appsDir: (app) => appDirectory(o.dataDir, o.dataKeyOf ? o.dataKeyOf(app) : app),
    hasApp: (app) => o.limitsOf(app) !== null,
    ...(o.now ? { now: o.now } : {}),
    ...(o.activeRequests ? { activeRequests: o.activeRequests } : {}),
    ...(o.liveDirectories ? { liveDirectories: o.liveDirectories } : {}),
  });
  const now = o.now ?? Date.now;
  const responses = o.responses;
  // Stored responses go first: they need no OpenCode, so they are pruned even while it is down.
  const prune = async (app: string, opts: PruneOptions): Promise<SweepResult> => {
    if (!responses) return service.prune(app, opts);
    const gone = opts.dryRun ? 0 : (await responses.prune(app, opts.limits, now())).removed.length;
    return { ...(await service.prune(app, opts)), responsesRemoved: gone };
  };
  const previewPrune = async (app: string, limits: HistoryLimits): Promise<PrunePreview> => {
    const preview = await service.previewPrune(app, limits);
    return responses ? { ...preview, responses: (await responses.overLimits(app, limits, now())).length } : preview;
  };
  const sweeper = new Sweeper({
    prune,
    limitsOf: o.limitsOf,
    apps: o.apps,
    log: o.log,
    ...(o.now ? { now: o.now } : {}),
    ...(o.automaticSweeps ? { automaticAllowed: o.automaticSweeps } : {}),
  });
  const admin: AdminHistory = {
    service: {
      list: (app, q) => service.list(app, q),
      messages: (app, id, q) => service.messages(app, id, q),
      delete: (app, ids) => service.delete(app, ids),
      deleteOne: (app, id) => service.deleteOne(app, id),
      previewPrune,
    },
    runNow: (app, opts) => sweeper.runNow(app, opts),
    lastSweep: (app) => ({ sweep: sweeper.lastSweep(app), sweeping: sweeper.isSweeping(app) }),
  };
  return { service, sweeper, admin };
}
