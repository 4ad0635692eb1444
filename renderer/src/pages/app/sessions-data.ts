// Helpers shared by the Sessions tab, the session view and the prune panel: query keys and token display.
import type { SessionSummary } from "../../../../shared/admin-api";
import { openAiTokenTotals } from "../../../../shared/admin/history";
import { formatNumber } from "../../lib/format";

/** Query key prefix of an app's session pages (invalidated after deletes and prunes). */
export const sessionsKey = (app: string) => ["sessions", app] as const;

/** Input and output tokens in OpenAI terms (OpenCode stores cache reads and reasoning apart). */
export function tokenText(s: SessionSummary): string {
  const t = openAiTokenTotals(s.tokens);
  return `${formatNumber(t.input)} / ${formatNumber(t.output)}`;
}
