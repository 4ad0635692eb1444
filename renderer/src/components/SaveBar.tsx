// Save / Reset row shared by the editors (Settings and the app tabs), with the save error or a "Saved"
// confirmation announced politely.
import { Callout } from "./States";
import { errorMessage } from "../api";

export interface SaveBarProps {
  /** Accessible name of the save button, e.g. "Save allowlist". */
  label: string;
  dirty: boolean;
  pending: boolean;
  error: unknown;
  saved: boolean;
  onSave: () => void;
  onReset: () => void;
  /** A validation problem that blocks saving. */
  blocked?: string | null;
}

export function SaveBar({ label, dirty, pending, error, saved, onSave, onReset, blocked }: SaveBarProps) {
  return (
    <div className="stack">
      {error ? <Callout tone="danger">{errorMessage(error)}</Callout> : null}
      <div className="row">
        <button type="button" className="btn primary" disabled={!dirty || pending || !!blocked} onClick={onSave}>
          {label}
        </button>
        <button type="button" className="btn ghost" disabled={!dirty || pending} onClick={onReset}>
          Reset
        </button>
        <span role="status" className="faint">
          {blocked ? blocked : pending ? "Saving…" : dirty ? "Unsaved changes" : saved ? "Saved" : ""}
        </span>
      </div>
    </div>
  );
}
