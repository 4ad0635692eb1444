// The Overview's limits card (issue 24 §4–5): provider models rate-limited now ("rate-limited until …", each linked
// to its refusal in the log) and the tightest budget of the apps in use. Display only; the data is the status's
// `limits`.
import { useId } from "react";
import { Link } from "react-router";
import { Gauge } from "lucide-react";
import { activeRateLimits, budgetFraction, type LimitsGlance } from "../../../shared/limits";
import { describeBudget } from "../../../shared/routing";
import { formatTime } from "../lib/format";

/** The log page opened on one entry (`at`: around when it was written). */
export function logEntryLink(id: string, at: number): string {
  return `/logs?entry=${encodeURIComponent(id)}&at=${Math.round(at)}`;
}

/** Nothing when no model is rate-limited and no app with a budget is in use. */
export function OverviewLimits({ limits, now = Date.now() }: { limits: LimitsGlance | undefined; now?: number }) {
  const id = useId();
  const rateLimited = limits ? activeRateLimits(limits.rateLimited, now) : [];
  const budget = limits?.tightestBudget ?? null;
  if (rateLimited.length === 0 && !budget) return null;
  return (
    <section className="card stack" aria-labelledby={id}>
      <div className="row">
        <Gauge size={16} aria-hidden className="faint" />
        <h2 id={id}>Limits</h2>
      </div>
      {rateLimited.length ? (
        <ul className="stack" style={{ listStyle: "none", margin: 0, padding: 0 }} aria-label="Rate-limited models">
          {rateLimited.map((r) => (
            <li key={r.model} className="row spread" title={r.message ?? undefined}>
              <span>
                <code>{r.model}</code> <span className="badge warn">rate-limited until {formatTime(r.until, now)}</span>
              </span>
              {r.logId ? <Link to={logEntryLink(r.logId, r.since)}>See the refusal</Link> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {budget ? (
        <p className="muted" aria-label="Tightest budget" style={{ margin: 0 }}>
          Tightest budget: <Link to={`/apps/${encodeURIComponent(budget.app)}/usage`}>{budget.app}</Link> {budget.used}/
          {describeBudget(budget)} ({Math.round(budgetFraction(budget) * 100)}%)
          {budget.spent && budget.retryAt !== null
            ? `, spent until ${formatTime(budget.retryAt, now)}`
            : budget.resetAt !== null
              ? `, resets ${formatTime(budget.resetAt, now)}`
              : ""}
        </p>
      ) : null}
    </section>
  );
}
