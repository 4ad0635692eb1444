// A confirmation dialog for destructive or risky actions; shows the action's error inline and stays open on failure.
import { useState, type ReactNode } from "react";
import { errorMessage } from "../api";
import { Dialog } from "./Dialog";
import { Callout } from "./States";

export interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  /** Accessible name of the confirm button, e.g. "Revoke key". */
  confirmLabel: string;
  tone?: "danger" | "primary";
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
}

export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  tone = "danger",
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    setPending(true);
    setError(null);
    try {
      await onConfirm();
      onClose();
    } catch (err) {
      setError(errorMessage(err));
      setPending(false);
    }
  };
  return (
    <Dialog
      title={title}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose} data-autofocus>
            Cancel
          </button>
          <button type="button" className={`btn ${tone}`} onClick={() => void confirm()} disabled={pending}>
            {confirmLabel}
          </button>
        </>
      }
    >
      {children}
      {error ? <Callout tone="danger">{error}</Callout> : null}
    </Dialog>
  );
}
