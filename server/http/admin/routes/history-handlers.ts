// Handlers of the session-history rows of the admin endpoint table (issue 6): thin calls into the history service
// and sweeper (server/history). No HTTP details, no OpenCode calls of their own.
import type { HistoryLimits } from "../../../../shared/apps";
import type { PrunePreviewQuery } from "../../../../shared/admin-api";
import { PatchbayError } from "../../../core/errors";
import type { AdminHistory } from "../../../history";
import type { AdminServices } from "../services";
import type { Handler } from "./handler";

type HistoryRow =
  | "listSessions"
  | "getSessionMessages"
  | "deleteSession"
  | "deleteSessions"
  | "previewPrune"
  | "pruneNow"
  | "getLastSweep";

function requireHistory(s: AdminServices): AdminHistory {
  if (!s.history) throw new PatchbayError("backend_unavailable", "Session history is not available in this Patchbay.");
  return s.history;
}

/** The app's saved history limits, or 404 `app_not_found`. */
function savedLimits(s: AdminServices, name: string): HistoryLimits {
  const app = s.apps.get(name);
  if (!app) throw new PatchbayError("app_not_found", `There is no app named '${name}'.`, { param: "name" });
  return app.history;
}

/** Limits of a preview: each query value wins (`none` = keep forever), else the saved one. */
export function previewLimits(saved: HistoryLimits, q: PrunePreviewQuery): HistoryLimits {
  const pick = (v: number | "none" | undefined, fallback: number | null) =>
    v === undefined ? fallback : v === "none" ? null : v;
  return { maxSessions: pick(q.maxSessions, saved.maxSessions), maxAgeDays: pick(q.maxAgeDays, saved.maxAgeDays) };
}

export const historyHandlers: { [K in HistoryRow]: Handler<K> } = {
  listSessions: ({ params, query }, s) => {
    savedLimits(s, params.name);
    return requireHistory(s).service.list(params.name, query);
  },
  getSessionMessages: ({ params, query }, s) => {
    savedLimits(s, params.name);
    return requireHistory(s).service.messages(params.name, params.id, query);
  },
  deleteSession: async ({ params }, s) => {
    savedLimits(s, params.name);
    await requireHistory(s).service.deleteOne(params.name, params.id);
    return { ok: true as const };
  },
  deleteSessions: ({ params, body }, s) => {
    savedLimits(s, params.name);
    return requireHistory(s).service.delete(params.name, body.ids);
  },
  previewPrune: ({ params, query }, s) =>
    requireHistory(s).service.previewPrune(params.name, previewLimits(savedLimits(s, params.name), query)),
  pruneNow: ({ params, body }, s) => {
    savedLimits(s, params.name);
    return requireHistory(s).runNow(params.name, { dryRun: body.dryRun === true });
  },
  getLastSweep: ({ params }, s) => {
    savedLimits(s, params.name);
    return requireHistory(s).lastSweep(params.name);
  },
};
