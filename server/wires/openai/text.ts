// How text parts become one text where the neutral contract has a single string (system texts, tool results).
// Shared by both decoders so the same conversation decodes the same from either wire.
import type { PatchbayWarning } from "../../core/contract";
import { warn } from "../../core/warnings";

/** Separator used when a message's text parts are joined into one text (system/developer texts, tool results). */
export const TEXT_PART_SEPARATOR = "\n";

/** Joins text parts with {@link TEXT_PART_SEPARATOR}. */
export function joinTexts(texts: readonly string[]): string {
  return texts.join(TEXT_PART_SEPARATOR);
}

/** The warning for system/developer messages that came after the conversation started (one note for all):
 *  OpenCode can only place system text before the conversation (DESIGN §3), so they are hoisted. `param` is the
 *  wire's list (`messages`, `input`); `where` names the items. */
export function hoistWarning(param: string, where: readonly string[]): PatchbayWarning {
  return warn.approximated(
    param,
    `system/developer message after the conversation started was moved to the system prompt: ${where.join(", ")}`,
  );
}
