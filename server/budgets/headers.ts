// An app's budget utilization in the response headers each client reads, so a client's own status line shows the
// app's budget. Claude Code reads `anthropic-ratelimit-unified-*` (its bundled cli: the status/reset/representative-
// claim/fallback reader and the per-window reader over [five_hour→"5h", seven_day→"7d", …] reading
// `-<w>-utilization` (0..1), `-<w>-reset` (unix s), `-<w>-surpassed-threshold`, `-<w>-status`). Codex reads
// `x-codex-primary-*` / `x-codex-secondary-*` (`-used-percent` 0..100, `-window-minutes`, `-reset-at` unix s).
// OpenAI's own `x-ratelimit-*` headers go on the OpenAI wires for other clients.
import { BUDGET_WINDOWS, type BudgetStatus } from "../../shared/routing";
import { tightest, utilization } from "./policy";

/** Utilization from which a window is reported as near its limit (Claude Code shows a warning). */
export const WARN_AT = 0.8;

/** Epoch ms → unix seconds (rounded up: a client must not retry before the reset). */
function unixS(ms: number): number {
  return Math.ceil(ms / 1000);
}

/** When `s` next changes: its retry time when spent, else when its oldest use leaves the window (now + window when
 *  nothing is counted yet). */
function resetOf(s: BudgetStatus, now: number): number {
  return s.retryAt ?? s.resetAt ?? now + BUDGET_WINDOWS[s.window];
}

/** Claude Code's windows: `5h` is its five-hour window; day and week budgets are reported in its weekly slot. */
function claimOf(s: BudgetStatus): "five_hour" | "seven_day" {
  return s.window === "5h" ? "five_hour" : "seven_day";
}

/**
 * `anthropic-ratelimit-unified-*` for the Anthropic wire: overall status (`allowed`, `allowed_warning` at
 * {@link WARN_AT}, `rejected` on the refusal of a spent budget: an answer that used the last of it was allowed), `-reset` and `-representative-claim` of the tightest budget,
 * and per window (`5h`, `7d`) the tightest budget's utilization, reset, status and, near the limit,
 * `-surpassed-threshold`. Empty when the app has no budget.
 */
export function anthropicBudgetHeaders(
  statuses: readonly BudgetStatus[],
  now: number,
  refused = false,
): Record<string, string> {
  const top = tightest(statuses);
  if (!top) return {};
  const status = (s: BudgetStatus) =>
    s.spent && refused ? "rejected" : utilization(s) >= WARN_AT ? "allowed_warning" : "allowed";
  const h: Record<string, string> = {
    "anthropic-ratelimit-unified-status": status(top),
    "anthropic-ratelimit-unified-reset": String(unixS(resetOf(top, now))),
    "anthropic-ratelimit-unified-representative-claim": claimOf(top),
  };
  for (const [claim, slot] of [
    ["five_hour", "5h"],
    ["seven_day", "7d"],
  ] as const) {
    const s = tightest(statuses.filter((x) => claimOf(x) === claim));
    if (!s) continue;
    const prefix = `anthropic-ratelimit-unified-${slot}`;
    h[`${prefix}-utilization`] = utilization(s).toFixed(4);
    h[`${prefix}-reset`] = String(unixS(resetOf(s, now)));
    h[`${prefix}-status`] = status(s);
    if (utilization(s) >= WARN_AT) h[`${prefix}-surpassed-threshold`] = String(WARN_AT);
  }
  return h;
}

/** OpenAI's duration format for `x-ratelimit-reset-*` (`1s`, `6m0s`, `2h3m4s`). */
export function openAiDuration(ms: number): string {
  let s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  if (h) return `${h}h${m}m${s}s`;
  if (m) return `${m}m${s}s`;
  return `${s}s`;
}

/**
 * Headers for the OpenAI wires: `x-ratelimit-{limit,remaining,reset}-{requests,tokens}` of the tightest budget of
 * each metric, and Codex's `x-codex-primary-*` (the shortest window) and `x-codex-secondary-*` (the next longer one).
 */
export function openAiBudgetHeaders(statuses: readonly BudgetStatus[], now: number): Record<string, string> {
  const h: Record<string, string> = {};
  for (const metric of ["requests", "tokens"] as const) {
    const s = tightest(statuses.filter((x) => x.metric === metric));
    if (!s) continue;
    h[`x-ratelimit-limit-${metric}`] = String(s.limit);
    h[`x-ratelimit-remaining-${metric}`] = String(Math.max(0, s.limit - s.used));
    h[`x-ratelimit-reset-${metric}`] = openAiDuration(resetOf(s, now) - now);
  }
  const windows = [...new Set(statuses.map((s) => s.window))].sort((a, b) => BUDGET_WINDOWS[a] - BUDGET_WINDOWS[b]);
  windows.slice(0, 2).forEach((w, i) => {
    const s = tightest(statuses.filter((x) => x.window === w))!;
    const prefix = `x-codex-${i === 0 ? "primary" : "secondary"}`;
    h[`${prefix}-used-percent`] = (utilization(s) * 100).toFixed(1);
    h[`${prefix}-window-minutes`] = String(BUDGET_WINDOWS[w] / 60_000);
    h[`${prefix}-reset-at`] = String(unixS(resetOf(s, now)));
  });
  return h;
}

/** Every header name {@link anthropicBudgetHeaders} and {@link openAiBudgetHeaders} may set (for CORS' expose list). */
export const BUDGET_HEADER_NAMES: readonly string[] = [
  "anthropic-ratelimit-unified-status",
  "anthropic-ratelimit-unified-reset",
  "anthropic-ratelimit-unified-representative-claim",
  ...["5h", "7d"].flatMap((slot) =>
    ["utilization", "reset", "status", "surpassed-threshold"].map((f) => `anthropic-ratelimit-unified-${slot}-${f}`),
  ),
  ...["limit", "remaining", "reset"].flatMap((f) => ["requests", "tokens"].map((m) => `x-ratelimit-${f}-${m}`)),
  ...["primary", "secondary"].flatMap((p) =>
    ["used-percent", "window-minutes", "reset-at"].map((f) => `x-codex-${p}-${f}`),
  ),
];
