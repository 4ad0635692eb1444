// Plain-text views of stored Responses items for the dashboard: who said what (message text, tool calls and results).
// Pure: no React, no fetching.

/** One item of a stored conversation as the dashboard shows it. */
export interface ItemView {
  id: string;
  /** "User", "Assistant", "System", "Developer", "Tool call", "Tool result", "Reasoning", or the item type. */
  who: string;
  /** CSS role class: `user`, `assistant` or `other`. */
  tone: "user" | "assistant" | "other";
  text: string;
}

function partsText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((p: unknown) => {
      if (typeof p !== "object" || p === null) return "";
      const part = p as Record<string, unknown>;
      if (typeof part.text === "string") return part.text;
      if (typeof part.refusal === "string") return part.refusal;
      if (part.type === "input_image") return "[image]";
      if (part.type === "input_file") return `[file ${typeof part.filename === "string" ? part.filename : ""}]`;
      return `[${String(part.type)}]`;
    })
    .join("\n");
}

/** The view of one stored item (input or output). */
export function viewItem(item: { id: string; type: string } & Record<string, unknown>): ItemView {
  switch (item.type) {
    case "message": {
      const role = typeof item.role === "string" ? item.role : "user";
      const who = role.charAt(0).toUpperCase() + role.slice(1);
      const tone = role === "user" ? "user" : role === "assistant" ? "assistant" : "other";
      return { id: item.id, who, tone, text: partsText(item.content) };
    }
    case "function_call":
      return {
        id: item.id,
        who: "Tool call",
        tone: "assistant",
        text: `${String(item.name)}(${typeof item.arguments === "string" ? item.arguments : ""})  [${String(item.call_id)}]`,
      };
    case "function_call_output":
      return { id: item.id, who: "Tool result", tone: "other", text: partsText(item.output) };
    case "reasoning":
      return { id: item.id, who: "Reasoning", tone: "other", text: partsText(item.summary) };
    default:
      return { id: item.id, who: item.type, tone: "other", text: JSON.stringify(item) };
  }
}
