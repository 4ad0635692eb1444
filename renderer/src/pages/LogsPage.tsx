// Logs: the live request log (SSE: recent entries replayed, then live) merged with paged history from the query
// endpoint; pause/resume, filters (app, status, model), and a detail drawer.
import { useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import { Link } from "react-router";
import { useInfiniteQuery } from "@tanstack/react-query";
import { Pause, Play, ScrollText } from "lucide-react";
import { adminApi } from "../../../shared/admin-api";
import { RequestLogEntry } from "../../../shared/log-entry";
import { entryAppLabel, logEntryMatcher, STATUS_FILTER_OPTIONS } from "../../../shared/log-filter";
import { api, qk, useApps } from "../api";
import { useAppNamed } from "../hooks/useAppNamed";
import { useEventStream } from "../hooks/useEventStream";
import { SelectField, TextField } from "../components/Field";
import { PageHeader } from "../components/PageHeader";
import { EmptyState, ErrorState, Loading } from "../components/States";
import { EMPTY, formatMs, formatNumber, formatTime, statusTone } from "../lib/format";
import { LogDetailDrawer } from "./LogDetailDrawer";
import { useLinkedLogEntry } from "./useLinkedLogEntry";

interface Filters {
  app: string;
  status: string;
  model: string;
  /** Window name ("" = any time) and the epoch ms it started at when chosen. */
  period: string;
  since: number | undefined;
}

const PERIODS: Record<string, number> = {
  "15m": 15 * 60_000,
  "1h": 3_600_000,
  "24h": 86_400_000,
  "7d": 7 * 86_400_000,
};

const MAX_LIVE = 1000;

/** The path exactly as the client sent it (`/v1/chat/completions` and `/chat/completions` both work, and which one a
 *  client uses is worth seeing), plus whether it streamed. */
function endpointLabel(e: RequestLogEntry): string {
  return e.stream ? `${e.endpoint} · stream` : e.endpoint;
}

export function LogsPage() {
  const apps = useApps();
  const appNamed = useAppNamed();
  const [filters, setFilters] = useState<Filters>({ app: "", status: "", model: "", period: "", since: undefined });
  const deferredModel = useDeferredValue(filters.model.trim());
  const serverFilters = useMemo(
    () => ({ app: filters.app, status: filters.status, model: deferredModel, since: filters.since }),
    [filters.app, filters.status, deferredModel, filters.since],
  );
  const filtered = Boolean(filters.app || filters.status || filters.model || filters.period);
  const [paused, setPaused] = useState(false);
  const pausedRef = useRef(paused);
  useEffect(() => {
    pausedRef.current = paused;
  }, [paused]);
  const [live, setLive] = useState<RequestLogEntry[]>([]);
  const [held, setHeld] = useState<RequestLogEntry[]>([]);
  const [selected, setSelected] = useState<RequestLogEntry | null>(null);
  useLinkedLogEntry(setSelected);
  // Highlight entries that arrive live, not the replay burst right after the page opens.
  const [freshIds, setFreshIds] = useState<ReadonlySet<string>>(new Set());
  const [mountedAt] = useState(() => Date.now());

  const streamState = useEventStream(adminApi.logStream.path, RequestLogEntry, (e) => {
    if (Date.now() - mountedAt > 1500) setFreshIds((s) => new Set([...s, e.id].slice(-200)));
    if (pausedRef.current) setHeld((h) => [e, ...h.filter((x) => x.id !== e.id)].slice(0, MAX_LIVE));
    else setLive((l) => [e, ...l.filter((x) => x.id !== e.id)].slice(0, MAX_LIVE));
  });

  const history = useInfiniteQuery({
    queryKey: qk.logs(serverFilters),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      api.queryLogs({
        query: {
          app: serverFilters.app || undefined,
          status: serverFilters.status || undefined,
          model: serverFilters.model || undefined,
          since: serverFilters.since,
          limit: 100,
          cursor: pageParam,
        },
      }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

  // The server's rows already match (the same matcher runs there); live rows are filtered here with it. An app filter
  // is chosen from the loaded apps, so the lookup is there whenever it matters.
  const rows = useMemo(() => {
    const seen = new Set<string>();
    const matches = logEntryMatcher(serverFilters, appNamed ?? (() => undefined));
    const all = [...live.filter(matches), ...(history.data?.pages.flatMap((p) => p.entries) ?? [])];
    return all.filter((e) => (seen.has(e.id) ? false : (seen.add(e.id), true))).sort((a, b) => b.time - a.time);
  }, [live, history.data, serverFilters, appNamed]);

  const resume = () => {
    setLive((l) => {
      const ids = new Set(held.map((e) => e.id));
      return [...held, ...l.filter((e) => !ids.has(e.id))].slice(0, MAX_LIVE);
    });
    setHeld([]);
    setPaused(false);
  };

  const liveBadge = paused ? (
    <span className="badge warn">Paused{held.length ? ` · ${held.length} new` : ""}</span>
  ) : streamState === "open" ? (
    <span className="badge ok pulse">
      <span className="dot" aria-hidden />
      Live
    </span>
  ) : (
    <span className="badge">Connecting…</span>
  );

  return (
    <div className="page">
      <PageHeader
        title="Logs"
        subtitle="Every API request, as it happens. Keys are never logged."
        actions={
          <>
            {liveBadge}
            {paused ? (
              <button type="button" className="btn" onClick={resume}>
                <Play size={15} aria-hidden />
                Resume
              </button>
            ) : (
              <button
                type="button"
                className="btn"
                onClick={() => {
                  pausedRef.current = true;
                  setPaused(true);
                }}
              >
                <Pause size={15} aria-hidden />
                Pause
              </button>
            )}
          </>
        }
      />
      <div className="toolbar" role="search" aria-label="Filter requests">
        <SelectField
          label="App"
          value={filters.app}
          onChange={(app) => setFilters((f) => ({ ...f, app }))}
          options={[
            { value: "", label: "All apps" },
            ...(apps.data?.apps ?? []).map((a) => ({ value: a.name, label: a.name })),
          ]}
        />
        <SelectField
          label="Status"
          value={filters.status}
          onChange={(status) => setFilters((f) => ({ ...f, status }))}
          options={[{ value: "", label: "Any status" }, ...STATUS_FILTER_OPTIONS]}
        />
        <TextField
          label="Model"
          value={filters.model}
          onChange={(model) => setFilters((f) => ({ ...f, model }))}
          placeholder="Any model"
          mono
        />
        <SelectField
          label="Time"
          value={filters.period}
          onChange={(period) =>
            setFilters((f) => ({
              ...f,
              period,
              since: PERIODS[period] ? Date.now() - (PERIODS[period] ?? 0) : undefined,
            }))
          }
          options={[
            { value: "", label: "Any time" },
            { value: "15m", label: "Last 15 minutes" },
            { value: "1h", label: "Last hour" },
            { value: "24h", label: "Last 24 hours" },
            { value: "7d", label: "Last 7 days" },
          ]}
        />
      </div>

      {history.isPending && rows.length === 0 ? (
        <Loading label="Loading requests…" />
      ) : history.isError && rows.length === 0 ? (
        <ErrorState
          title="Could not load the request log"
          error={history.error}
          onRetry={() => void history.refetch()}
        />
      ) : rows.length === 0 ? (
        <div className="card">
          <EmptyState
            icon={<ScrollText size={24} aria-hidden />}
            title={filtered ? "No matching requests" : "No requests yet"}
          >
            {filtered ? (
              "Try other filters."
            ) : (
              <>
                Requests show up here live. <Link to="/connect">Connect a client</Link> to get started.
              </>
            )}
          </EmptyState>
        </div>
      ) : (
        <div className="table-wrap">
          <table className="table logs-table" aria-label="Request log">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">App</th>
                <th scope="col">Model</th>
                <th scope="col">Status</th>
                <th scope="col">Tokens in/out</th>
                <th scope="col">TTFT</th>
                <th scope="col">Total</th>
                <th scope="col" className="col-endpoint">
                  Endpoint
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((e) => {
                const time = formatTime(e.time);
                return (
                  <tr
                    key={e.id}
                    className={`${freshIds.has(e.id) ? "fresh" : ""}${selected?.id === e.id ? " selected" : ""}`}
                    onClick={() => setSelected(e)}
                  >
                    <td>
                      <button
                        type="button"
                        className="btn link num"
                        aria-label={`Details ${time}`}
                        onClick={(ev) => {
                          ev.stopPropagation();
                          setSelected(e);
                        }}
                      >
                        {time}
                      </button>
                    </td>
                    <td>{entryAppLabel(e, appNamed) ?? <span className="faint">{EMPTY}</span>}</td>
                    <td
                      className="model mono"
                      title={
                        e.modelResolved && e.modelResolved !== e.modelAsked
                          ? `${e.modelAsked} → ${e.modelResolved}`
                          : (e.modelAsked ?? "")
                      }
                    >
                      {e.modelAsked ?? EMPTY}
                      {e.modelResolved && e.modelResolved !== e.modelAsked ? (
                        <span className="faint"> → {e.modelResolved}</span>
                      ) : null}
                    </td>
                    <td>
                      <span className={`status-code ${statusTone(e.status)}`} title={e.errorCode ?? undefined}>
                        {e.status}
                      </span>
                    </td>
                    <td className="num">
                      {e.usage ? `${formatNumber(e.usage.inputTokens)} / ${formatNumber(e.usage.outputTokens)}` : EMPTY}
                    </td>
                    <td className="num">{formatMs(e.ttftMs)}</td>
                    <td className="num">{formatMs(e.totalMs)}</td>
                    <td className="faint col-endpoint">{endpointLabel(e)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {history.hasNextPage ? (
        <div className="row">
          <button
            type="button"
            className="btn"
            onClick={() => void history.fetchNextPage()}
            disabled={history.isFetchingNextPage}
          >
            {history.isFetchingNextPage ? "Loading…" : "Load older requests"}
          </button>
        </div>
      ) : null}
      {selected ? <LogDetailDrawer entry={selected} onClose={() => setSelected(null)} /> : null}
    </div>
  );
}
