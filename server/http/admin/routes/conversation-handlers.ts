// Handlers of the conversation rows of the admin endpoint table (issue 21 §3.3): deleting whole conversations of an
// app through the request records (server/conversations). No HTTP details.
import { PatchbayError } from "../../../core/errors";
import type { Handler } from "./handler";

export const conversationHandlers: { deleteConversations: Handler<"deleteConversations"> } = {
  deleteConversations: ({ params, body }, s) => {
    if (!s.apps.get(params.name))
      throw new PatchbayError("app_not_found", `There is no app named '${params.name}'.`, { param: "name" });
    const del = s.history?.deleteConversations;
    if (!del) throw new PatchbayError("backend_unavailable", "Session history is not available in this Patchbay.");
    return del(params.name, body.ids);
  },
};
