// One rule for images and files inside tool results, on every wire that can carry them (Anthropic `tool_result`,
// Responses `function_call_output` / `custom_tool_call_output`): OpenCode passes tool results to the model as text,
// so each image or file is replaced in the result by a placeholder and follows, in order, in one user message right
// after the run of tool results it came from, with a warning that says so. (Chat completions' tool messages take text
// only, by OpenAI's spec.) Pure.
import type { ContentPart, NeutralMessage, PatchbayWarning } from "./contract";
import { warn } from "./warnings";

/** Text left in a tool result for each image or file moved out of it. */
export const TOOL_RESULT_MEDIA_PLACEHOLDER = "[image: see the next user message]";

/** The warning for media moved out of tool results; `param` names the wire's field (e.g. `input[].output`). */
export function toolResultMediaMoved(param: string, from: readonly string[] = []): PatchbayWarning {
  const where = from.length > 0 ? ` (${from.join(", ")})` : "";
  return warn.approximated(
    param,
    `images/files inside tool results${where} were moved to a user message after the tool results`,
  );
}

/**
 * Collects the media of consecutive tool results and flushes them as one user message once the run of tool
 * results ends (call {@link flush} before any non-tool message and at the end).
 */
export class ToolResultMedia {
  private pending: ContentPart[] = [];
  readonly from: string[] = [];

  /** Keeps `part` (found at `param`) for the next user message; returns the placeholder to leave in the result. */
  move(part: ContentPart, param: string): string {
    this.pending.push(part);
    this.from.push(param);
    return TOOL_RESULT_MEDIA_PLACEHOLDER;
  }

  /** Appends the kept media as a user message to `messages` (nothing when there are none). */
  flush(messages: NeutralMessage[]): void {
    if (this.pending.length === 0) return;
    messages.push({ role: "user", content: this.pending });
    this.pending = [];
  }
}
