// Pure mapping of OpenCode messages and parts to the session view of the admin API: texts, reasoning, tool calls and
// results, images as size-capped data URLs or placeholders. Bookkeeping parts (steps, snapshots) are left out.
import { z } from "zod";
import type { MessagePart, SessionMessage } from "../../shared/admin/history";
import { fromOpenCodeToolName } from "../opencode/protocol/tool-names";
import { tokensOf, type RawMessage, type RawPart } from "./opencode-port";

/** Caps of one page of the session view. Sizes in characters (texts) and bytes (images). */
export interface ViewLimits {
  /** Per text/reasoning part. */
  maxText: number;
  /** Per tool input or output. */
  maxToolText: number;
  /** An image larger than this is a placeholder. */
  maxImageBytes: number;
  /** Images inlined on one page in total; later ones become placeholders. */
  pageImageBytes: number;
}

/** Defaults: a page stays around 1–2 MB of JSON at most. */
export const DEFAULT_VIEW_LIMITS: ViewLimits = {
  maxText: 20_000,
  maxToolText: 8_000,
  maxImageBytes: 150_000,
  pageImageBytes: 1_000_000,
};

const TextPart = z.object({ type: z.literal("text"), text: z.string(), synthetic: z.boolean().optional() });
const ReasoningPart = z.object({ type: z.literal("reasoning"), text: z.string() });
const ToolPart = z.object({
  type: z.literal("tool"),
  callID: z.string(),
  tool: z.string(),
  state: z.object({
    status: z.enum(["pending", "running", "completed", "error"]),
    input: z.unknown().optional(),
    output: z.string().optional(),
    error: z.string().optional(),
  }),
});
const FilePart = z.object({
  type: z.literal("file"),
  mime: z.string(),
  filename: z.string().optional(),
  url: z.string(),
});

function cut(text: string, max: number): { text: string; truncated: boolean } {
  return text.length > max ? { text: text.slice(0, max), truncated: true } : { text, truncated: false };
}

/** Decoded size of a base64 data URL's payload, or null when `url` is not a base64 data URL. */
export function dataUrlBytes(url: string): number | null {
  const m = /^data:[^,]*;base64,/i.exec(url);
  if (!m) return null;
  const b64 = url.slice(m[0].length).replace(/\s/g, "");
  const padding = b64.endsWith("==") ? 2 : b64.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((b64.length * 3) / 4) - padding);
}

/** Mutable budget shared by the messages of one page. */
interface Budget {
  imageBytesLeft: number;
}

function mapPart(raw: RawPart, limits: ViewLimits, budget: Budget): MessagePart | null {
  switch (raw.type) {
    case "text": {
      const p = TextPart.safeParse(raw);
      if (!p.success) return null;
      return { type: "text", ...cut(p.data.text, limits.maxText), synthetic: p.data.synthetic === true };
    }
    case "reasoning": {
      const p = ReasoningPart.safeParse(raw);
      if (!p.success) return null;
      return { type: "reasoning", ...cut(p.data.text, limits.maxText) };
    }
    case "tool": {
      const p = ToolPart.safeParse(raw);
      if (!p.success) return null;
      const input = cut(JSON.stringify(p.data.state.input ?? {}) ?? "{}", limits.maxToolText);
      const result =
        p.data.state.status === "completed"
          ? (p.data.state.output ?? "")
          : p.data.state.status === "error"
            ? (p.data.state.error ?? "")
            : null;
      const output = result === null ? null : cut(result, limits.maxToolText);
      return {
        type: "tool",
        callId: p.data.callID,
        tool: fromOpenCodeToolName(p.data.tool),
        status: p.data.state.status,
        input: input.text,
        output: output?.text ?? null,
        truncated: input.truncated || (output?.truncated ?? false),
      };
    }
    case "file": {
      const p = FilePart.safeParse(raw);
      if (!p.success) return null;
      const bytes = dataUrlBytes(p.data.url);
      const filename = p.data.filename ?? null;
      if (!p.data.mime.toLowerCase().startsWith("image/")) return { type: "file", mime: p.data.mime, filename, bytes };
      const inline = bytes !== null && bytes <= limits.maxImageBytes && bytes <= budget.imageBytesLeft;
      if (inline) budget.imageBytesLeft -= bytes;
      return { type: "image", mime: p.data.mime, filename, bytes, dataUrl: inline ? p.data.url : null };
    }
    default:
      // step-start/finish, snapshot, patch, agent, retry, compaction, subtask: bookkeeping, not conversation.
      return null;
  }
}

/** Maps one message. `budget` is shared across a page (see {@link mapMessages}). */
function mapMessage(m: RawMessage, limits: ViewLimits, budget: Budget): SessionMessage {
  const info = m.info;
  const model =
    info.role === "assistant"
      ? info.providerID && info.modelID
        ? `${info.providerID}/${info.modelID}`
        : null
      : info.model
        ? `${info.model.providerID}/${info.model.modelID}`
        : null;
  return {
    id: info.id,
    role: info.role,
    createdAt: info.time.created ?? null,
    completedAt: info.time.completed ?? null,
    model,
    finish: info.finish ?? null,
    error: info.error ? (info.error.data?.message ?? info.error.name) : null,
    tokens: info.role === "assistant" && info.tokens ? tokensOf(info.tokens) : null,
    parts: m.parts.map((p) => mapPart(p, limits, budget)).filter((p): p is MessagePart => p !== null),
  };
}

/** Maps a page of messages (in the given order), sharing one inline-image budget across it. */
export function mapMessages(
  messages: readonly RawMessage[],
  limits: ViewLimits = DEFAULT_VIEW_LIMITS,
): SessionMessage[] {
  const budget: Budget = { imageBytesLeft: limits.pageImageBytes };
  return messages.map((m) => mapMessage(m, limits, budget));
}

/** A placeholder for a message OpenCode cannot return. */
export function unreadableMessage(id: string, role: "user" | "assistant", reason: string): SessionMessage {
  return {
    id,
    role,
    createdAt: null,
    completedAt: null,
    model: null,
    finish: null,
    error: null,
    tokens: null,
    parts: [{ type: "unreadable", reason }],
  };
}
