// The Connect page's "Coding agents" card: a Set up action (opens SetupAgentDialog; `?setup=<client>` opens it from the
// tray) and a Verify button per supported agent, plus the one-command alternatives (`patchbay launch`).
import { useMutation } from "@tanstack/react-query";
import { useSearchParams } from "react-router";
import {
  CONNECT_CLIENT_IDS,
  CONNECT_CLIENT_NAMES,
  ConnectClientId,
  type ConnectVerifyResult,
} from "../../../shared/admin/connect";
import { api, errorMessage, useCli } from "../api";
import { SetupAgentDialog, VerifyResult } from "./SetupAgentDialog";
import { Callout } from "./States";
import { useState } from "react";

function AgentRow({ client, onSetup }: { client: ConnectClientId; onSetup: () => void }) {
  const name = CONNECT_CLIENT_NAMES[client];
  const [result, setResult] = useState<ConnectVerifyResult | null>(null);
  const verify = useMutation({
    mutationFn: () => api.verifyConnect({ params: { client } }),
    onSuccess: setResult,
  });
  return (
    <li className="stack" style={{ gap: 6 }}>
      <div className="row" style={{ justifyContent: "space-between", gap: 8 }}>
        <strong>{name}</strong>
        <span className="row" style={{ gap: 8 }}>
          <button type="button" className="btn" onClick={onSetup} aria-label={`Set up ${name}`}>
            Set up…
          </button>
          <button
            type="button"
            className="btn"
            disabled={verify.isPending}
            onClick={() => verify.mutate()}
            aria-label={`Verify ${name}`}
          >
            {verify.isPending ? "Checking…" : "Verify"}
          </button>
        </span>
      </div>
      {result ? <VerifyResult result={result} /> : null}
      {verify.isError ? <Callout tone="danger">{errorMessage(verify.error)}</Callout> : null}
    </li>
  );
}

export function CodingAgents() {
  const cli = useCli();
  const [params, setParams] = useSearchParams();
  const parsed = ConnectClientId.safeParse(params.get("setup"));
  const open = parsed.success ? parsed.data : null;
  const setOpen = (client: ConnectClientId | null) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (client) next.set("setup", client);
        else next.delete("setup");
        return next;
      },
      { replace: true },
    );
  return (
    <section className="card stack" aria-labelledby="coding-agents">
      <h2 id="coding-agents">Coding agents</h2>
      <p className="section-note">
        Set an agent up for good in its own config file (you see the change first), or start it once with{" "}
        <code>{cli("launch claude")}</code> / <code>{cli("launch codex")}</code> without changing any file (
        <code>npm run -s patchbay -- install-cli</code> in the Patchbay folder puts a <code>patchbay</code> command on
        your PATH).
      </p>
      <ul className="stack" style={{ listStyle: "none", padding: 0, margin: 0 }}>
        {CONNECT_CLIENT_IDS.map((c) => (
          <AgentRow key={c} client={c} onSetup={() => setOpen(c)} />
        ))}
      </ul>
      {open ? <SetupAgentDialog client={open} onClose={() => setOpen(null)} /> : null}
    </section>
  );
}
