// The app's stored Responses (issue 13), newest first: each links to the whole conversation the model saw and along
// its previous_response_id chain. `?response=<id>` in the URL (from the request log) opens one directly.
import { useInfiniteQuery } from "@tanstack/react-query";
import { useSearchParams } from "react-router";
import { api, qk } from "../../api";
import { Callout, ErrorState, Loading } from "../../components/States";
import { EMPTY, formatDateTime, formatNumber, formatRelative } from "../../lib/format";
import { StoredResponseView } from "./StoredResponseView";

export function StoredResponsesPanel({ app, enabled }: { app: string; enabled: boolean }) {
  const [params, setParams] = useSearchParams();
  const open = params.get("response");
  const setOpen = (id: string | null) =>
    setParams(
      (cur) => {
        const next = new URLSearchParams(cur);
        if (id) next.set("response", id);
        else next.delete("response");
        return next;
      },
      { replace: true },
    );
  const pages = useInfiniteQuery({
    queryKey: qk.storedResponseList(app),
    queryFn: ({ pageParam }) =>
      api.listStoredResponses({
        params: { name: app },
        query: { limit: 50, ...(pageParam ? { before: pageParam } : {}) },
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextBefore,
  });
  const rows = pages.data?.pages.flatMap((p) => p.responses) ?? [];
  const total = pages.data?.pages[0]?.total ?? 0;

  return (
    <section className="card stack" aria-label="Stored responses">
      <div>
        <h2>Stored responses</h2>
        <p className="section-note">
          Responses API answers kept for <code>previous_response_id</code>, <code>item_reference</code> and{" "}
          <code>GET /v1/responses/&#123;id&#125;</code>. They follow the app&apos;s history limits.
        </p>
      </div>
      {!enabled ? <Callout tone="info">Storing is off for this app (History tab); nothing new is kept.</Callout> : null}
      {pages.isPending ? (
        <Loading label="Loading stored responses…" />
      ) : pages.isError ? (
        <ErrorState title="Could not load stored responses" error={pages.error} onRetry={() => void pages.refetch()} />
      ) : rows.length === 0 ? (
        <p className="faint">No stored responses.</p>
      ) : (
        <div className="table-wrap">
          <table className="table" aria-label="Stored responses">
            <thead>
              <tr>
                <th scope="col">Last input</th>
                <th scope="col">Created</th>
                <th scope="col">Model</th>
                <th scope="col">Status</th>
                <th scope="col">Items in / out</th>
                <th scope="col">Previous</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <td>
                    <button type="button" className="btn link" onClick={() => setOpen(r.id)}>
                      {r.error ? "Damaged record" : r.preview || r.id}
                    </button>
                    {r.error ? <div className="faint">{r.error}</div> : null}
                  </td>
                  <td title={formatDateTime(r.createdAt)}>{formatRelative(r.createdAt)}</td>
                  <td className="mono">{r.model ?? EMPTY}</td>
                  <td>{r.status ?? EMPTY}</td>
                  <td className="mono">
                    {r.inputItems} / {r.outputItems}
                  </td>
                  <td>
                    {r.previousResponseId ? (
                      <button
                        type="button"
                        className="btn link mono"
                        onClick={() => setOpen(r.previousResponseId as string)}
                      >
                        {r.previousResponseId.slice(0, 14)}…
                      </button>
                    ) : (
                      EMPTY
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="sessions-more">
            {pages.hasNextPage ? (
              <button
                type="button"
                className="btn sm"
                onClick={() => void pages.fetchNextPage()}
                disabled={pages.isFetchingNextPage}
              >
                {pages.isFetchingNextPage ? "Loading…" : "Load more"}
              </button>
            ) : (
              <span className="faint">{formatNumber(total)} stored</span>
            )}
          </div>
        </div>
      )}
      {open ? <StoredResponseView app={app} id={open} onOpen={setOpen} onClose={() => setOpen(null)} /> : null}
    </section>
  );
}
