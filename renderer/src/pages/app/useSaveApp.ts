// Saving a patch of the current app: updates the cached app and the apps list, exposes pending/error/saved state.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AppUpdate } from "../../../../shared/admin-api";
import { api, qk } from "../../api";

export function useSaveApp(name: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (patch: AppUpdate) => api.updateApp({ params: { name }, body: patch }),
    onSuccess: (app) => {
      qc.setQueryData(qk.app(name), app);
      void qc.invalidateQueries({ queryKey: qk.apps });
    },
  });
}
