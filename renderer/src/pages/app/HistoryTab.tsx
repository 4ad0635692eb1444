// History limits of the app's OpenCode sessions: keep the newest N and/or drop sessions older than N days.
// Unset keeps forever (the default). The Sessions tab (browse, delete, prune preview) is a separate tab.
import { useState } from "react";
import { HistoryLimitsPatch } from "../../../../shared/admin-api";
import { TextField } from "../../components/Field";
import { Switch } from "../../components/Switch";
import { Callout } from "../../components/States";
import { useCurrentApp } from "./context";
import { SaveBar } from "./SaveBar";
import { useSaveApp } from "./useSaveApp";
import { PrunePanel } from "./PrunePanel";

interface Form {
  keepAll: boolean;
  maxSessions: string;
  keepForever: boolean;
  maxAgeDays: string;
}

export function HistoryTab() {
  const app = useCurrentApp();
  const save = useSaveApp(app.name);
  const toForm = (h: typeof app.history): Form => ({
    keepAll: h.maxSessions === null,
    maxSessions: h.maxSessions === null ? "1000" : String(h.maxSessions),
    keepForever: h.maxAgeDays === null,
    maxAgeDays: h.maxAgeDays === null ? "30" : String(h.maxAgeDays),
  });
  const [form, setForm] = useState<Form>(() => toForm(app.history));
  const set = <K extends keyof Form>(k: K, v: Form[K]) => setForm((f) => ({ ...f, [k]: v }));

  const value = {
    maxSessions: form.keepAll ? null : form.maxSessions.trim() === "" ? Number.NaN : Number(form.maxSessions),
    maxAgeDays: form.keepForever ? null : form.maxAgeDays.trim() === "" ? Number.NaN : Number(form.maxAgeDays),
  };
  const parsed = HistoryLimitsPatch.safeParse(value);
  const errorFor = (field: string) => {
    if (parsed.success) return null;
    const issue = parsed.error.issues.find((i) => i.path[0] === field);
    return issue ? (issue.code === "invalid_type" ? "Enter a whole number" : issue.message) : null;
  };
  const dirty = value.maxSessions !== app.history.maxSessions || value.maxAgeDays !== app.history.maxAgeDays;

  return (
    <section className="stack-lg" aria-label="History">
      <div className="card stack-lg">
        <div>
          <h2>History limits</h2>
          <p className="section-note">
            Every request leaves an OpenCode session filed under this app. Limits delete the oldest sessions in the
            background; a running session is never deleted. With both limits set, the stricter one wins.
          </p>
        </div>
        <div className="form-grid">
          <div className="stack">
            <Switch label="Keep all sessions" checked={form.keepAll} onChange={(v) => set("keepAll", v)} />
            <TextField
              label="Max sessions"
              type="number"
              min={1}
              value={form.maxSessions}
              disabled={form.keepAll}
              onChange={(v) => set("maxSessions", v)}
              error={errorFor("maxSessions")}
              hint="Keep the newest sessions only."
            />
          </div>
          <div className="stack">
            <Switch label="Keep sessions forever" checked={form.keepForever} onChange={(v) => set("keepForever", v)} />
            <TextField
              label="Max age (days)"
              type="number"
              min={1}
              value={form.maxAgeDays}
              disabled={form.keepForever}
              onChange={(v) => set("maxAgeDays", v)}
              error={errorFor("maxAgeDays")}
              hint="Delete sessions older than this."
            />
          </div>
        </div>
        {!form.keepAll || !form.keepForever ? (
          <Callout tone="warn">Sessions beyond these limits are deleted for good.</Callout>
        ) : null}
        <SaveBar
          label="Save history limits"
          dirty={dirty}
          pending={save.isPending}
          error={save.error}
          saved={save.isSuccess}
          blocked={parsed.success ? null : "Fix the highlighted fields"}
          onSave={() =>
            parsed.success && save.mutate({ history: parsed.data }, { onSuccess: (a) => setForm(toForm(a.history)) })
          }
          onReset={() => setForm(toForm(app.history))}
        />
      </div>
      <div className="card stack">
        <div>
          <h2>Stored responses</h2>
          <p className="section-note">
            Responses API answers are kept (unless a request says <code>store: false</code>) so clients can continue
            with <code>previous_response_id</code> or <code>item_reference</code>. They count toward these limits and
            are pruned with the sessions.
          </p>
        </div>
        <Switch
          label="Store responses"
          checked={app.storeResponses}
          disabled={save.isPending}
          onChange={(v) => save.mutate({ storeResponses: v })}
        />
      </div>
      <PrunePanel app={app.name} limits={parsed.success ? value : null} saved={app.history} />
    </section>
  );
}
