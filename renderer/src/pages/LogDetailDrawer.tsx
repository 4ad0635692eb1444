// Side drawer with one request-log entry in full, and "Copy as curl" (shared/admin/curl.ts: never includes a key).
import { Link } from "react-router";
import type { RequestLogEntry } from "../../../shared/log-entry";
import { curlForEntry } from "../../../shared/admin/curl";
import { entryAppLabel } from "../../../shared/log-filter";
import { useBaseUrl } from "../api";
import { useAppNamed } from "../hooks/useAppNamed";
import { CodeBlock } from "../components/CodeBlock";
import { CopyButton } from "../components/CopyButton";
import { Dialog } from "../components/Dialog";
import { ServerToolCalls } from "../components/ServerToolCalls";
import { Callout } from "../components/States";
import { EMPTY, formatDateTime, formatMs, formatNumber, statusTone } from "../lib/format";

function json(v: unknown): string {
  return typeof v === "string" ? v : JSON.stringify(v, null, 2);
}

export function LogDetailDrawer({ entry, onClose }: { entry: RequestLogEntry; onClose: () => void }) {
  const baseUrl = useBaseUrl();
  const appNamed = useAppNamed();
  const appLabel = entryAppLabel(entry, appNamed);
  // A deleted app's stored responses went with it; a later app of the same name does not have them.
  const appCurrent = entry.app !== null && appLabel === entry.app;
  const curl = curlForEntry(entry, baseUrl);
  const u = entry.usage;
  return (
    <Dialog
      title="Request details"
      variant="drawer"
      onClose={onClose}
      footer={
        <>
          <CopyButton text={curl} label="Copy as curl" visibleText="Copy as curl" className="btn" />
          <button type="button" className="btn primary" onClick={onClose}>
            Done
          </button>
        </>
      }
    >
      {entry.errorMessage ? (
        <Callout tone={entry.status >= 500 ? "danger" : "warn"}>{entry.errorMessage}</Callout>
      ) : null}
      <dl className="kv">
        <dt>Time</dt>
        <dd>{formatDateTime(entry.time)}</dd>
        <dt>Request id</dt>
        <dd className="mono">{entry.id}</dd>
        <dt>App</dt>
        <dd>{appLabel ?? <span className="faint">none (not authenticated)</span>}</dd>
        <dt>Key</dt>
        <dd className="mono">{entry.keyPrefix ? `pb-${entry.keyPrefix}…` : EMPTY}</dd>
        <dt>Endpoint</dt>
        <dd className="mono">
          {entry.method} {entry.endpoint}
          {entry.stream ? " (stream)" : ""}
        </dd>
        <dt>Model asked</dt>
        <dd className="mono">{entry.modelAsked ?? EMPTY}</dd>
        <dt>Model resolved</dt>
        <dd className="mono">{entry.modelResolved ?? EMPTY}</dd>
        {entry.role ? (
          <>
            <dt>Role</dt>
            <dd className="mono">
              {entry.role}
              {entry.agentType ? ` (${entry.agentType})` : ""}
              {entry.routedTo ? ` → routed to ${entry.routedTo}` : ""}
            </dd>
          </>
        ) : null}
        {entry.servedBy ? (
          <>
            <dt>Served by</dt>
            <dd className="mono">{entry.servedBy}</dd>
          </>
        ) : null}
        {entry.skipped?.length ? (
          <>
            <dt>Skipped</dt>
            <dd>
              <ul className="plain-list">
                {entry.skipped.map((s) => (
                  <li key={s.model}>
                    <span className="mono">{s.model}</span>: {s.reason}
                  </li>
                ))}
              </ul>
            </dd>
          </>
        ) : null}
        {entry.serverTools?.length ? (
          <>
            <dt>Web search</dt>
            <dd>
              <ServerToolCalls calls={entry.serverTools} />
            </dd>
          </>
        ) : null}
        <dt>Status</dt>
        <dd>
          <span className={`status-code ${statusTone(entry.status)}`}>{entry.status}</span>
          {entry.errorCode ? <span className="mono"> {entry.errorCode}</span> : null}
        </dd>
        <dt>Time to first token</dt>
        <dd>{formatMs(entry.ttftMs)}</dd>
        <dt>Total time</dt>
        <dd>{formatMs(entry.totalMs)}</dd>
        <dt>Tokens</dt>
        <dd>
          {u
            ? `${formatNumber(u.inputTokens)} in (${formatNumber(u.cachedTokens)} cached) · ${formatNumber(u.outputTokens)} out (${formatNumber(u.reasoningTokens)} reasoning)`
            : EMPTY}
        </dd>
        <dt>Session</dt>
        <dd className="mono">{entry.sessionId ?? EMPTY}</dd>
        {entry.responseId && entry.app && appCurrent ? (
          <>
            <dt>Stored response</dt>
            <dd>
              <Link
                className="mono"
                to={`/apps/${encodeURIComponent(entry.app)}/sessions?response=${encodeURIComponent(entry.responseId)}`}
              >
                {entry.responseId}
              </Link>
            </dd>
          </>
        ) : null}
      </dl>
      {entry.warnings.length ? (
        <div className="stack">
          <h3>Warnings</h3>
          <ul style={{ margin: 0, paddingLeft: 18 }}>
            {entry.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {entry.requestBody !== undefined ? (
        <div className="stack">
          <h3>Request body</h3>
          <CodeBlock code={json(entry.requestBody)} copyLabel="Copy request body" language="json" />
        </div>
      ) : (
        <p className="faint">
          Request bodies are not kept. Turn on "Keep request bodies in the log" in Settings to see them.
        </p>
      )}
      {entry.responseBody !== undefined ? (
        <div className="stack">
          <h3>Response body</h3>
          <CodeBlock code={json(entry.responseBody)} copyLabel="Copy response body" language="json" />
        </div>
      ) : null}
      <div className="stack">
        <h3>{entry.requestBody !== undefined ? "curl (repeats this request)" : "curl template"}</h3>
        <pre className="code" tabIndex={0} aria-label="curl command">
          {curl}
        </pre>
        <p className="faint">
          {entry.requestBody !== undefined
            ? "Rebuilt from the kept request body. "
            : "A sample body for this endpoint, not this request's (request bodies were not kept). "}
          The command reads your key from <code>$PATCHBAY_KEY</code>; Patchbay never logs keys.
        </p>
      </div>
      <details>
        <summary>Whole entry (JSON)</summary>
        <pre className="code" style={{ marginTop: 8 }}>
          {JSON.stringify(entry, null, 2)}
        </pre>
      </details>
    </Dialog>
  );
}
