// What every wire decoder guarantees about the neutral request it produces (the contract's invariants), checked once,
// by the runner, so later layers (policy, the OpenCode planner) rely on them instead of re-checking with other outcomes.
import type { NeutralRequest } from "./contract";
import { shortenClientText } from "./client-text";
import { PatchbayError } from "./errors";

/**
 * Throws PatchbayError 400 `invalid_request_error` unless `request` keeps the neutral contract:
 * 1. tool names are unique (`param` "tools");
 * 2. every tool message answers a tool call of an earlier assistant message, and tool call ids are unique
 *    (`param` "messages");
 * 3. a named `tool_choice` names one of `tools` (`param` "tool_choice").
 * Decoders refuse these with the client's own field names first; this is the guarantee for every wire, present and
 * future, so a decoder that misses one still gets a clear 400, never a silently changed conversation.
 */
export function assertNeutralInvariants(request: NeutralRequest): void {
  const names = new Set<string>();
  for (const t of request.tools) {
    if (names.has(t.name))
      throw bad(`Two tools are named "${shortenClientText(t.name)}"; tool names must be unique.`, "tools");
    names.add(t.name);
  }
  const calls = new Set<string>();
  for (const m of request.messages) {
    if (m.role === "assistant")
      for (const c of m.toolCalls) {
        if (calls.has(c.id))
          throw bad(
            `Two tool calls have the id "${shortenClientText(c.id)}"; tool call ids must be unique.`,
            "messages",
          );
        calls.add(c.id);
      }
    if (m.role === "tool" && !calls.has(m.toolCallId))
      throw bad(
        `A tool result answers "${shortenClientText(m.toolCallId)}", which no earlier assistant tool call has.`,
        "messages",
      );
  }
  const choice = request.toolChoice;
  if (typeof choice === "object" && !names.has(choice.name))
    throw bad(`tool_choice names "${shortenClientText(choice.name)}", which is not among the tools.`, "tool_choice");
}

function bad(message: string, param: string): PatchbayError {
  return new PatchbayError("invalid_request_error", message, { param });
}
