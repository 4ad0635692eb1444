// Rolling-window budget arithmetic: how much of each budget an app used, when it resets, and whether it is spent.
// Pure: takes the recorded uses and the clock as input.
import { BUDGET_WINDOWS, type Budget, type BudgetStatus } from "../../shared/routing";

/** One counted use: a request (`requests` 1) when admitted, its tokens when it finished. Times are epoch ms. */
export interface UsageRecord {
  t: number;
  requests: number;
  tokens: number;
}

/**
 * Where `budget` stands at `now`, given the app's uses sorted by time. A use counts while `t > now - window`.
 * `resetAt` is when the oldest counted use leaves the window; `retryAt` (spent budgets only) is when enough uses left
 * it for the next request to fit: for requests, when fewer than `limit` remain; for tokens, when fewer than `limit`
 * tokens remain (a request's tokens are unknown before it runs, so one token of room admits it).
 */
export function budgetStatus(budget: Budget, uses: readonly UsageRecord[], now: number): BudgetStatus {
  const windowMs = BUDGET_WINDOWS[budget.window];
  const since = now - windowMs;
  const counted = uses.filter((u) => u.t > since && u.t <= now && u[budget.metric] > 0);
  const used = counted.reduce((n, u) => n + u[budget.metric], 0);
  const first = counted[0];
  const spent = used >= budget.limit;
  let retryAt: number | null = null;
  if (spent) {
    let left = used;
    for (const u of counted) {
      left -= u[budget.metric];
      if (left < budget.limit) {
        retryAt = u.t + windowMs;
        break;
      }
    }
  }
  return { ...budget, used, resetAt: first ? first.t + windowMs : null, spent, retryAt };
}

/** Share of the budget used, 0..1. */
export function utilization(s: BudgetStatus): number {
  return Math.max(0, Math.min(1, s.used / s.limit));
}

/** The budget closest to its limit (highest utilization; a spent one first, the later retry among spent ones). */
export function tightest(statuses: readonly BudgetStatus[]): BudgetStatus | null {
  let best: BudgetStatus | null = null;
  for (const s of statuses) {
    if (!best) best = s;
    else if (s.spent !== best.spent) best = s.spent ? s : best;
    else if (s.spent) best = (s.retryAt ?? 0) > (best.retryAt ?? 0) ? s : best;
    else best = utilization(s) > utilization(best) ? s : best;
  }
  return best;
}
