// The app's model allowlist: `provider/model` ids and `provider/*` patterns picked from the catalog or typed.
// An empty list allows every model (shared/apps.ts isModelAllowed).
import { useMemo, useState } from "react";
import { X } from "lucide-react";
import { ModelPatternInput, isModelAllowed } from "../../../../shared/apps";
import { errorMessage, useModels } from "../../api";
import { ModelPicker, catalogOptions } from "../../components/ModelPicker";
import { Callout } from "../../components/States";
import { useCurrentApp } from "./context";
import { SaveBar } from "../../components/SaveBar";
import { useSaveApp } from "./useSaveApp";
import { RoutesPanel } from "./RoutesPanel";

export function ModelsTab() {
  const app = useCurrentApp();
  const models = useModels();
  const save = useSaveApp(app.name);
  const [draft, setDraft] = useState<string[]>(() => app.models);
  const [pick, setPick] = useState("");
  const [pickError, setPickError] = useState<string | null>(null);

  const options = useMemo(() => catalogOptions(models.data, { patterns: true }), [models.data]);
  const allIds = useMemo(() => models.data?.providers.flatMap((p) => p.models.map((m) => m.id)) ?? [], [models.data]);
  const allowedCount = allIds.filter((id) => isModelAllowed(draft, id)).length;
  const dirty = JSON.stringify(draft) !== JSON.stringify(app.models);

  const add = (value: string) => {
    const v = value.trim();
    if (!v) return;
    const r = ModelPatternInput.safeParse(v);
    if (!r.success) {
      setPickError(r.error.issues[0]?.message ?? "Invalid pattern");
      return;
    }
    setPickError(null);
    if (!draft.includes(v)) setDraft([...draft, v]);
    setPick("");
  };

  return (
    <section className="stack-lg" aria-label="Models">
      <div className="card stack">
        <div>
          <h2>Allowed models</h2>
          <p className="section-note">
            Requests for other models get <code>403 model_not_allowed</code>. Leave the list empty to allow every model.
            Aliases are checked against their target.
          </p>
        </div>
        {models.isError ? (
          <Callout tone="warn">
            Model list unavailable: {errorMessage(models.error)} You can still type ids and patterns.
          </Callout>
        ) : null}
        <div className="row" style={{ alignItems: "flex-end" }}>
          <div className="grow">
            <ModelPicker
              label="Add a model or pattern"
              value={pick}
              onChange={(v) => {
                setPick(v);
                setPickError(null);
              }}
              onEnter={add}
              onPick={add}
              options={options}
              placeholder={models.isPending ? "Loading models…" : "Search, or type provider/model or provider/*"}
              error={pickError}
            />
          </div>
          <button type="button" className="btn" onClick={() => add(pick)} style={{ marginBottom: pickError ? 22 : 0 }}>
            Add
          </button>
        </div>
        {draft.length === 0 ? (
          <Callout>Every model is allowed{allIds.length ? ` (${allIds.length} available now)` : ""}.</Callout>
        ) : (
          <>
            <ul className="row" style={{ listStyle: "none", margin: 0, padding: 0 }} aria-label="Allowlist">
              {draft.map((p) => (
                <li key={p} className="chip">
                  {p}
                  <button
                    type="button"
                    className="btn ghost sm icon"
                    aria-label={`Remove ${p}`}
                    onClick={() => setDraft(draft.filter((x) => x !== p))}
                  >
                    <X size={13} aria-hidden />
                  </button>
                </li>
              ))}
            </ul>
            {allIds.length ? (
              <p className="faint">
                {allowedCount} of {allIds.length} available models allowed.
              </p>
            ) : null}
          </>
        )}
        <SaveBar
          label="Save allowlist"
          dirty={dirty}
          pending={save.isPending}
          error={save.error}
          saved={save.isSuccess}
          onSave={() => save.mutate({ models: draft }, { onSuccess: (a) => setDraft(a.models) })}
          onReset={() => setDraft(app.models)}
        />
      </div>
      <RoutesPanel />
    </section>
  );
}
