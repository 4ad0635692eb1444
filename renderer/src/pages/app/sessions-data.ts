// Helpers shared by the Sessions tab, the session view and the prune panel: token display.
import type { SessionSummary } from "../../../../shared/admin-api";
import { openAiTokenTotals } from "../../../../shared/admin/history";
import { formatNumber } from "../../lib/format";

/** Input and output tokens in OpenAI terms (OpenCode stores cache reads and reasoning apart). */
export function tokenText(s: SessionSummary): string {
  const t = openAiTokenTotals(s.tokens);
  return `${formatNumber(t.input)} / ${formatNumber(t.output)}`;
}
