// The Connect page's "Set up" dialog for one coding agent: shows the change to its own config file as a diff, writes
// it only when asked, then checks it with one real request (the same operations as `patchbay connect`).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import {
  CONNECT_CLIENT_NAMES,
  type ConnectApplyResult,
  type ConnectClientId,
  type ConnectVerifyResult,
} from "../../../shared/admin/connect";
import { api, errorMessage, qk } from "../api";
import { Dialog } from "./Dialog";
import { TextField } from "./Field";
import { Callout, Loading } from "./States";

/** One verify outcome, as a callout. */
export function VerifyResult({ result }: { result: ConnectVerifyResult }) {
  return (
    <Callout tone={result.ok ? "info" : "danger"}>
      <strong>{result.ok ? "OK" : "Check failed"}:</strong> {result.message}
      {result.hint ? ` ${result.hint}` : null}
    </Callout>
  );
}

export function SetupAgentDialog({ client, onClose }: { client: ConnectClientId; onClose: () => void }) {
  const name = CONNECT_CLIENT_NAMES[client];
  const qc = useQueryClient();
  const [model, setModel] = useState("");
  const [asked, setAsked] = useState<string | undefined>(undefined);
  const [applied, setApplied] = useState<ConnectApplyResult | null>(null);
  const [verified, setVerified] = useState<ConnectVerifyResult | null>(null);
  const body = asked ? { model: asked } : {};
  const preview = useQuery({
    queryKey: qk.connectPreview(client, asked ?? ""),
    queryFn: () => api.previewConnect({ params: { client }, body }),
    enabled: applied === null,
    staleTime: 0,
  });
  const apply = useMutation({
    mutationFn: async () => {
      const r = await api.applyConnect({ params: { client }, body });
      setApplied(r);
      setVerified(await api.verifyConnect({ params: { client } }));
    },
    onSuccess: () => void qc.invalidateQueries({ queryKey: qk.apps }),
  });
  const p = preview.data;

  return (
    <Dialog
      title={`Set up ${name}`}
      onClose={onClose}
      wide
      footer={
        applied ? (
          <button type="button" className="btn primary" onClick={onClose} data-autofocus>
            Done
          </button>
        ) : (
          <>
            <button type="button" className="btn" onClick={onClose} data-autofocus>
              Cancel
            </button>
            <button
              type="button"
              className="btn primary"
              disabled={!p || !p.changed || apply.isPending}
              onClick={() => apply.mutate()}
            >
              {apply.isPending ? "Writing…" : "Write settings"}
            </button>
          </>
        )
      }
    >
      <div className="stack">
        {applied ? (
          <>
            <p>
              {applied.changed ? "Wrote" : "Already had"} Patchbay's settings in <code>{applied.path}</code> (model{" "}
              <code>{applied.model}</code>).{" "}
              {applied.backup ? (
                <>
                  The original is kept in <code>{applied.backup}</code>.
                </>
              ) : null}{" "}
              Undo with <code>{applied.undo}</code>.
            </p>
            {(applied.notes ?? []).map((note) => (
              <Callout key={note} tone="warn">
                {note}
              </Callout>
            ))}
            {verified ? <VerifyResult result={verified} /> : <Loading label="Checking…" />}
          </>
        ) : (
          <>
            <form
              className="row"
              style={{ alignItems: "flex-end", gap: 8 }}
              onSubmit={(e) => {
                e.preventDefault();
                setAsked(model.trim() || undefined);
              }}
            >
              <TextField
                label="Model"
                value={model}
                onChange={setModel}
                placeholder={p?.model ?? "automatic"}
                hint="Empty: the app's default alias, else the first available model."
                mono
              />
              <button type="submit" className="btn">
                Preview
              </button>
            </form>
            {preview.isPending ? <Loading label="Reading the config file…" /> : null}
            {preview.isError ? <Callout tone="danger">{errorMessage(preview.error)}</Callout> : null}
            {p ? (
              p.changed ? (
                <>
                  <p>
                    {p.exists ? (
                      <>
                        Changes to <code>{p.path}</code>; everything else in it stays as it is.{" "}
                        {!p.backup ? "The original is backed up first." : null}
                      </>
                    ) : (
                      <>
                        New file <code>{p.path}</code> (undo removes it).
                      </>
                    )}{" "}
                    It uses a key and the models of the app <code>{p.app}</code>.
                  </p>
                  <pre className="code" aria-label="Changes" tabIndex={0}>
                    <code>{p.diff}</code>
                  </pre>
                  {p.companion?.changed ? (
                    <p>
                      Also writes {p.companion.what} to <code>{p.companion.path}</code> (the file above names it).
                    </p>
                  ) : null}
                </>
              ) : (
                <Callout>
                  <code>{p.path}</code> already has these settings (model <code>{p.model}</code>).
                </Callout>
              )
            ) : null}
            {apply.isError ? <Callout tone="danger">{errorMessage(apply.error)}</Callout> : null}
          </>
        )}
      </div>
    </Dialog>
  );
}
