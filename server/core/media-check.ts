// Refuses images and files for a model that cannot read them, before the request reaches OpenCode (which would
// otherwise replace them by an "ERROR: Cannot read file…" note in the user's text). Pure: no I/O.
import type { ModelInfo, NeutralRequest } from "./contract";
import { PatchbayError } from "./errors";

/** Most model ids the message suggests instead. */
const MAX_SUGGESTIONS = 5;

/**
 * Throws PatchbayError 400 `invalid_request_error` when `request` carries a media part (image or file) and `model`
 * takes no attachments (`capabilities.attachment === false`). `param` names the first media part where the client
 * put it (the part's own `param`, else its neutral position `messages[i].content[j]`); the message names the model and which of
 * `candidates` (the models the app may use) accept attachments.
 */
export function assertModelAcceptsMedia(
  request: NeutralRequest,
  model: ModelInfo,
  candidates: readonly ModelInfo[],
): void {
  if (model.capabilities.attachment) return;
  for (const [i, message] of request.messages.entries()) {
    if (message.role === "tool") continue;
    const j = message.content.findIndex((part) => part.type === "media");
    const part = message.content[j];
    if (part?.type !== "media") continue;
    const what = part.mediaType.startsWith("image/") ? "images" : "files";
    const able = candidates.filter((m) => m.capabilities.attachment).map((m) => m.id);
    const suggestion =
      able.length === 0
        ? "None of the models this app may use accept them; send text only."
        : `Models that do: ${able.slice(0, MAX_SUGGESTIONS).join(", ")}${able.length > MAX_SUGGESTIONS ? ", …" : ""}.`;
    throw new PatchbayError(
      "invalid_request_error",
      `The model '${model.id}' does not accept ${what} (it takes text only). ${suggestion}`,
      { param: part.param ?? `messages[${i}].content[${j}]` },
    );
  }
}
