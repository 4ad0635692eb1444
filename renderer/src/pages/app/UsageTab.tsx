// Usage of one app per day: requests (ok / errors) and tokens (input / output) as bar charts, plus period totals.
// Loaded lazily (default export) because the chart library is large.
import { useId, useMemo, useState, type ReactNode } from "react";
import { useQuery } from "@tanstack/react-query";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { ChartColumn } from "lucide-react";
import type { DailyUsage } from "../../../../shared/admin-api";
import { api, qk } from "../../api";
import { EmptyState, ErrorState, Loading } from "../../components/States";
import { formatCompact, formatNumber } from "../../lib/format";
import { useCurrentApp } from "./context";
import { BudgetUse } from "./BudgetUse";

const PERIODS = [7, 30, 90] as const;
// Mid-tone colours that read on both the light and the dark theme.
const COLORS = { ok: "#4f6bed", errors: "#e5534b", input: "#2f9e8f", output: "#d98b2b" };
const AXIS = { fontSize: 11, fill: "#8a9099" };

function localDay(d: Date): string {
  const m = String(d.getMonth() + 1).padStart(2, "0");
  const day = String(d.getDate()).padStart(2, "0");
  return `${d.getFullYear()}-${m}-${day}`;
}

/** One row per local day of the period (days without traffic as zeros), oldest first. */
function fillDays(days: DailyUsage[], n: number): (DailyUsage & { label: string; ok: number })[] {
  const by = new Map(days.map((d) => [d.day, d]));
  const out: (DailyUsage & { label: string; ok: number })[] = [];
  const today = new Date();
  for (let i = n - 1; i >= 0; i--) {
    const d = new Date(today.getFullYear(), today.getMonth(), today.getDate() - i);
    const key = localDay(d);
    const u = by.get(key) ?? {
      day: key,
      requests: 0,
      errors: 0,
      inputTokens: 0,
      outputTokens: 0,
      cachedTokens: 0,
      reasoningTokens: 0,
    };
    out.push({
      ...u,
      ok: Math.max(0, u.requests - u.errors),
      label: d.toLocaleDateString(undefined, { month: "short", day: "numeric" }),
    });
  }
  return out;
}

function ChartCard({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="card" aria-labelledby={id}>
      <div className="card-header">
        <h3 id={id}>{title}</h3>
      </div>
      <div className="chart-box">{children}</div>
    </section>
  );
}

export default function UsageTab() {
  const app = useCurrentApp();
  const [days, setDays] = useState<number>(30);
  const usage = useQuery({
    queryKey: qk.usage(app.name, days),
    queryFn: () => api.getUsage({ params: { name: app.name }, query: { days } }),
  });
  const rows = useMemo(() => (usage.data ? fillDays(usage.data.days, days) : []), [usage.data, days]);
  const totals = rows.reduce(
    (t, r) => ({
      requests: t.requests + r.requests,
      errors: t.errors + r.errors,
      input: t.input + r.inputTokens,
      output: t.output + r.outputTokens,
      cached: t.cached + r.cachedTokens,
      reasoning: t.reasoning + r.reasoningTokens,
    }),
    { requests: 0, errors: 0, input: 0, output: 0, cached: 0, reasoning: 0 },
  );

  return (
    <section className="stack-lg" aria-label="Usage">
      <div className="row spread">
        <div role="radiogroup" aria-label="Period" className="row">
          {PERIODS.map((p) => (
            <label
              key={p}
              className="btn sm"
              style={days === p ? { borderColor: "var(--accent)", color: "var(--accent)" } : undefined}
            >
              <input
                type="radio"
                name="usage-period"
                className="visually-hidden"
                checked={days === p}
                onChange={() => setDays(p)}
              />
              {p} days
            </label>
          ))}
        </div>
      </div>
      {usage.data ? <BudgetUse budgets={usage.data.budgets} /> : null}
      {usage.isPending ? (
        <Loading label="Loading usage…" />
      ) : usage.isError ? (
        <ErrorState title="Could not load usage" error={usage.error} onRetry={() => void usage.refetch()} />
      ) : totals.requests === 0 ? (
        <div className="card">
          <EmptyState icon={<ChartColumn size={22} aria-hidden />} title="No requests in this period">
            Usage appears here once a client calls this app.
          </EmptyState>
        </div>
      ) : (
        <>
          <div className="grid grid-4">
            <div className="card stat">
              <span className="stat-label">Requests</span>
              <span className="stat-value">{formatNumber(totals.requests)}</span>
            </div>
            <div className="card stat">
              <span className="stat-label">Errors</span>
              <span className="stat-value">{formatNumber(totals.errors)}</span>
            </div>
            <div className="card stat">
              <span className="stat-label">Input tokens</span>
              <span className="stat-value" title={`${formatNumber(totals.cached)} cached`}>
                {formatCompact(totals.input)}
              </span>
            </div>
            <div className="card stat">
              <span className="stat-label">Output tokens</span>
              <span className="stat-value" title={`${formatNumber(totals.reasoning)} reasoning`}>
                {formatCompact(totals.output)}
              </span>
            </div>
          </div>
          <div className="grid grid-2">
            <ChartCard title="Requests per day">
              <ResponsiveContainer width="100%" height="100%">
                <BarChart data={rows} margin={{ top: 4, right: 4, bottom: 0, left: -16 }}>
                  <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#8a909933" />
                  <XAxis dataKey="label" tick={AXIS} tickLine={false} axisLine={false} minTickGap={16} />
                  <YAxis tick={AXIS} tickLine={false} axisLine={false} allowDecimals={false} />
                  <Tooltip cursor={{ fill: "#8a909922" }} />
                  <Legend wrapperStyle={{ fontSize: 12 }} />
                  <Bar
                    isAnimationActive={false}
                    dataKey="ok"
                    name="Succeeded"
                    stackId="r"
                    fill={COLORS.ok}
                    radius={[0, 0, 0, 0]}
                  />
                  <Bar
                    isAnimationActive={false}
                    dataKey="errors"
                    name="Errors"
                    stackId="r"
                    fill={COLORS.errors}
                    radius={[3, 3, 0, 0]}
                  />
                </BarChart>
              </ResponsiveContainer>
            </ChartCard>
            <ChartCard title="Tokens per day">
              <ResponsiveContainer width="100%" height="100%">
                <BarChart data={rows} margin={{ top: 4, right: 4, bottom: 0, left: -8 }}>
                  <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#8a909933" />
                  <XAxis dataKey="label" tick={AXIS} tickLine={false} axisLine={false} minTickGap={16} />
                  <YAxis
                    tick={AXIS}
                    tickLine={false}
                    axisLine={false}
                    tickFormatter={(v: number) => formatCompact(v)}
                  />
                  <Tooltip cursor={{ fill: "#8a909922" }} formatter={(v) => formatNumber(Number(v))} />
                  <Legend wrapperStyle={{ fontSize: 12 }} />
                  <Bar isAnimationActive={false} dataKey="inputTokens" name="Input" stackId="t" fill={COLORS.input} />
                  <Bar
                    isAnimationActive={false}
                    dataKey="outputTokens"
                    name="Output"
                    stackId="t"
                    fill={COLORS.output}
                    radius={[3, 3, 0, 0]}
                  />
                </BarChart>
              </ResponsiveContainer>
            </ChartCard>
          </div>
        </>
      )}
    </section>
  );
}
