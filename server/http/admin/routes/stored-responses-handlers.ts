// Handlers of the stored-Responses rows of the admin endpoint table (issue 13): thin calls into the response store's
// admin view (server/responses-store/admin-view.ts).
import { appDataKey } from "../../../../shared/apps";
import { PatchbayError } from "../../../core/errors";
import { listStoredResponses, storedResponseDetail } from "../../../responses-store/admin-view";
import type { ResponseStore } from "../../../responses-store/response-store";
import type { AdminServices } from "../services";
import type { Handler } from "./handler";

type StoredRow = "listStoredResponses" | "getStoredResponse" | "deleteStoredResponse";

/** The store and the app's data key, after checking the app exists (404 `app_not_found`). */
function storeFor(s: AdminServices, name: string): [ResponseStore, string] {
  const app = s.apps.get(name);
  if (!app) throw new PatchbayError("app_not_found", `There is no app named '${name}'.`, { param: "name" });
  if (!s.responses) throw new PatchbayError("backend_unavailable", "Stored responses are not available here.");
  return [s.responses, appDataKey(app)];
}

export const storedResponseHandlers: { [K in StoredRow]: Handler<K> } = {
  listStoredResponses: ({ params, query }, s) => listStoredResponses(...storeFor(s, params.name), query),
  getStoredResponse: ({ params }, s) => storedResponseDetail(...storeFor(s, params.name), params.id),
  deleteStoredResponse: async ({ params }, s) => {
    const [store, key] = storeFor(s, params.name);
    await store.delete(key, params.id);
    return { ok: true as const };
  },
};
