// One session's messages in a side drawer: user and assistant text, reasoning (collapsed), tool calls with their
// arguments and results, images (small ones inline, larger ones as placeholders); older messages load on demand.
import { useInfiniteQuery } from "@tanstack/react-query";
import type { MessagePart, SessionMessage, SessionSummary } from "../../../../shared/admin-api";
import { api, qk } from "../../api";
import { Dialog } from "../../components/Dialog";
import { Callout, ErrorState, Loading } from "../../components/States";
import { EMPTY, formatDateTime, formatNumber } from "../../lib/format";
import { tokenText } from "./sessions-data";

function bytes(n: number | null): string {
  if (n === null) return "";
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
}

function Part({ part }: { part: MessagePart }) {
  switch (part.type) {
    case "text":
      return (
        <div className={`msg-text${part.synthetic ? " faint" : ""}`}>
          {part.text}
          {part.truncated ? <span className="faint"> … (cut)</span> : null}
        </div>
      );
    case "reasoning":
      return (
        <details className="msg-reasoning">
          <summary>Reasoning</summary>
          <div className="msg-text">{part.text}</div>
        </details>
      );
    case "tool":
      return part.status === "returned" ? (
        <div className="msg-tool" role="group" aria-label={`Tool call ${part.tool}`}>
          <div>
            Tool call <code>{part.tool}</code> <span className="faint">(returned to the client to run)</span>
          </div>
          <div className="faint">Arguments</div>
          <pre className="code">{part.input}</pre>
          {part.output !== null ? (
            <>
              <div className="faint">Result (sent back by the client in a later request)</div>
              <pre className="code">{part.output}</pre>
            </>
          ) : (
            <div className="faint">No later request carried its result.</div>
          )}
          {part.truncated ? <span className="faint">Cut for display.</span> : null}
        </div>
      ) : (
        <div className="msg-tool" role="group" aria-label={`Tool call ${part.tool}`}>
          <div>
            Tool call <code>{part.tool}</code> <span className="faint">({part.status})</span>
          </div>
          <div className="faint">Arguments</div>
          <pre className="code">{part.input}</pre>
          {part.output !== null ? (
            <>
              <div className="faint">{part.status === "error" ? "Error" : "Result"}</div>
              <pre className="code">{part.output}</pre>
            </>
          ) : null}
          {part.truncated ? <span className="faint">Cut for display.</span> : null}
        </div>
      );
    case "image":
      return part.dataUrl ? (
        <img className="msg-image" src={part.dataUrl} alt={part.filename ?? "Image from the request"} />
      ) : (
        <div className="msg-placeholder">
          Image {part.filename ?? ""} ({part.mime}
          {part.bytes !== null ? `, ${bytes(part.bytes)}` : ""}) not shown
        </div>
      );
    case "file":
      return (
        <div className="msg-placeholder">
          File {part.filename ?? ""} ({part.mime}
          {part.bytes !== null ? `, ${bytes(part.bytes)}` : ""})
        </div>
      );
    case "unreadable":
      return <div className="msg-placeholder">{part.reason}</div>;
  }
}

function Message({ m }: { m: SessionMessage }) {
  return (
    <article className={`msg msg-${m.role}`} aria-label={`${m.role === "user" ? "User" : "Assistant"} message`}>
      <header className="msg-head">
        <strong>{m.role === "user" ? "User" : "Assistant"}</strong>
        {m.model ? <span className="mono faint">{m.model}</span> : null}
        {m.createdAt ? <span className="faint">{formatDateTime(m.createdAt)}</span> : null}
        {m.finish ? <span className="faint">finish: {m.finish}</span> : null}
      </header>
      {m.parts.length === 0 ? (
        <div className="faint">(no content)</div>
      ) : (
        m.parts.map((p, i) => <Part key={i} part={p} />)
      )}
      {m.error ? <Callout tone="danger">{m.error}</Callout> : null}
    </article>
  );
}

export function SessionView({ app, session, onClose }: { app: string; session: SessionSummary; onClose: () => void }) {
  const pages = useInfiniteQuery({
    queryKey: qk.sessionMessages(app, session.id),
    queryFn: ({ pageParam }) =>
      api.getSessionMessages({
        params: { name: app, id: session.id },
        query: { limit: 50, ...(pageParam ? { cursor: pageParam } : {}) },
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
  // Pages go back in time: show the oldest loaded page first.
  const loaded = pages.data?.pages ?? [];
  const messages = [...loaded].reverse().flatMap((p) => p.messages);
  const latest = loaded[0]?.session ?? session;
  const incomplete = loaded.find((p) => p.incomplete)?.incomplete ?? null;

  return (
    <Dialog title={session.title || session.id} onClose={onClose} variant="drawer" wide>
      <dl className="kv session-meta">
        <dt>Session</dt>
        <dd className="mono">{latest.id}</dd>
        <dt>Created</dt>
        <dd>{formatDateTime(latest.receivedAt ?? latest.createdAt)}</dd>
        <dt>Last active</dt>
        <dd>{formatDateTime(latest.updatedAt)}</dd>
        <dt>Model</dt>
        <dd className="mono">{latest.model ?? EMPTY}</dd>
        <dt>Tokens in / out</dt>
        <dd className="mono">{tokenText(latest)}</dd>
        <dt>Cost</dt>
        <dd>{latest.cost ? `$${latest.cost.toFixed(4)}` : EMPTY}</dd>
        <dt>Client tools</dt>
        <dd
          className="mono"
          title="A fingerprint of the tools the client offered: requests with the same tools run together"
        >
          {latest.toolSet}
        </dd>
      </dl>
      {latest.running ? <Callout tone="warn">This session is still running.</Callout> : null}
      {pages.isPending ? (
        <Loading label="Loading messages…" />
      ) : pages.isError ? (
        <ErrorState title="Could not load the messages" error={pages.error} onRetry={() => void pages.refetch()} />
      ) : (
        <div className="stack messages" aria-label="Messages">
          {pages.hasNextPage ? (
            <button
              type="button"
              className="btn sm"
              onClick={() => void pages.fetchNextPage()}
              disabled={pages.isFetchingNextPage}
            >
              {pages.isFetchingNextPage ? "Loading…" : "Load older messages"}
            </button>
          ) : null}
          {incomplete ? <Callout tone="warn">{incomplete}</Callout> : null}
          {messages.length === 0 ? (
            <p className="faint">No messages.</p>
          ) : (
            messages.map((m) => <Message key={m.id} m={m} />)
          )}
          <p className="faint">{formatNumber(messages.length)} messages shown.</p>
        </div>
      )}
    </Dialog>
  );
}
