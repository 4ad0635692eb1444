// The web searches and fetches Patchbay ran for one request (request log `serverTools`): what was asked, by which
// backend, how long it took and how many results came back, or the error the client was given.
import type { LogServerToolCall } from "../../../shared/log-entry";
import { formatMs } from "../lib/format";

/** A list of the request's server tool calls, one line each; `data-testid="server-tool-call"` per line. */
export function ServerToolCalls({ calls }: { calls: readonly LogServerToolCall[] }) {
  return (
    <ul className="plain-list">
      {calls.map((c, i) => (
        <li key={i} data-testid="server-tool-call">
          {c.kind === "web_search" ? "Search" : "Fetch"} <span className="mono">{JSON.stringify(c.target)}</span> via{" "}
          {c.backend}, {formatMs(c.ms)}:{" "}
          {c.error ? (
            <span className="status-code danger">{c.error}</span>
          ) : c.kind === "web_search" ? (
            `${c.results} result${c.results === 1 ? "" : "s"}`
          ) : (
            "page fetched"
          )}
        </li>
      ))}
    </ul>
  );
}
