// History pruning of one app, shown under the history limits editor: a live preview of what the limits being edited
// would delete now, a "Prune now" button (runs one bounded sweep with the saved limits) and the last sweep's result.
import { useId, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Scissors } from "lucide-react";
import { useDebounced } from "../../hooks/useDebounced";
import type { HistoryLimits } from "../../../../shared/apps";
import type { SweepResult } from "../../../../shared/admin-api";
import { api, errorMessage, qk } from "../../api";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { Callout } from "../../components/States";
import { usePruneNow } from "../../mutations";
import { formatDateTime, formatMs, formatNumber, formatRelative } from "../../lib/format";

/** "1 stored response" / "3 stored responses". */
function plural(n: number, noun: string): string {
  return `${formatNumber(n)} ${noun}${n === 1 ? "" : "s"}`;
}

function SweepLine({ r }: { r: SweepResult }) {
  return (
    <span>
      {r.dryRun
        ? "Dry run"
        : r.trigger === "manual"
          ? "Manual prune"
          : r.trigger === "timer"
            ? "Scheduled sweep"
            : "Sweep after requests"}{" "}
      <span title={formatDateTime(r.finishedAt)}>{formatRelative(r.finishedAt)}</span> (
      {formatMs(r.finishedAt - r.startedAt)}): removed <strong>{formatNumber(r.removed)}</strong>, already gone{" "}
      {formatNumber(r.alreadyMissing)}, failed {formatNumber(r.failed)}, kept running {formatNumber(r.skippedRunning)}
      {r.responsesRemoved !== undefined ? `, stored responses removed ${formatNumber(r.responsesRemoved)}` : ""}
      {r.remaining > 0
        ? `; more left for the next sweep (at least ${formatNumber(r.remaining)})`
        : "; nothing left over the limits"}
      .{r.error ? <span className="error-text"> {r.error}</span> : null}
    </span>
  );
}

export interface PrunePanelProps {
  app: string;
  /** The limits being edited (null while the form is invalid). */
  limits: HistoryLimits | null;
  /** The saved limits ("Prune now" and automatic sweeps use these). */
  saved: HistoryLimits;
}

export function PrunePanel({ app, limits, saved }: PrunePanelProps) {
  const headingId = useId();
  const editing = useDebounced(limits, 400);
  const hasLimits = editing !== null && (editing.maxSessions !== null || editing.maxAgeDays !== null);
  const preview = useQuery({
    queryKey: qk.prunePreview(app, editing?.maxSessions ?? "none", editing?.maxAgeDays ?? "none"),
    enabled: hasLimits,
    queryFn: () =>
      api.previewPrune({
        params: { name: app },
        query: { maxSessions: editing?.maxSessions ?? "none", maxAgeDays: editing?.maxAgeDays ?? "none" },
      }),
  });
  const last = useQuery({
    queryKey: qk.lastSweep(app),
    queryFn: () => api.getLastSweep({ params: { name: app } }),
    refetchInterval: (q) => (q.state.data?.sweeping ? 1000 : 10_000),
  });
  const [confirming, setConfirming] = useState(false);
  const prune = usePruneNow(app);
  const savedHasLimits = saved.maxSessions !== null || saved.maxAgeDays !== null;
  const unsaved =
    limits !== null && (limits.maxSessions !== saved.maxSessions || limits.maxAgeDays !== saved.maxAgeDays);

  return (
    <section className="card stack" aria-labelledby={headingId}>
      <h2 id={headingId}>Prune</h2>
      <div role="status" aria-label="Prune preview" className="prune-preview">
        {editing === null ? (
          <p className="faint">Fix the limits above to see a preview.</p>
        ) : !hasLimits ? (
          <p className="faint">No limits: every session is kept.</p>
        ) : preview.isPending ? (
          <p className="faint">Counting…</p>
        ) : preview.isError ? (
          <Callout tone="danger">Could not preview: {errorMessage(preview.error)}</Callout>
        ) : (
          <>
            <p>
              With these limits, a prune would delete{" "}
              <strong data-testid="prune-preview-count">{formatNumber(preview.data.count)}</strong> of{" "}
              {formatNumber(preview.data.scanned)} sessions
              {preview.data.oldest !== null && preview.data.newest !== null
                ? ` (last active ${formatDateTime(preview.data.oldest)} to ${formatDateTime(preview.data.newest)})`
                : ""}
              {preview.data.skippedRunning
                ? `; ${formatNumber(preview.data.skippedRunning)} running would be kept`
                : ""}
              {preview.data.responses !== undefined ? `, and ${plural(preview.data.responses, "stored response")}` : ""}
              .
            </p>
            {preview.data.sample.length ? (
              <ul className="prune-sample" aria-label="Sessions a prune would delete">
                {preview.data.sample.map((s) => (
                  <li key={s.id}>
                    {s.title || s.id} <span className="faint">{formatDateTime(s.updatedAt)}</span>
                  </li>
                ))}
                {preview.data.count > preview.data.sample.length ? (
                  <li className="faint">… and {formatNumber(preview.data.count - preview.data.sample.length)} more</li>
                ) : null}
              </ul>
            ) : null}
          </>
        )}
      </div>
      <div className="row">
        <button
          type="button"
          className="btn"
          disabled={!savedHasLimits || prune.isPending}
          onClick={() => setConfirming(true)}
        >
          <Scissors size={15} aria-hidden />
          {prune.isPending ? "Pruning…" : "Prune now"}
        </button>
        <span className="faint">
          {savedHasLimits
            ? unsaved
              ? "Uses the saved limits: save your changes first."
              : "Runs one bounded sweep now with the saved limits."
            : "Save a limit first."}
        </span>
      </div>
      {prune.isError ? <Callout tone="danger">{errorMessage(prune.error)}</Callout> : null}
      <div className="last-sweep" role="group" aria-label="Last sweep">
        <strong>Last sweep: </strong>
        {last.data?.sweeping ? (
          <span className="badge info pulse">
            <span className="dot" />
            Sweeping
          </span>
        ) : null}{" "}
        {last.data?.sweep ? (
          <SweepLine r={last.data.sweep} />
        ) : last.isPending ? (
          <span className="faint">Loading…</span>
        ) : last.isError ? null : (
          <span className="faint">none since Patchbay started.</span>
        )}
        {last.isError ? (
          // "none since Patchbay started" would be a guess when the endpoint failed: say so (and keep any older result above).
          <span className="last-sweep-error">
            <span className="error-text">
              {last.data?.sweep ? " Could not refresh: " : "Could not load it: "}
              {errorMessage(last.error)}
            </span>{" "}
            <button type="button" className="btn sm" onClick={() => void last.refetch()} disabled={last.isFetching}>
              Try again
            </button>
          </span>
        ) : null}
      </div>
      {confirming ? (
        <ConfirmDialog
          title="Prune now"
          confirmLabel="Yes, prune"
          onConfirm={() => prune.mutateAsync()}
          onClose={() => setConfirming(false)}
        >
          <p>
            Delete this app's sessions beyond its saved history limits, oldest first? Running sessions are kept. This
            cannot be undone.
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
