// The limits part of Patchbay's status (issue 24 §4–5): provider models cooling down and the tightest budget of the
// apps in use, plus when that picture next changes on its own (a cooldown ends, a counted use leaves its window),
// so the tray and the Overview are told then without a request.
import type { App } from "../../shared/apps";
import { tightestBudget, type LimitsGlance } from "../../shared/limits";
import type { Cooldowns } from "../routing/cooldowns";
import type { BudgetGuard } from "../budgets/budget-guard";

/** The status's `limits` at `now`. */
export function limitsGlance(
  apps: readonly App[],
  budgets: BudgetGuard,
  cooldowns: Cooldowns,
  now: number,
): LimitsGlance {
  const all = apps.flatMap((app) => budgets.statuses(app, now).map((b) => ({ ...b, app: app.name })));
  return { rateLimited: cooldowns.list(), tightestBudget: tightestBudget(all) };
}

/** The next time (epoch ms, after `now`) `glance` changes by itself, or null. */
export function nextGlanceChange(glance: LimitsGlance, now: number): number | null {
  const times = [
    ...glance.rateLimited.map((r) => r.until),
    ...(glance.tightestBudget ? [glance.tightestBudget.retryAt ?? glance.tightestBudget.resetAt ?? 0] : []),
  ].filter((t) => t > now);
  return times.length ? Math.min(...times) : null;
}

/**
 * Calls `emit` when the limits change: a new refusal, a finished request of an app with budgets (debounced by
 * `debounceMs`), and the next change by time. Timers are unref'd. Returns stop.
 */
export function watchLimits(opts: {
  cooldowns: Cooldowns;
  glance: () => LimitsGlance;
  /** Calls the listener with the app id of every finished request (null: no app). */
  onRequest: (listener: (appId: string | null) => void) => () => void;
  /** True when the app of this id has budgets. */
  appHasBudgets: (appId: string) => boolean;
  emit: () => void;
  now: () => number;
  debounceMs?: number;
}): () => void {
  let soon: NodeJS.Timeout | null = null;
  let later: NodeJS.Timeout | null = null;
  const fire = () => {
    soon = null;
    opts.emit();
    schedule();
  };
  const schedule = () => {
    if (later) clearTimeout(later);
    later = null;
    const now = opts.now();
    const at = nextGlanceChange(opts.glance(), now);
    // Capped: a far reset is rechecked hourly (setTimeout overflows past ~24.8 days anyway).
    if (at !== null) later = setTimeout(fire, Math.min(at - now + 50, 3_600_000)).unref();
  };
  const emitSoon = () => {
    soon ??= setTimeout(fire, opts.debounceMs ?? 500).unref();
  };
  const offCooldown = opts.cooldowns.onChange(emitSoon);
  const offRequest = opts.onRequest((app) => app !== null && opts.appHasBudgets(app) && emitSoon());
  schedule();
  return () => {
    offCooldown();
    offRequest();
    if (soon) clearTimeout(soon);
    if (later) clearTimeout(later);
  };
}
