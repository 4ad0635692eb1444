// The dashboard's destructive actions as react-query mutations, each with the query keys (qk) it makes stale.
// Kept beside each other so "what does deleting X invalidate" has one answer; components only call them.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { DeleteSessionsResult } from "../../shared/admin-api";
import { api, qk } from "./api";

/** Deletes an app. `onDeleted` runs first (navigate away), so nothing still shown refetches an app that is gone. */
export function useDeleteApp(name: string, onDeleted: () => Promise<void> | void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.deleteApp({ params: { name } }),
    onSuccess: async () => {
      await onDeleted();
      // Mark the app and everything under it stale without refetching (a refetch would only 404); a new app of the
      // same name then loads fresh.
      void qc.invalidateQueries({ queryKey: qk.app(name), refetchType: "none" });
      void qc.invalidateQueries({ queryKey: qk.apps });
      void qc.invalidateQueries({ queryKey: qk.status });
    },
  });
}

/** Revokes one key of an app (the apps list shows key counts). */
export function useRevokeKey(app: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (prefix: string) => api.revokeKey({ params: { name: app, prefix } }),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: qk.keys(app) });
      void qc.invalidateQueries({ queryKey: qk.apps });
    },
  });
}

/**
 * Deletes sessions of an app. Resolves with the server's per-id outcome even when some failed (the caller shows it),
 * then rejects if any failed, so a confirmation dialog stays open with the reason.
 */
export function useDeleteSessions(app: string, onOutcome: (r: DeleteSessionsResult) => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (ids: string[]) => {
      const r = await api.deleteSessions({ params: { name: app }, body: { ids } });
      // The outcome shows once the list is fresh, so "Deleted 3." never stands beside the rows it deleted.
      await qc.invalidateQueries({ queryKey: qk.sessions(app) });
      onOutcome(r);
      void qc.invalidateQueries({ queryKey: qk.prunePreviews(app) });
      if (r.failed.length) throw new Error(`${r.failed.length} could not be deleted: ${r.failed[0]?.message ?? ""}`);
      return r;
    },
  });
}

/** Deletes whole conversations of an app (every request of each, also those not loaded); outcome as above. */
export function useDeleteConversations(app: string, onOutcome: (r: DeleteSessionsResult) => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (ids: string[]) => {
      const r = await api.deleteConversations({ params: { name: app }, body: { ids } });
      // The outcome shows once the list is fresh, so "Deleted 3." never stands beside the rows it deleted.
      await qc.invalidateQueries({ queryKey: qk.sessions(app) });
      onOutcome(r);
      void qc.invalidateQueries({ queryKey: qk.prunePreviews(app) });
      if (r.failed.length) throw new Error(`${r.failed.length} could not be deleted: ${r.failed[0]?.message ?? ""}`);
      return r;
    },
  });
}

/** Runs one prune of an app with its saved limits (sessions and the stored responses that go with them). */
export function usePruneNow(app: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.pruneNow({ params: { name: app }, body: {} }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: qk.lastSweep(app) });
      void qc.invalidateQueries({ queryKey: qk.prunePreviews(app) });
      // Reset, not just stale: the Sessions tab must not show the pruned sessions again while it refetches.
      void qc.resetQueries({ queryKey: qk.sessions(app) });
      void qc.invalidateQueries({ queryKey: qk.storedResponses(app) });
    },
  });
}

/** Deletes one stored response of an app. `onDeleted` runs first (close its view), as for {@link useDeleteApp}. */
export function useDeleteStoredResponse(app: string, onDeleted: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.deleteStoredResponse({ params: { name: app, id } }),
    onSuccess: async (_r, id) => {
      onDeleted();
      // The deleted one's detail would only 404 now; the list (and other responses' details) refresh.
      qc.removeQueries({ queryKey: qk.storedResponse(app, id) });
      await qc.invalidateQueries({ queryKey: qk.storedResponses(app) });
    },
  });
}
