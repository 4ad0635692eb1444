// Overview: start/stop the OpenAI API, its base URL, OpenCode's state, today's numbers and notices.
import { useId, useState } from "react";
import { Link } from "react-router";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Cpu, LoaderCircle, Power, Server } from "lucide-react";
import { api, errorMessage, qk, useStatus } from "../api";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { CopyButton } from "../components/CopyButton";
import { PageHeader } from "../components/PageHeader";
import { ApiBadge, OpenCodeBadge } from "../components/StatusBadge";
import { NoModelsNotice } from "../components/NoModelsNotice";
import { Callout, ErrorState, Loading } from "../components/States";
import { EMPTY, formatNumber, formatUptime } from "../lib/format";
import { openCodeStateLine, RuntimeFacts } from "./OverviewRuntime";
import { OverviewLimits } from "./OverviewLimits";

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="card stat">
      <span className="stat-label">{label}</span>
      <span className="stat-value">{value}</span>
    </div>
  );
}

export function OverviewPage() {
  const status = useStatus();
  const qc = useQueryClient();
  const apiId = useId();
  const ocId = useId();
  const toggle = useMutation({
    mutationFn: (start: boolean) => (start ? api.startApi() : api.stopApi()),
    onSuccess: (s) => qc.setQueryData(qk.status, s),
  });
  const restart = useMutation({
    mutationFn: () => api.restartOpenCode(),
    onSuccess: (s) => qc.setQueryData(qk.status, s),
  });
  // Stopping cuts off every client at once: ask first (starting needs no confirmation).
  const [confirmStop, setConfirmStop] = useState(false);

  if (status.isPending)
    return (
      <div className="page">
        <Loading label="Connecting to Patchbay…" />
      </div>
    );
  if (status.isError) {
    return (
      <div className="page">
        <PageHeader title="Overview" />
        <ErrorState title="Patchbay is not answering" error={status.error} onRetry={() => void status.refetch()} />
      </div>
    );
  }
  const s = status.data;
  const running = s.api.running;
  const oc = s.opencode;

  return (
    <div className="page">
      <PageHeader title="Overview" subtitle="Your OpenCode logins, served as a local OpenAI-compatible API." />

      {s.notices.map((n) => (
        <Callout key={n} tone="warn">
          {n}
        </Callout>
      ))}
      <NoModelsNotice />
      {s.logError ? <Callout tone="warn">The request log cannot be written: {s.logError}</Callout> : null}
      {s.demo ? (
        <Callout>
          Demo mode: the built-in <code>demo</code> provider answers requests without any real model.
        </Callout>
      ) : null}

      <section className="card hero" aria-labelledby={apiId}>
        <div>
          <div className="row">
            <Server size={16} aria-hidden className="faint" />
            <h2 id={apiId}>OpenAI API</h2>
            <ApiBadge api={s.api} />
            {s.api.lanExposure ? <span className="badge warn">LAN exposed</span> : null}
          </div>
          {running && s.api.baseUrl ? (
            <div className="base-url">
              <code>{s.api.baseUrl}</code>
              <CopyButton text={s.api.baseUrl} label="Copy base URL" />
            </div>
          ) : (
            <p className="muted" style={{ marginTop: 10 }}>
              {s.api.error ? s.api.error : `Stopped. Starts on ${s.api.host}:${s.api.port}.`}
            </p>
          )}
          {toggle.isError ? (
            <div style={{ marginTop: 10 }}>
              <Callout tone="danger">{errorMessage(toggle.error)}</Callout>
            </div>
          ) : null}
        </div>
        <button
          type="button"
          className={`btn lg power-btn ${running ? "" : "primary"}`}
          onClick={() => (running ? setConfirmStop(true) : toggle.mutate(true))}
          disabled={toggle.isPending}
          aria-busy={toggle.isPending}
        >
          {toggle.isPending ? <LoaderCircle className="spin" size={18} aria-hidden /> : <Power size={18} aria-hidden />}
          {running ? "Stop API" : "Start API"}
        </button>
        {confirmStop ? (
          <ConfirmDialog
            title="Stop the API?"
            confirmLabel="Yes, stop"
            onConfirm={() => toggle.mutateAsync(false)}
            onClose={() => setConfirmStop(false)}
          >
            <p>
              Every client using this Patchbay gets connection errors until you start the API again, and requests
              running now are ended.
            </p>
          </ConfirmDialog>
        ) : null}
      </section>

      <section className="card stack" aria-labelledby={ocId}>
        <div className="row">
          <Cpu size={16} aria-hidden className="faint" />
          <h2 id={ocId}>OpenCode</h2>
          <OpenCodeBadge opencode={oc} />
          <button
            type="button"
            className="btn"
            style={{ marginLeft: "auto" }}
            onClick={() => restart.mutate()}
            disabled={restart.isPending || oc.state === "starting" || oc.state === "stopped"}
            title="Starts OpenCode now; a running one is restarted between requests"
          >
            Restart OpenCode
          </button>
        </div>
        <p className="muted" data-testid="opencode-state">
          {openCodeStateLine(oc)}
        </p>
        {restart.isError ? <Callout tone="danger">{errorMessage(restart.error)}</Callout> : null}
        {oc.reason ? <Callout tone={oc.state === "failed" ? "danger" : "warn"}>{oc.reason}</Callout> : null}
        <dl className="kv">
          <dt>Version</dt>
          <dd>{oc.version ?? EMPTY}</dd>
          <dt>Restarts</dt>
          <dd>{oc.restarts}</dd>
          <RuntimeFacts runtime={s.runtime} />
          <dt>Data folder</dt>
          <dd className="mono">{s.dataDir}</dd>
        </dl>
      </section>

      <OverviewLimits limits={s.limits} />

      <div className="grid grid-4">
        <Stat label="Requests today" value={formatNumber(s.totals.requestsToday)} />
        <Stat label="Errors today" value={formatNumber(s.totals.errorsToday)} />
        <Stat label="Apps" value={formatNumber(s.apps.length)} />
        <Stat label="Uptime" value={formatUptime(s.uptimeMs)} />
      </div>

      {s.apps.length === 0 ? (
        <section className="card stack" aria-label="Getting started">
          <h2>Getting started</h2>
          <ol className="muted" style={{ margin: 0, paddingLeft: 18, lineHeight: 1.8 }}>
            <li>
              <Link to="/apps">Create an app</Link> for the program you want to connect.
            </li>
            <li>Create a key on the app's Keys tab and copy it.</li>
            <li>
              Paste a snippet from <Link to="/connect">Connect</Link> into your program.
            </li>
          </ol>
        </section>
      ) : null}
    </div>
  );
}
