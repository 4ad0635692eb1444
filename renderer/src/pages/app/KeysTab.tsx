// Keys of one app: list (prefix, label, created, last used), create-and-reveal-once, revoke with confirmation.
// The full key lives only in this component's state while the reveal dialog is open.
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { KeyRound, Plus } from "lucide-react";
import type { CreatedKey, KeyInfo } from "../../../../shared/keys";
import { api, errorMessage, qk } from "../../api";
import { Dialog } from "../../components/Dialog";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { CopyButton } from "../../components/CopyButton";
import { TextField } from "../../components/Field";
import { Callout, EmptyState, ErrorState, Loading } from "../../components/States";
import { EMPTY, formatDateTime, formatRelative } from "../../lib/format";
import { useRevokeKey } from "../../mutations";
import { useCurrentApp } from "./context";

function NewKeyDialog({ app, onClose }: { app: string; onClose: () => void }) {
  const qc = useQueryClient();
  const [label, setLabel] = useState("");
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const create = useMutation({
    mutationFn: () => api.createKey({ params: { name: app }, body: { label: label.trim() || undefined } }),
    onSuccess: (key) => {
      setCreated(key);
      void qc.invalidateQueries({ queryKey: qk.keys(app) });
      void qc.invalidateQueries({ queryKey: qk.apps });
    },
  });

  if (created) {
    return (
      <Dialog
        key="reveal"
        title="Your new key"
        onClose={onClose}
        footer={
          <button type="button" className="btn primary" onClick={onClose}>
            Done
          </button>
        }
      >
        <Callout tone="warn">
          <strong>Copy this key now. You won't see it again.</strong> Patchbay stores only a fingerprint of it. If you
          lose it, revoke it and create a new one.
        </Callout>
        <div className="field">
          <label htmlFor="new-key-value">API key</label>
          <div className="key-reveal">
            <input
              id="new-key-value"
              className="input"
              readOnly
              value={created.key}
              onFocus={(e) => e.currentTarget.select()}
              data-autofocus
            />
            <CopyButton text={created.key} label="Copy key" className="btn primary" />
          </div>
          <span className="hint">
            Send it as <code>Authorization: Bearer &lt;key&gt;</code>, or set it as the API key in your client.
          </span>
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog
      key="form"
      title="New key"
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="new-key-form" className="btn primary" disabled={create.isPending}>
            Create key
          </button>
        </>
      }
    >
      <form
        id="new-key-form"
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <TextField
          label="Label (optional)"
          value={label}
          onChange={setLabel}
          maxLength={80}
          placeholder="e.g. laptop, CI"
          data-autofocus
          hint="Helps you tell keys apart; only you see it."
        />
      </form>
      {create.isError ? <Callout tone="danger">{errorMessage(create.error)}</Callout> : null}
    </Dialog>
  );
}

export function KeysTab() {
  const app = useCurrentApp();
  const keys = useQuery({ queryKey: qk.keys(app.name), queryFn: () => api.listKeys({ params: { name: app.name } }) });
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<KeyInfo | null>(null);

  const revoke = useRevokeKey(app.name);

  return (
    <section className="stack" aria-label="Keys">
      <div className="row spread">
        <p className="section-note">
          Each program that uses this app gets its own key. Keys are shown once, when you create them.
        </p>
        <button type="button" className="btn primary" onClick={() => setCreating(true)}>
          <Plus size={15} aria-hidden />
          New key
        </button>
      </div>
      {keys.isPending ? (
        <Loading label="Loading keys…" />
      ) : keys.isError ? (
        <ErrorState title="Could not load keys" error={keys.error} onRetry={() => void keys.refetch()} />
      ) : keys.data.keys.length === 0 ? (
        <div className="card">
          <EmptyState icon={<KeyRound size={22} aria-hidden />} title="No keys yet">
            Create a key to let a program call this app.
          </EmptyState>
        </div>
      ) : (
        <div className="table-wrap">
          <table className="table" aria-label="API keys">
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Label</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.keys.map((k) => (
                <tr key={k.prefix}>
                  <td className="mono">pb-{k.prefix}…</td>
                  <td>{k.label || <span className="faint">{EMPTY}</span>}</td>
                  <td title={formatDateTime(k.createdAt)}>{formatRelative(k.createdAt)}</td>
                  <td title={k.lastUsedAt ? formatDateTime(k.lastUsedAt) : undefined}>
                    {k.lastUsedAt ? formatRelative(k.lastUsedAt) : <span className="faint">Never</span>}
                  </td>
                  <td className="actions">
                    <button
                      type="button"
                      className="btn sm danger-ghost"
                      aria-label={`Revoke ${k.prefix}`}
                      onClick={() => setRevoking(k)}
                    >
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {creating ? <NewKeyDialog app={app.name} onClose={() => setCreating(false)} /> : null}
      {revoking ? (
        <ConfirmDialog
          title="Revoke key"
          confirmLabel="Yes, revoke"
          onConfirm={() => revoke.mutateAsync(revoking.prefix)}
          onClose={() => setRevoking(null)}
        >
          <p>
            Revoke <code>pb-{revoking.prefix}…</code>
            {revoking.label ? ` (${revoking.label})` : ""}? Programs using it get <code>401</code> from now on. This
            cannot be undone.
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
