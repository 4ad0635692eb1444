// Budget admission of one model request: refuses it while a budget of its app is spent (429 in the wire's own form,
// with the reset time), counts it once admitted, counts its tokens when it finished, and names the app's
// utilization in the headers of every answer (headers.ts).
import type { App } from "../../shared/apps";
import { describeBudget, type BudgetStatus } from "../../shared/routing";
import { PatchbayError } from "../core/errors";
import { anthropicBudgetHeaders, openAiBudgetHeaders } from "./headers";
import { budgetStatus, type UsageRecord } from "./policy";
import type { BudgetUsageStore } from "./usage-store";
import { bareCli, type CliCommand } from "../core/cli-command";

/** Which header family a wire's clients read. */
export type BudgetWire = "anthropic" | "openai";

/** A request refused because a budget of its app is spent. `resetsAt` is when it may retry (epoch ms); `headers`
 *  carry the app's utilization (status `rejected`) in the wire's header family. */
export class BudgetExhaustedError extends PatchbayError {
  readonly resetsAt: number;
  readonly headers: Record<string, string>;
  constructor(message: string, resetsAt: number, headers: Record<string, string>, now: number) {
    super("budget_exhausted", message, { retryAfter: Math.max(1, Math.ceil((resetsAt - now) / 1000)) });
    this.resetsAt = resetsAt;
    this.headers = headers;
  }
}

/** A counted request slot: `commit` once the request was admitted, `cancel` when admission failed. */
export interface BudgetReservation {
  /** The utilization headers to send with the answer (the request itself counted). */
  headers: Record<string, string>;
  commit(): void;
  cancel(): void;
}

/** Budget checks for the request runner; one per server. */
export interface BudgetGuard {
  /** Each budget of `app` at `now` (in-flight requests counted). */
  statuses(app: App, now: number): BudgetStatus[];
  /** Reserves one request of `app`, or throws {@link BudgetExhaustedError} (its `headers` say why) when a budget is
   *  spent. */
  reserve(app: App, now: number, wire: BudgetWire): BudgetReservation;
  /** Counts a finished request's tokens (input + output). */
  recordTokens(app: App, now: number, tokens: number): void;
}

/** Headers of `wire` for `statuses` (`refused`: the headers of a refusal). */
export function budgetHeaders(
  wire: BudgetWire,
  statuses: readonly BudgetStatus[],
  now: number,
  refused = false,
): Record<string, string> {
  return wire === "anthropic" ? anthropicBudgetHeaders(statuses, now, refused) : openAiBudgetHeaders(statuses, now);
}

/** "2h 3m" / "4m" / "20s". */
function inWords(ms: number): string {
  const s = Math.max(1, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (h) return `${h}h ${m}m`;
  if (m) return `${m}m`;
  return `${s}s`;
}

/** Creates the guard over a usage store. */
export function createBudgetGuard(store: BudgetUsageStore, cli: CliCommand = bareCli): BudgetGuard {
  /** Requests admitted but not yet committed, per app id (they count, so concurrent requests cannot overrun). */
  const pending = new Map<string, number[]>();
  const usesOf = (app: App): UsageRecord[] => {
    const extra = (pending.get(app.id) ?? []).map((t) => ({ t, requests: 1, tokens: 0 }));
    const uses = [...store.uses(app.id), ...extra];
    return extra.length ? uses.sort((a, b) => a.t - b.t) : uses;
  };
  const statuses = (app: App, now: number) => app.budgets.map((b) => budgetStatus(b, usesOf(app), now));
  return {
    statuses,
    reserve(app, now, wire) {
      const before = statuses(app, now);
      const spent = before.filter((s) => s.spent);
      if (spent.length > 0) {
        const retryAt = Math.max(...spent.map((s) => s.retryAt ?? now + 1000));
        const worst = spent.find((s) => s.retryAt === retryAt) ?? spent[0]!;
        throw new BudgetExhaustedError(
          `The app '${app.name}' has used its budget of ${describeBudget(worst)} (${worst.used} used). ` +
            `Try again after ${new Date(retryAt).toISOString()} (in ${inWords(retryAt - now)}), or raise it on the ` +
            `app's Limits tab in the Patchbay dashboard (or: ${cli(`app budget ${app.name} --${worst.metric} N/${worst.window}`)}).`,
          retryAt,
          // Both official SDKs honour `x-should-retry`: retrying before the reset cannot succeed.
          { ...budgetHeaders(wire, before, now, true), "x-should-retry": "false" },
          now,
        );
      }
      // Counted with no budget too: a budget set later counts the use already inside its window, and removing one
      // and setting it again neither forgets nor resurrects what happened between.
      if (app.budgets.length === 0)
        return { headers: {}, commit: () => store.recordRequest(app.id, now), cancel: () => undefined };
      const list = pending.get(app.id) ?? [];
      list.push(now);
      pending.set(app.id, list);
      let done = false;
      const drop = () => {
        if (done) return false;
        done = true;
        const i = list.indexOf(now);
        if (i >= 0) list.splice(i, 1);
        if (list.length === 0) pending.delete(app.id);
        return true;
      };
      return {
        headers: budgetHeaders(wire, statuses(app, now), now),
        commit: () => drop() && store.recordRequest(app.id, now),
        cancel: () => void drop(),
      };
    },
    recordTokens(app, now, tokens) {
      store.recordTokens(app.id, now, tokens);
    },
  };
}
