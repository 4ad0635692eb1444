// One stored response in a drawer: the whole conversation the model saw (instructions, the effective input with the
// previous responses' items, then the output), with a link along the previous_response_id chain and a delete button.
import { useQuery } from "@tanstack/react-query";
import { api, errorMessage, qk } from "../../api";
import { Dialog } from "../../components/Dialog";
import { Callout, ErrorState, Loading } from "../../components/States";
import { EMPTY, formatDateTime } from "../../lib/format";
import { useDeleteStoredResponse } from "../../mutations";
import { viewItem } from "./stored-items";

function Item({ item, output }: { item: { id: string; type: string } & Record<string, unknown>; output?: boolean }) {
  const v = viewItem(item);
  return (
    <article className={`msg msg-${v.tone === "other" ? "assistant" : v.tone}`} aria-label={`${v.who} item`}>
      <header className="msg-head">
        <strong>{v.who}</strong>
        {output ? <span className="badge info">output</span> : null}
        <span className="mono faint">{v.id}</span>
      </header>
      <div className="msg-text">{v.text || <span className="faint">(empty)</span>}</div>
    </article>
  );
}

export function StoredResponseView({
  app,
  id,
  onOpen,
  onClose,
}: {
  app: string;
  id: string;
  /** Opens another response (the previous one in the chain). */
  onOpen: (id: string) => void;
  onClose: () => void;
}) {
  const q = useQuery({
    queryKey: qk.storedResponse(app, id),
    queryFn: () => api.getStoredResponse({ params: { name: app, id } }),
  });
  const remove = useDeleteStoredResponse(app, onClose);
  const r = q.data;
  return (
    <Dialog title={`Stored response ${id}`} onClose={onClose} variant="drawer" wide>
      {q.isPending ? (
        <Loading label="Loading the response…" />
      ) : q.isError || !r ? (
        <ErrorState title="Could not load this response" error={q.error} onRetry={() => void q.refetch()} />
      ) : (
        <div className="stack">
          <dl className="kv session-meta">
            <dt>Created</dt>
            <dd>{formatDateTime(r.createdAt)}</dd>
            <dt>Model</dt>
            <dd className="mono">{r.model}</dd>
            <dt>Status</dt>
            <dd>{r.status}</dd>
            <dt>Session</dt>
            <dd className="mono">{r.sessionId ?? EMPTY}</dd>
            <dt>Previous response</dt>
            <dd>
              {r.previousResponseId ? (
                <button type="button" className="btn link mono" onClick={() => onOpen(r.previousResponseId as string)}>
                  {r.previousResponseId}
                </button>
              ) : (
                EMPTY
              )}
            </dd>
          </dl>
          {r.instructions ? <Callout tone="info">Instructions: {r.instructions}</Callout> : null}
          <div className="stack messages" aria-label="Conversation">
            {r.input.map((item) => (
              <Item key={`in-${item.id}`} item={item} />
            ))}
            {r.output.map((item) => (
              <Item key={`out-${item.id}`} item={item} output />
            ))}
          </div>
          <div className="row">
            <button
              type="button"
              className="btn sm danger-ghost"
              onClick={() => remove.mutate(id)}
              disabled={remove.isPending}
            >
              Delete this response
            </button>
          </div>
          {remove.isError ? <Callout tone="danger">{errorMessage(remove.error)}</Callout> : null}
        </div>
      )}
    </Dialog>
  );
}
