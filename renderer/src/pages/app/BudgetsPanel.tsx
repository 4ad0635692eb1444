// Budgets (Limits tab): rolling request or token budgets of the app. Over one, requests are refused with 429 until
// it resets, and every answer carries the app's utilization in the headers its client reads.
import { useState } from "react";
import { X } from "lucide-react";
import { describeBudget, parseBudgetSpec, type Budget } from "../../../../shared/routing";
import { SelectField, TextField } from "../../components/Field";
import { SaveBar } from "../../components/SaveBar";
import { useCurrentApp } from "./context";
import { useSaveApp } from "./useSaveApp";

export function BudgetsPanel() {
  const app = useCurrentApp();
  const save = useSaveApp(app.name);
  const [draft, setDraft] = useState<Budget[]>(() => app.budgets);
  const [metric, setMetric] = useState<Budget["metric"]>("requests");
  const [spec, setSpec] = useState("");
  const [specError, setSpecError] = useState<string | null>(null);
  const dirty = JSON.stringify(draft) !== JSON.stringify(app.budgets);

  const add = () => {
    const parsed = parseBudgetSpec(metric, spec);
    if ("error" in parsed) {
      setSpecError(parsed.error);
      return;
    }
    setSpecError(null);
    setDraft([...draft.filter((b) => !(b.metric === parsed.metric && b.window === parsed.window)), parsed]);
    setSpec("");
  };

  return (
    <section className="card stack-lg" aria-label="Budgets">
      <div>
        <h2>Budgets</h2>
        <p className="section-note">
          Rolling windows of requests or tokens (input + output). A spent budget is refused with 429 and the time it
          resets. Every answer carries the app&apos;s use in rate-limit headers: Codex shows it; Claude Code reads them
          only from a gateway it recognises, not from a plain Patchbay key.
        </p>
      </div>
      {draft.length === 0 ? (
        <p className="faint">No budget: requests are not counted against a limit.</p>
      ) : (
        <ul className="row" style={{ listStyle: "none", margin: 0, padding: 0 }} aria-label="App budgets">
          {draft.map((b) => (
            <li key={`${b.metric}/${b.window}`} className="chip">
              {describeBudget(b)}
              <button
                type="button"
                className="btn ghost sm icon"
                aria-label={`Remove ${describeBudget(b)}`}
                onClick={() => setDraft(draft.filter((x) => x !== b))}
              >
                <X size={13} aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="form-grid">
        <SelectField
          label="Count"
          value={metric}
          onChange={(v) => setMetric(v === "tokens" ? "tokens" : "requests")}
          options={[
            { value: "requests", label: "Requests" },
            { value: "tokens", label: "Tokens" },
          ]}
        />
        <TextField
          label="Budget"
          mono
          value={spec}
          placeholder="300/5h"
          onChange={setSpec}
          onKeyDown={(e) => e.key === "Enter" && add()}
          error={specError}
          hint="N/window with a window of 5h, day or week."
        />
      </div>
      <div>
        <button type="button" className="btn" onClick={add}>
          Add budget
        </button>
      </div>
      <SaveBar
        label="Save budgets"
        dirty={dirty}
        pending={save.isPending}
        error={save.error}
        saved={save.isSuccess}
        onSave={() => save.mutate({ budgets: draft }, { onSuccess: (a) => setDraft(a.budgets) })}
        onReset={() => setDraft(app.budgets)}
      />
    </section>
  );
}
