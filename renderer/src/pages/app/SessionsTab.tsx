// Sessions of one app (issue 6): newest first with infinite scroll and title search, a session view with its
// messages, select-and-delete with confirmation (running sessions are never deleted). Limits and pruning live in the
// History tab (PrunePanel).
import { useEffect, useRef, useState } from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import { History, RefreshCw, Trash2 } from "lucide-react";
import { useDebounced } from "../../hooks/useDebounced";
import type { DeleteSessionsResult, SessionSummary } from "../../../../shared/admin-api";
import { api, qk } from "../../api";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { TextField } from "../../components/Field";
import { Callout, EmptyState, ErrorState, Loading } from "../../components/States";
import { formatNumber } from "../../lib/format";
import { useDeleteConversations, useDeleteSessions } from "../../mutations";
import { useCurrentApp } from "./context";
import { SessionView } from "./SessionView";
import { StoredResponsesPanel } from "./StoredResponsesPanel";
import { groupSessions } from "./conversation-groups";
import { ConversationRows, SessionRow, type RowActions } from "./SessionRows";
import "../../styles/sessions.css";

const PAGE = 50;

export function SessionsTab() {
  const app = useCurrentApp();
  const [searchText, setSearchText] = useState("");
  const search = useDebounced(searchText.trim(), 300);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [open, setOpen] = useState<SessionSummary | null>(null);
  const [confirming, setConfirming] = useState<string[] | null>(null);
  const [outcome, setOutcome] = useState<DeleteSessionsResult | null>(null);
  const sentinel = useRef<HTMLDivElement>(null);

  const pages = useInfiniteQuery({
    queryKey: qk.sessionPages(app.name, search),
    queryFn: ({ pageParam }) =>
      api.listSessions({
        params: { name: app.name },
        query: { limit: PAGE, ...(pageParam ? { cursor: pageParam } : {}), ...(search ? { search } : {}) },
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
  const sessions = pages.data?.pages.flatMap((p) => p.sessions) ?? [];
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = pages;

  // Infinite scroll: load the next page when the end of the list comes into view (the button does the same).
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasNextPage || typeof IntersectionObserver === "undefined") return;
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
    });
    io.observe(el);
    return () => io.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const [confirmingConversation, setConfirmingConversation] = useState<{ id: string; title: string } | null>(null);
  const actions: RowActions = {
    selected,
    toggle: (ids, on) =>
      setSelected((cur) => {
        const next = new Set(cur);
        for (const id of ids) {
          if (on) next.add(id);
          else next.delete(id);
        }
        return next;
      }),
    open: setOpen,
    askDelete: setConfirming,
    askDeleteConversation: setConfirmingConversation,
  };
  const allShown = sessions.length > 0 && sessions.every((s) => selected.has(s.id));

  const onOutcome = (r: DeleteSessionsResult) => {
    setOutcome(r);
    setSelected((cur) => new Set([...cur].filter((id) => !r.deleted.includes(id) && !r.missing.includes(id))));
  };
  const remove = useDeleteSessions(app.name, onOutcome);
  const removeConversation = useDeleteConversations(app.name, onOutcome);

  return (
    <section className="stack" aria-label="Sessions">
      <div className="row spread">
        <p className="section-note">
          Every request leaves an OpenCode session; requests of one conversation are grouped (open a conversation to see
          them). Newest first; a running session cannot be deleted. Limits and pruning are in the History tab.
        </p>
        <button type="button" className="btn" onClick={() => void pages.refetch()} disabled={pages.isFetching}>
          <RefreshCw size={15} aria-hidden />
          Refresh
        </button>
      </div>
      <div className="toolbar">
        <TextField
          label="Search titles"
          type="search"
          value={searchText}
          onChange={setSearchText}
          placeholder="Part of a title"
        />
        <div className="grow" />
        <button
          type="button"
          className="btn danger"
          disabled={selected.size === 0}
          onClick={() => setConfirming([...selected])}
        >
          <Trash2 size={15} aria-hidden />
          Delete selected ({selected.size})
        </button>
      </div>
      {outcome ? (
        <Callout tone={outcome.running.length || outcome.failed.length ? "warn" : "info"}>
          Deleted {outcome.deleted.length}
          {outcome.running.length ? `; kept ${outcome.running.length} still running (try again when they finish)` : ""}
          {outcome.missing.length ? `; ${outcome.missing.length} were already gone` : ""}
          {outcome.failed.length ? `; ${outcome.failed.length} failed` : ""}.
        </Callout>
      ) : null}
      {pages.isPending ? (
        <Loading label="Loading sessions…" />
      ) : pages.isError ? (
        <ErrorState title="Could not load sessions" error={pages.error} onRetry={() => void pages.refetch()} />
      ) : sessions.length === 0 ? (
        <div className="card">
          <EmptyState
            icon={<History size={22} aria-hidden />}
            title={search ? "No matching sessions" : "No sessions yet"}
          >
            {search ? "No session title contains that text." : "Sessions appear here after this app's first request."}
          </EmptyState>
        </div>
      ) : (
        <div className="table-wrap">
          <table className="table sessions-table" aria-label="Sessions">
            <thead>
              <tr>
                <th scope="col" className="check">
                  <input
                    type="checkbox"
                    aria-label="Select all shown sessions"
                    checked={allShown}
                    onChange={() => setSelected(allShown ? new Set() : new Set(sessions.map((s) => s.id)))}
                  />
                </th>
                <th scope="col">Title</th>
                <th scope="col">Created</th>
                <th scope="col">Model</th>
                <th scope="col">Tokens in / out</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {groupSessions(sessions).map((g) =>
                g.kind === "session" ? (
                  <SessionRow key={g.session.id} s={g.session} a={actions} />
                ) : (
                  <ConversationRows key={`c:${g.id}`} id={g.id} title={g.title} sessions={g.sessions} a={actions} />
                ),
              )}
            </tbody>
          </table>
          <div ref={sentinel} className="sessions-more">
            {hasNextPage ? (
              <button
                type="button"
                className="btn sm"
                onClick={() => void fetchNextPage()}
                disabled={isFetchingNextPage}
              >
                {isFetchingNextPage ? "Loading…" : "Load more"}
              </button>
            ) : (
              <span className="faint">
                {sessions.length === 1 ? "1 session" : `${formatNumber(sessions.length)} sessions`}
              </span>
            )}
          </div>
        </div>
      )}
      {open ? <SessionView app={app.name} session={open} onClose={() => setOpen(null)} /> : null}
      <StoredResponsesPanel app={app.name} enabled={app.storeResponses} />
      {confirmingConversation ? (
        <ConfirmDialog
          title="Delete conversation"
          confirmLabel="Yes, delete"
          onConfirm={() => removeConversation.mutateAsync([confirmingConversation.id])}
          onClose={() => setConfirmingConversation(null)}
        >
          <p>
            Every request of “{confirmingConversation.title}” (also those not loaded in this list) and their messages
            are deleted from OpenCode for good. Running requests are kept.
          </p>
        </ConfirmDialog>
      ) : null}
      {confirming ? (
        <ConfirmDialog
          title={confirming.length === 1 ? "Delete session" : `Delete ${confirming.length} sessions`}
          confirmLabel="Yes, delete"
          onConfirm={() => remove.mutateAsync(confirming)}
          onClose={() => setConfirming(null)}
        >
          <p>
            {confirming.length === 1
              ? "This session and its messages are"
              : `These ${confirming.length} sessions and their messages are`}{" "}
            deleted from OpenCode for good. Running sessions are kept.
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
