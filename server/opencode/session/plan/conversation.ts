// A request's conversation as OpenCode-internal history (what the plugin puts in place of the session's own
// messages): user parts, assistant text, signed reasoning, tool calls folded with their results; the trigger text.
import type { ContentPart, ModelInfo, NeutralMessage, SignedReasoning, ToolCall } from "../../../core/contract";
import type { WarningList } from "../../../core/warnings";
import { warn } from "../../../core/warnings";
import { assertJsonDepth } from "../../../core/json-depth";
import type { CompanionMessage } from "../../protocol/companion-plugin";
import { BRIDGE_AGENT } from "../../process/home/opencode-config";
import { toOpenCodeToolName } from "../../protocol/tool-names";
import { BRIDGE_JSON_DEPTH } from "./shared";
import type { PlanContext } from "./types";

/** The AI SDK package of Anthropic providers: the only one that can verify signed thinking blocks. */
const ANTHROPIC_NPM = "@ai-sdk/anthropic";
/** A tool call's result when the client sent none. */
const NO_RESULT = "[no result provided by client]";

/** `messages` as OpenCode-internal messages (ids from `ctx.idPrefix`, times `ctx.now`); tool results fold into the
 *  assistant's tool parts. Throws PatchbayError 400 for tool-call arguments nested deeper than BRIDGE_JSON_DEPTH. */
export function toInternalMessages(
  messages: NeutralMessage[],
  model: Pick<ModelInfo, "providerID" | "modelID" | "npm">,
  ctx: PlanContext,
  warnings: WarningList,
): CompanionMessage[] {
  // Every tool message answers an earlier call (a neutral-contract invariant); the first answer of a call counts.
  const results = new Map<string, string>();
  for (const m of messages) if (m.role === "tool" && !results.has(m.toolCallId)) results.set(m.toolCallId, m.content);
  let seq = 0;
  const id = (kind: "msg" | "prt") => `${kind}_pb${ctx.idPrefix}${(seq++).toString(36).padStart(4, "0")}`;
  const out: CompanionMessage[] = [];
  const ref = { providerID: model.providerID, modelID: model.modelID };
  let lastUserId: string | undefined;
  for (const m of messages) {
    if (m.role === "tool") continue; // folded into the assistant's tool part
    const msgId = id("msg");
    if (m.role === "user") {
      lastUserId = msgId;
      out.push({
        info: { id: msgId, role: "user", time: { created: ctx.now }, agent: BRIDGE_AGENT, model: ref },
        parts: m.content.map((p) => userPart(p, id("prt"))),
      });
      continue;
    }
    const parts: CompanionMessage["parts"] = reasoningParts(m.reasoning ?? [], model, id, ctx.now, warnings);
    for (const p of m.content) {
      if (p.type === "text" && p.text !== "") parts.push({ id: id("prt"), type: "text", text: p.text });
      else if (p.type === "media")
        warnings.add(warn.dropped("messages[].content", "media in an assistant message was dropped"));
    }
    for (const c of m.toolCalls) parts.push(toolPart(c, results.get(c.id), id("prt"), ctx.now, warnings));
    out.push({
      info: {
        id: msgId,
        role: "assistant",
        time: { created: ctx.now, completed: ctx.now },
        ...(lastUserId ? { parentID: lastUserId } : {}),
        ...ref,
        mode: BRIDGE_AGENT,
        agent: BRIDGE_AGENT,
        path: { cwd: "/", root: "/" },
        cost: 0,
        tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
        finish: m.toolCalls.length ? "tool-calls" : "stop",
      },
      parts,
    });
  }
  return out;
}

/** Signed reasoning as OpenCode reasoning parts whose `metadata` is the AI SDK provider metadata
 *  (`{anthropic: {signature}}` / `{anthropic: {redactedData}}`): OpenCode sends it back as providerOptions when the
 *  message's model is the request's model, and @ai-sdk/anthropic turns it into a `thinking` / `redacted_thinking`
 *  block. Other providers cannot verify it: dropped with a warning. */
function reasoningParts(
  reasoning: SignedReasoning[],
  model: Pick<ModelInfo, "npm">,
  id: (kind: "prt") => string,
  now: number,
  warnings: WarningList,
): CompanionMessage["parts"] {
  if (reasoning.length === 0) return [];
  if (model.npm !== ANTHROPIC_NPM) {
    warnings.add(
      warn.dropped(
        "messages[].reasoning",
        "signed thinking blocks in history dropped: only an Anthropic provider can verify them",
      ),
    );
    return [];
  }
  return reasoning.map((r) => ({
    id: id("prt"),
    type: "reasoning",
    text: r.text,
    metadata: {
      anthropic: r.redactedData !== undefined ? { redactedData: r.redactedData } : { signature: r.signature ?? "" },
    },
    time: { start: now, end: now },
  }));
}

function userPart(p: ContentPart, partId: string): CompanionMessage["parts"][number] {
  if (p.type === "text") return { id: partId, type: "text", text: p.text };
  return { id: partId, type: "file", mime: p.mediaType, url: p.url, filename: p.filename ?? "file" };
}

function toolPart(
  c: ToolCall,
  result: string | undefined,
  partId: string,
  now: number,
  warnings: WarningList,
): CompanionMessage["parts"][number] {
  let input: Record<string, unknown> = {};
  if (c.arguments.trim() !== "") {
    try {
      const parsed: unknown = JSON.parse(c.arguments);
      if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
        input = parsed as Record<string, unknown>;
      else throw new Error("not an object");
    } catch {
      input = { _raw: c.arguments };
      warnings.add(
        warn.approximated(
          "messages[].tool_calls[].arguments",
          `arguments of tool call "${c.id}" are not a JSON object; sent as {"_raw": …}`,
        ),
      );
    }
    assertJsonDepth(input, "messages", `the arguments of tool call "${c.id}"`, BRIDGE_JSON_DEPTH);
  }
  const time = { start: now, end: now };
  const state =
    result !== undefined
      ? { status: "completed", input, output: result, title: "", metadata: {}, time }
      : { status: "error", input, error: NO_RESULT, metadata: {}, time };
  return { id: partId, type: "tool", tool: toOpenCodeToolName(c.name), callID: c.id, state };
}

/** Text of the last user message with text (stored as the session's prompt; the plugin replaces it upstream). */
export function triggerText(messages: NeutralMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== "user") continue;
    const text = m.content.flatMap((p) => (p.type === "text" && p.text ? [p.text] : [])).join("\n");
    if (text) return text;
  }
  return "(continue)";
}
