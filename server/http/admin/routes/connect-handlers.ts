// Handlers of the connect rows of the admin endpoint table (issue 17): the dashboard's "Set up" dialog runs the same
// operations as `patchbay connect` (server/connect/connect-service.ts), with this Patchbay's own stores.
import { cliCommandFor } from "../../../connect/patchbay-command";
import type { ConnectClientId } from "../../../../shared/admin/connect";
import { findConnectable, type ConnectableClient } from "../../../clients/registry";
import {
  applyClientConnect,
  previewConnect,
  undoClientConnect,
  verifyClientConnect,
  type ConnectRequest,
} from "../../../connect/connect-service";
import { apiOrigin, storeAccess } from "../../../connect/patchbay-access";
import { PatchbayError } from "../../../core/errors";
import type { AdminServices } from "../services";
import type { Handler } from "./handler";

type ConnectRow = "previewConnect" | "applyConnect" | "undoConnect" | "verifyConnect";

function client(id: ConnectClientId): ConnectableClient {
  const c = findConnectable(id);
  if (!c) throw new PatchbayError("not_found", `Patchbay cannot set up '${id}'.`, { param: "client" });
  return c;
}

function request(s: AdminServices, id: ConnectClientId, model?: string): ConnectRequest {
  const env = s.clientEnv ?? process.env;
  const cli = cliCommandFor(s.status().dataDir, env);
  return { client: client(id), env, cli, ...(model !== undefined ? { model } : {}) };
}

export const connectHandlers: { [K in ConnectRow]: Handler<K> } = {
  previewConnect: ({ params, body }, s) => previewConnect(storeAccess(s), request(s, params.client, body.model)),
  applyConnect: ({ params, body }, s) => applyClientConnect(storeAccess(s), request(s, params.client, body.model)),
  undoConnect: ({ params }, s) => undoClientConnect(s.status().dataDir, request(s, params.client)),
  verifyConnect: ({ params }, s) =>
    verifyClientConnect(request(s, params.client), fetch, async () => apiOrigin(s.status())),
};
