// Responses input items only Codex sends (read from @openai/codex 0.171.0's ResponseItem): `agent_message` (a message
// between agents in its multi-agent mode; content is a string or `input_text` parts) becomes user text naming its
// author, and `compaction` (OpenAI's server-side summary of earlier turns, encrypted for OpenAI) is dropped with a
// warning, since no model behind Patchbay can read it. Pure.
import type { PatchbayWarning } from "./contract";
import { warn } from "./warnings";

/** The fields of an `agent_message` item this reads. */
export interface AgentMessageLike {
  author?: string | null;
  recipient?: string | null;
  content?: string | { type: string; text?: string | undefined }[] | null;
}

/** The item as one user text: `Message from <author> to <recipient>:` and its text parts. */
export function agentMessageText(item: AgentMessageLike): string {
  const texts =
    typeof item.content === "string" ? [item.content] : (item.content ?? []).map((p) => p.text ?? "").filter(Boolean);
  const from = item.author ? `Message from ${item.author}` : "Message from another agent";
  const to = item.recipient ? ` to ${item.recipient}` : "";
  return `${from}${to}:\n${texts.join("\n")}`;
}

/** Says which `compaction` items were dropped. */
export function compactionWarning(at: readonly string[]): PatchbayWarning {
  return warn.dropped(
    "input[].compaction",
    `compaction items dropped (${at.join(", ")}): they hold OpenAI's encrypted summary of earlier turns, which no ` +
      "model behind Patchbay can read; Codex compacts locally when its provider is not named OpenAI",
  );
}
