// History limits of the app's OpenCode sessions: keep the newest N and/or drop sessions older than N days.
// Unset keeps forever (the default). The Sessions tab (browse, delete, prune preview) is a separate tab.
import { HistoryLimitsPatch } from "../../../../shared/admin-api";
import type { HistoryLimits } from "../../../../shared/apps";
import { TextField } from "../../components/Field";
import { Switch } from "../../components/Switch";
import { Callout } from "../../components/States";
import { useSchemaForm } from "../../hooks/useSchemaForm";
import { useCurrentApp } from "./context";
import { SaveBar } from "../../components/SaveBar";
import { useSaveApp } from "./useSaveApp";
import { PrunePanel } from "./PrunePanel";

interface Form {
  keepAll: boolean;
  maxSessions: string;
  keepForever: boolean;
  maxAgeDays: string;
}

/** A limit switched off (keep all / forever) still shows a starting number for when it is switched on. */
const toForm = (h: HistoryLimits): Form => ({
  keepAll: h.maxSessions === null,
  maxSessions: h.maxSessions === null ? "1000" : String(h.maxSessions),
  keepForever: h.maxAgeDays === null,
  maxAgeDays: h.maxAgeDays === null ? "30" : String(h.maxAgeDays),
});

const num = (s: string): number => (s.trim() === "" ? Number.NaN : Number(s));

const toValue = (f: Form): HistoryLimits => ({
  maxSessions: f.keepAll ? null : num(f.maxSessions),
  maxAgeDays: f.keepForever ? null : num(f.maxAgeDays),
});

export function HistoryTab() {
  const app = useCurrentApp();
  const save = useSaveApp(app.name);
  const { form, set, reset, value, errors, dirty, blocked } = useSchemaForm({
    schema: HistoryLimitsPatch,
    initial: toForm(app.history),
    toValue,
  });

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
              error={errors.maxSessions}
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
              error={errors.maxAgeDays}
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
          blocked={blocked}
          onSave={() => value && save.mutate({ history: value }, { onSuccess: (a) => reset(toForm(a.history)) })}
          onReset={() => reset()}
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
      <PrunePanel app={app.name} limits={value ? toValue(form) : null} saved={app.history} />
    </section>
  );
}
