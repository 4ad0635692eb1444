// The app's aliases: a client-facing model name → `provider/model[#variant]`. Aliases appear in this app's /v1/models.
import { useMemo, useState } from "react";
import { Tags, X } from "lucide-react";
import { AliasName, AliasTarget, isModelAllowed } from "../../../../shared/apps";
import { errorMessage, useModels } from "../../api";
import { ModelPicker, catalogOptions } from "../../components/ModelPicker";
import { TextField } from "../../components/Field";
import { Callout, EmptyState, SaveWarnings } from "../../components/States";
import { useCurrentApp } from "./context";
import { SaveBar } from "../../components/SaveBar";
import { useSaveApp } from "./useSaveApp";
import { RoutesSummary, fallbacksOf, rolesRoutedTo } from "./AliasRouting";
import { FallbacksPanel } from "./FallbacksPanel";

type Entry = [alias: string, target: string];

/** The Aliases tab: the app's aliases (edited as a draft, saved together), their fallback chains and routes. */
export function AliasesTab() {
  const app = useCurrentApp();
  const models = useModels();
  const save = useSaveApp(app.name);
  const initial = useMemo(() => Object.entries(app.aliases) as Entry[], [app.aliases]);
  const [draft, setDraft] = useState<Entry[]>(initial);
  const [alias, setAlias] = useState("");
  const [target, setTarget] = useState("");
  const [aliasError, setAliasError] = useState<string | null>(null);
  const [targetError, setTargetError] = useState<string | null>(null);
  const options = useMemo(() => catalogOptions(models.data, { variants: true }), [models.data]);
  const dirty = JSON.stringify(draft) !== JSON.stringify(initial);

  const add = () => {
    const a = AliasName.safeParse(alias.trim());
    const t = AliasTarget.safeParse(target.trim());
    setAliasError(
      a.success
        ? draft.some(([n]) => n === alias.trim())
          ? "This alias already exists; remove it first"
          : null
        : (a.error.issues[0]?.message ?? "Invalid alias"),
    );
    setTargetError(t.success ? null : (t.error.issues[0]?.message ?? "Invalid target"));
    if (!a.success || !t.success || draft.some(([n]) => n === a.data)) return;
    setDraft([...draft, [a.data, t.data]]);
    setAlias("");
    setTarget("");
  };

  const notAllowed = draft.filter(([, t]) => !isModelAllowed(app.models, t.split("#")[0] ?? t));

  return (
    <section className="stack-lg" aria-label="Aliases">
      <div className="card stack">
        <div>
          <h2>Aliases</h2>
          <p className="section-note">
            Give models short, stable names for this app (e.g. <code>fast</code> → <code>openai/gpt-5-mini</code>).
            Clients send the alias as <code>model</code>; a <code>#variant</code> picks an OpenCode variant such as{" "}
            <code>high</code>. An alias's fallbacks are tried in order when its model refuses before answering (set them
            under Fallback chains once the alias is saved); removing an alias removes them.
          </p>
        </div>
        {models.isError ? <Callout tone="warn">Model list unavailable: {errorMessage(models.error)}</Callout> : null}
        <div className="alias-row">
          <TextField
            label="Alias"
            value={alias}
            onChange={(v) => {
              setAlias(v);
              setAliasError(null);
            }}
            mono
            placeholder="fast"
            error={aliasError}
          />
          <ModelPicker
            label="Target model"
            value={target}
            onChange={(v) => {
              setTarget(v);
              setTargetError(null);
            }}
            onEnter={() => add()}
            options={options}
            placeholder="provider/model#variant"
            error={targetError}
          />
          <button
            type="button"
            className="btn"
            onClick={add}
            style={{ marginBottom: aliasError || targetError ? 22 : 0 }}
          >
            Add alias
          </button>
        </div>
        {draft.length === 0 ? (
          <EmptyState icon={<Tags size={22} aria-hidden />} title="No aliases">
            Clients can still use full ids like <code>provider/model</code>.
          </EmptyState>
        ) : (
          <div className="table-wrap">
            <table className="table" aria-label="Aliases">
              <thead>
                <tr>
                  <th scope="col">Alias</th>
                  <th scope="col">Target</th>
                  <th scope="col">Fallbacks</th>
                  <th scope="col">Routed roles</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {draft.map(([n, t]) => (
                  <tr key={n}>
                    <td className="mono">{n}</td>
                    <td className="mono">{t}</td>
                    <td className="mono">{fallbacksOf(app, n).join(" → ") || <span className="faint">none</span>}</td>
                    <td className="mono">{rolesRoutedTo(app, n).join(", ") || <span className="faint">none</span>}</td>
                    <td className="actions">
                      <button
                        type="button"
                        className="btn ghost sm icon"
                        aria-label={`Remove alias ${n}`}
                        onClick={() => setDraft(draft.filter(([x]) => x !== n))}
                      >
                        <X size={13} aria-hidden />
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {notAllowed.length ? (
          <Callout tone="warn">
            {notAllowed.map(([n]) => n).join(", ")} point{notAllowed.length === 1 ? "s" : ""} at a model outside this
            app's allowlist; requests for {notAllowed.length === 1 ? "it" : "them"} will be refused.
          </Callout>
        ) : null}
        <SaveWarnings warnings={save.data?.warnings} />
        <SaveBar
          label="Save aliases"
          dirty={dirty}
          pending={save.isPending}
          error={save.error}
          saved={save.isSuccess}
          onSave={() =>
            save.mutate(
              { aliases: Object.fromEntries(draft) },
              { onSuccess: (a) => setDraft(Object.entries(a.aliases)) },
            )
          }
          onReset={() => setDraft(initial)}
        />
      </div>
      {/* Keyed by the saved aliases: a saved removal drops that chain on the server, so the draft starts over. */}
      <FallbacksPanel key={JSON.stringify(app.aliases)} />
      <RoutesSummary app={app} />
    </section>
  );
}
