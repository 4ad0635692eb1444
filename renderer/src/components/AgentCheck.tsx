// The Connect page's "Check your agents" card (issue 25): `patchbay doctor` run by this Patchbay in the background
// (`POST /admin/api/doctor`), its progress polled every second while it runs, then the same table the CLI prints:
// client, version, each check ok/FAILED, the last version that passed, and why each failure failed.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { LoaderCircle } from "lucide-react";
import { useState } from "react";
import {
  DOCTOR_CLIENT_IDS,
  DOCTOR_CLIENT_NAMES,
  type DoctorClientId,
  type DoctorClientResult,
  type DoctorRun,
} from "../../../shared/admin/doctor";
import { api, errorMessage, qk, useCli, useDoctorRun } from "../api";
import { formatDateTime, formatRelative } from "../lib/format";
import { Callout, EmptyState, ErrorState } from "./States";

const DASH = "—";

function CheckCell({ ok }: { ok: boolean }) {
  return <span className={`badge ${ok ? "ok" : "danger"}`}>{ok ? "ok" : "FAILED"}</span>;
}

/** One row per client, one column per check any client had (`n/a` where a client has none); the failures' details
 *  and the clients without an image check under the table. */
function Results({ results }: { results: DoctorClientResult[] }) {
  const columns = [...new Map(results.flatMap((r) => r.checks.map((c) => [c.id, c.title] as const))).entries()];
  const noImage = results.filter((r) => r.image);
  const failures = results.flatMap((r) =>
    r.checks.filter((c) => !c.ok).map((c) => ({ key: `${r.client}-${c.id}`, what: `${r.name} ${c.title}`, c })),
  );
  return (
    <>
      <div className="table-wrap">
        <table className="table" aria-label="Agent check results">
          <thead>
            <tr>
              <th scope="col">Client</th>
              <th scope="col">Version</th>
              {columns.map(([id, t]) => (
                <th scope="col" key={id}>
                  {t[0]?.toUpperCase()}
                  {t.slice(1)}
                </th>
              ))}
              <th scope="col">Last passed</th>
            </tr>
          </thead>
          <tbody>
            {results.map((r) => (
              <tr key={r.client}>
                <th scope="row" title={r.bin}>
                  {r.name}
                </th>
                <td className="mono">{r.version ?? DASH}</td>
                {columns.map(([id]) => {
                  const c = r.checks.find((k) => k.id === id);
                  return (
                    <td key={id} className={c ? undefined : "faint"}>
                      {c ? <CheckCell ok={c.ok} /> : "n/a"}
                    </td>
                  );
                })}
                <td className="mono">{r.lastPassedVersion ?? DASH}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {failures.length ? (
        <ul className="stack" aria-label="Failures" style={{ margin: 0, paddingLeft: 18 }}>
          {failures.map((f) => (
            <li key={f.key}>
              <strong>{f.what}:</strong> {f.c.detail}
            </li>
          ))}
        </ul>
      ) : null}
      {noImage.map((r) => (
        <p key={r.client} className="faint" style={{ margin: 0 }}>
          {r.name}: no image check ({r.image}).
        </p>
      ))}
    </>
  );
}

/** Progress while running, then the table, the empty state or why the run broke. */
function RunState({ run }: { run: DoctorRun }) {
  if (run.state === "idle") return null;
  const log = (
    <div role="log" aria-label="Check progress" className="mono faint" style={{ fontSize: 12.5 }}>
      {run.progress.map((line, i) => (
        <div key={i}>{line}</div>
      ))}
    </div>
  );
  if (run.state === "running")
    return (
      <div className="stack" style={{ gap: 6 }}>
        <div className="row" role="status" style={{ gap: 8 }}>
          <LoaderCircle className="spin" size={16} aria-hidden />
          <span>Checking… (a minute or more per agent)</span>
        </div>
        {log}
      </div>
    );
  const when = run.finishedAt ? (
    <p className="faint" style={{ margin: 0 }} title={formatDateTime(run.finishedAt)}>
      Checked {formatRelative(run.finishedAt)}.
    </p>
  ) : null;
  if (run.state === "failed")
    return (
      <div className="stack" style={{ gap: 6 }}>
        <Callout tone="danger">The check could not run: {run.error}</Callout>
        {log}
      </div>
    );
  if (run.results.length === 0)
    return (
      <EmptyState title="No coding agent found">
        None of {(run.clients ?? DOCTOR_CLIENT_IDS).map((c) => DOCTOR_CLIENT_NAMES[c]).join(", ")} is installed (on PATH
        or in Patchbay&apos;s node_modules). Install one, e.g. <code>npm i -g @openai/codex</code>, then run the check
        again.
      </EmptyState>
    );
  return (
    <div className="stack">
      {when}
      <Results results={run.results} />
    </div>
  );
}

export function AgentCheck() {
  const cli = useCli();
  const run = useDoctorRun();
  const qc = useQueryClient();
  const [picked, setPicked] = useState<ReadonlySet<DoctorClientId>>(new Set(DOCTOR_CLIENT_IDS));
  const start = useMutation({
    mutationFn: () => api.startDoctor({ body: { clients: DOCTOR_CLIENT_IDS.filter((c) => picked.has(c)) } }),
    // The answer is the running state: polling starts from it without waiting for a refetch.
    onSuccess: (r) => qc.setQueryData(qk.doctor, r),
  });
  const running = run.data?.state === "running" || start.isPending;
  const toggle = (c: DoctorClientId, on: boolean) =>
    setPicked((p) => {
      const next = new Set(p);
      if (on) next.add(c);
      else next.delete(c);
      return next;
    });
  return (
    <section className="card stack" aria-labelledby="agent-check">
      <h2 id="agent-check">Check your agents</h2>
      <p className="section-note">
        Runs each agent CLI you have (on PATH, else in Patchbay&apos;s own node_modules) headless in a throwaway home
        against a throwaway Patchbay serving the scripted demo model: a plain prompt, one tool round trip and, where the
        agent can send one, an image. The same check as <code>{cli("doctor")}</code>; it uses none of your logins and
        changes none of your files.
      </p>
      <fieldset className="row" style={{ gap: 16, border: 0, padding: 0, margin: 0 }} disabled={running}>
        <legend className="visually-hidden">Agents to check</legend>
        {DOCTOR_CLIENT_IDS.map((c) => (
          <label key={c} className="row" style={{ gap: 6 }}>
            <input type="checkbox" checked={picked.has(c)} onChange={(e) => toggle(c, e.target.checked)} />
            {DOCTOR_CLIENT_NAMES[c]}
          </label>
        ))}
        <button
          type="button"
          className="btn primary"
          disabled={running || picked.size === 0}
          onClick={() => start.mutate()}
        >
          {running ? "Running…" : "Run check"}
        </button>
      </fieldset>
      {start.isError ? <Callout tone="danger">{errorMessage(start.error)}</Callout> : null}
      {run.isError ? (
        <ErrorState title="Could not load the last check" error={run.error} onRetry={() => void run.refetch()} />
      ) : null}
      {run.data ? <RunState run={run.data} /> : null}
    </section>
  );
}
