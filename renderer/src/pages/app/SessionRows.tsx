// Rows of the Sessions table: one request's session, and a conversation row that opens into its requests
// (conversation-groups.ts). The table, selection state and dialogs live in SessionsTab.tsx.
import { useState } from "react";
import { ChevronDown, ChevronRight } from "lucide-react";
import type { SessionSummary } from "../../../../shared/admin-api";
import { openAiTokenTotals } from "../../../../shared/admin/history";
import { EMPTY, formatDateTime, formatNumber, formatRelative } from "../../lib/format";
import { requestTime } from "./conversation-groups";
import { tokenText } from "./sessions-data";

/** What a row may do: open a session, select ids, ask to delete sessions or a whole conversation. */
export interface RowActions {
  selected: ReadonlySet<string>;
  toggle(ids: readonly string[], on: boolean): void;
  open(s: SessionSummary): void;
  askDelete(ids: string[]): void;
  askDeleteConversation(c: { id: string; title: string }): void;
}

function RunningBadge() {
  return (
    <span className="badge info pulse session-running">
      <span className="dot" />
      Running
    </span>
  );
}

/** One request's session; `nested` inside an open conversation. */
export function SessionRow({ s, a, nested = false }: { s: SessionSummary; a: RowActions; nested?: boolean }) {
  const title = s.title || s.id;
  return (
    <tr className={[a.selected.has(s.id) ? "selected" : "", nested ? "nested" : ""].join(" ").trim() || undefined}>
      <td className="check">
        <input
          type="checkbox"
          aria-label={`Select ${title}`}
          checked={a.selected.has(s.id)}
          onChange={() => a.toggle([s.id], !a.selected.has(s.id))}
        />
      </td>
      <td>
        <button type="button" className="btn link session-title" onClick={() => a.open(s)}>
          {title}
        </button>
        {s.running ? <RunningBadge /> : null}
      </td>
      <td title={formatDateTime(requestTime(s))}>{formatRelative(requestTime(s))}</td>
      <td className="mono">{s.model ?? <span className="faint">{EMPTY}</span>}</td>
      <td className="mono">{tokenText(s)}</td>
      <td className="actions">
        <button
          type="button"
          className="btn sm danger-ghost"
          aria-label={`Delete ${title}`}
          onClick={() => a.askDelete([s.id])}
        >
          Delete
        </button>
      </td>
    </tr>
  );
}

/** A conversation of two or more loaded requests (newest first): one row, and its requests when opened. */
export function ConversationRows({
  id,
  title,
  sessions,
  a,
}: {
  id: string;
  title: string;
  sessions: SessionSummary[];
  a: RowActions;
}) {
  const [open, setOpen] = useState(false);
  const ids = sessions.map((s) => s.id);
  const all = ids.every((x) => a.selected.has(x));
  const newest = sessions[0] as SessionSummary;
  const models = [...new Set(sessions.map((s) => s.model).filter((m): m is string => m !== null))];
  const totals = sessions.reduce(
    (t, s) => {
      const x = openAiTokenTotals(s.tokens);
      return { input: t.input + x.input, output: t.output + x.output };
    },
    { input: 0, output: 0 },
  );
  return (
    <>
      <tr className={["conversation", all ? "selected" : ""].join(" ").trim()}>
        <td className="check">
          <input
            type="checkbox"
            aria-label={`Select conversation ${title}`}
            checked={all}
            onChange={() => a.toggle(ids, !all)}
          />
        </td>
        <td>
          <button
            type="button"
            className="btn link session-title"
            aria-expanded={open}
            onClick={() => setOpen((o) => !o)}
          >
            {open ? <ChevronDown size={14} aria-hidden /> : <ChevronRight size={14} aria-hidden />}
            {title}
          </button>{" "}
          <span className="badge">{formatNumber(sessions.length)} requests</span>
          {sessions.some((s) => s.running) ? <RunningBadge /> : null}
        </td>
        <td title={formatDateTime(requestTime(newest))}>{formatRelative(requestTime(newest))}</td>
        <td className="mono">{models.length ? models.join(", ") : <span className="faint">{EMPTY}</span>}</td>
        <td className="mono">
          {formatNumber(totals.input)} / {formatNumber(totals.output)}
        </td>
        <td className="actions">
          <button
            type="button"
            className="btn sm danger-ghost"
            aria-label={`Delete conversation ${title}`}
            onClick={() => a.askDeleteConversation({ id, title })}
          >
            Delete
          </button>
        </td>
      </tr>
      {open ? sessions.map((s) => <SessionRow key={s.id} s={s} a={a} nested />) : null}
    </>
  );
}
