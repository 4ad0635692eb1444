// The Usage tab's budgets (issue 24 §5): each budget of the app as used/limit with a meter and when it resets (or,
// when spent, when requests are taken again). Display only; the numbers come from the usage report.
import { useId } from "react";
import { Link } from "react-router";
import { budgetFraction } from "../../../../shared/limits";
import { describeBudget, type BudgetStatus } from "../../../../shared/routing";
import { formatNumber, formatTime } from "../../lib/format";

/** One row per budget; nothing when the app has none. */
export function BudgetUse({ budgets, now = Date.now() }: { budgets: readonly BudgetStatus[]; now?: number }) {
  const id = useId();
  if (budgets.length === 0) return null;
  return (
    <section className="card stack" aria-labelledby={id}>
      <div className="card-header row spread">
        <h3 id={id}>Budgets</h3>
        <Link to="../limits">Change</Link>
      </div>
      <ul className="stack" style={{ listStyle: "none", margin: 0, padding: 0 }} aria-label="Budget use">
        {budgets.map((b) => {
          const pct = Math.round(budgetFraction(b) * 100);
          const when =
            b.spent && b.retryAt !== null
              ? `spent: requests are refused until ${formatTime(b.retryAt, now)}`
              : b.resetAt !== null
                ? `resets ${formatTime(b.resetAt, now)}`
                : "nothing counted yet";
          return (
            <li key={`${b.metric}/${b.window}`} className="stack" aria-label={describeBudget(b)}>
              <div className="row spread">
                <span>
                  <strong className="num">
                    {formatNumber(b.used)}/{formatNumber(b.limit)}
                  </strong>{" "}
                  {b.metric} per {b.window === "5h" ? "5 hours" : b.window}
                </span>
                <span className={b.spent ? "badge danger" : "faint"}>{when}</span>
              </div>
              <meter
                min={0}
                max={b.limit}
                value={Math.min(b.used, b.limit)}
                high={b.limit * 0.8}
                style={{ width: "100%" }}
              >
                {pct}%
              </meter>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
