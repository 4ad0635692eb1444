// Limits at a glance (issue 24 §4–5): the provider models that refused with a retry time, and the tightest budget of
// the apps in use, as the status carries them, plus the short texts the Overview and the tray show. No Node, no DOM.
import { z } from "zod";
import { BudgetStatus, describeBudget } from "./routing";

/** A provider model that answered 429 with a retry time (through OpenCode). Times are epoch ms. */
export const UpstreamRateLimit = z.object({
  /** `provider/model[#variant]`. */
  model: z.string(),
  /** The provider id (the part before the first `/`). */
  provider: z.string(),
  /** When it may be tried again. */
  until: z.number(),
  /** When it refused. */
  since: z.number(),
  /** The request-log entry of the refusal (null when unknown). */
  logId: z.string().nullable(),
  /** The provider's words, as Patchbay passed them on (null when none). */
  message: z.string().nullable(),
});
export type UpstreamRateLimit = z.infer<typeof UpstreamRateLimit>;

/** One app's budget as seen at a glance. */
export const AppBudgetGlance = BudgetStatus.extend({ app: z.string() });
export type AppBudgetGlance = z.infer<typeof AppBudgetGlance>;

/** What the status says of limits. */
export const LimitsGlance = z.object({
  /** Provider models cooling down now, soonest first. */
  rateLimited: z.array(UpstreamRateLimit),
  /** The budget closest to spent among the apps in use (a budget with something counted), else null. */
  tightestBudget: AppBudgetGlance.nullable(),
});
export type LimitsGlance = z.infer<typeof LimitsGlance>;

/** Share of a budget used, 0…1 (a spent budget is 1). */
export function budgetFraction(b: BudgetStatus): number {
  return b.spent ? 1 : Math.min(1, b.used / b.limit);
}

/** The budget closest to spent among `budgets` with something counted (ties: the one resetting last), else null. */
export function tightestBudget(budgets: readonly AppBudgetGlance[]): AppBudgetGlance | null {
  let best: AppBudgetGlance | null = null;
  for (const b of budgets) {
    if (b.used <= 0) continue;
    const d = best === null ? 1 : budgetFraction(b) - budgetFraction(best);
    if (d > 0 || (best && d === 0 && (b.resetAt ?? 0) > (best.resetAt ?? 0))) best = b;
  }
  return best;
}

/** `HH:MM` in local time (`formatTime` overrides, e.g. for tests or a locale). */
export type TimeFormat = (epochMs: number) => string;
const localTime: TimeFormat = (t) => new Date(t).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });

/** "mock/mock-model rate-limited until 14:05". */
export function rateLimitLine(r: UpstreamRateLimit, formatTime: TimeFormat = localTime): string {
  return `${r.model} rate-limited until ${formatTime(r.until)}`;
}

/** "claude-code: 80/100 requests per 5 hours, resets 15:00" (a spent one: "spent, retry at 15:00"). */
export function budgetLine(b: AppBudgetGlance, formatTime: TimeFormat = localTime): string {
  const used = `${b.app}: ${b.used}/${describeBudget(b)}`;
  if (b.spent && b.retryAt !== null) return `${used}, spent until ${formatTime(b.retryAt)}`;
  return b.resetAt !== null ? `${used}, resets ${formatTime(b.resetAt)}` : used;
}

/** The models still cooling at `now`, soonest first. */
export function activeRateLimits(list: readonly UpstreamRateLimit[], now: number): UpstreamRateLimit[] {
  return list.filter((r) => r.until > now).sort((a, b) => a.until - b.until);
}
