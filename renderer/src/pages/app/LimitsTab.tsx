// Per-app request limits: concurrency, max tools, timeouts, max body, remote images (with a warning), CORS origins.
// Shown in friendly units (seconds, MB); stored in ms and bytes (shared/apps.ts AppLimits).
import { useMemo } from "react";
import { BudgetsPanel } from "./BudgetsPanel";
import { AppLimitsPatch } from "../../../../shared/admin-api";
import type { AppLimits } from "../../../../shared/apps";
import { TextField } from "../../components/Field";
import { useSchemaForm, type FieldMapping } from "../../hooks/useSchemaForm";
import { Switch } from "../../components/Switch";
import { Callout } from "../../components/States";
import { useCurrentApp } from "./context";
import { WebSearchPanel } from "./WebSearchPanel";
import { SaveBar } from "../../components/SaveBar";
import { useSaveApp } from "./useSaveApp";

const MB = 1024 * 1024;

interface Form {
  concurrency: string;
  maxTools: string;
  firstTokenTimeoutS: string;
  totalTimeoutS: string;
  maxBodyMb: string;
  remoteImages: boolean;
  corsOrigins: string;
}

function toForm(l: AppLimits): Form {
  return {
    concurrency: String(l.concurrency),
    maxTools: String(l.maxTools),
    firstTokenTimeoutS: String(l.firstTokenTimeoutMs / 1000),
    totalTimeoutS: String(l.totalTimeoutMs / 1000),
    maxBodyMb: String(Math.round((l.maxBodyBytes / MB) * 100) / 100),
    remoteImages: l.remoteImages,
    corsOrigins: l.corsOrigins.join("\n"),
  };
}

const num = (s: string): number => (s.trim() === "" ? Number.NaN : Number(s));

/** Form → full limits object (may be invalid; validated with AppLimitsPatch). */
function fromForm(f: Form): Record<keyof AppLimits, unknown> {
  return {
    concurrency: num(f.concurrency),
    maxTools: num(f.maxTools),
    firstTokenTimeoutMs: Math.round(num(f.firstTokenTimeoutS) * 1000),
    totalTimeoutMs: Math.round(num(f.totalTimeoutS) * 1000),
    maxBodyBytes: Math.round(num(f.maxBodyMb) * MB),
    remoteImages: f.remoteImages,
    corsOrigins: f.corsOrigins
      .split(/[\n,]/)
      .map((s) => s.trim())
      .filter(Boolean),
  };
}

/** Limits shown in other units than stored (the error messages then name bounds in the shown unit). */
const FIELDS: Partial<Record<keyof AppLimits, FieldMapping<Form>>> = {
  firstTokenTimeoutMs: { field: "firstTokenTimeoutS", scale: 1000 },
  totalTimeoutMs: { field: "totalTimeoutS", scale: 1000 },
  maxBodyBytes: { field: "maxBodyMb", scale: MB },
};

export function LimitsTab() {
  const app = useCurrentApp();
  const save = useSaveApp(app.name);
  const initial = useMemo(() => toForm(app.limits), [app.limits]);
  const { form, set, reset, value, errors, dirty, blocked } = useSchemaForm({
    schema: AppLimitsPatch,
    initial,
    toValue: fromForm,
    fields: FIELDS,
  });

  const onSave = () => {
    if (!value) return;
    const patch = Object.fromEntries(
      Object.entries(value).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(app.limits[k as keyof AppLimits])),
    );
    save.mutate({ limits: patch }, { onSuccess: (a) => reset(toForm(a.limits)) });
  };

  return (
    <section className="stack-lg" aria-label="Limits">
      <div className="card stack-lg">
        <div>
          <h2>Request limits</h2>
          <p className="section-note">
            Protect your subscriptions from runaway clients. Requests over a limit get a clear error, never a hang.
          </p>
        </div>
        <div className="form-grid">
          <TextField
            label="Concurrency"
            type="number"
            min={1}
            max={64}
            value={form.concurrency}
            onChange={(v) => set("concurrency", v)}
            error={errors.concurrency}
            hint="Simultaneous requests; more get 429 with Retry-After."
          />
          <TextField
            label="Max tools"
            type="number"
            min={0}
            max={512}
            value={form.maxTools}
            onChange={(v) => set("maxTools", v)}
            error={errors.maxTools}
            hint="Tools one request may declare."
          />
          <TextField
            label="First token timeout (seconds)"
            type="number"
            min={1}
            max={3600}
            value={form.firstTokenTimeoutS}
            onChange={(v) => set("firstTokenTimeoutS", v)}
            error={errors.firstTokenTimeoutS}
            hint="Give up if the model has not started answering."
          />
          <TextField
            label="Total timeout (seconds)"
            type="number"
            min={1}
            max={7200}
            value={form.totalTimeoutS}
            onChange={(v) => set("totalTimeoutS", v)}
            error={errors.totalTimeoutS}
            hint="Whole request; long reasoning needs minutes."
          />
          <TextField
            label="Max request body (MB)"
            type="number"
            min={0.01}
            max={100}
            step="any"
            value={form.maxBodyMb}
            onChange={(v) => set("maxBodyMb", v)}
            error={errors.maxBodyMb}
            hint="Bigger bodies get 413. Images count."
          />
        </div>
        <div className="stack">
          <Switch
            label="Fetch remote images"
            checked={form.remoteImages}
            onChange={(v) => set("remoteImages", v)}
            hint="Download http(s) image URLs that clients send. Data URLs always work."
          />
          {form.remoteImages ? (
            <Callout tone="warn">
              Patchbay will download image URLs on behalf of this app's clients. Private, loopback and link-local
              addresses are blocked, but only turn this on for clients you trust.
            </Callout>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor="cors-origins">CORS origins</label>
          <textarea
            id="cors-origins"
            className="textarea"
            rows={3}
            value={form.corsOrigins}
            onChange={(e) => set("corsOrigins", e.target.value)}
            placeholder={"http://localhost:3000\nhttps://my-tool.example"}
            aria-describedby="cors-origins-hint"
            aria-invalid={errors.corsOrigins ? true : undefined}
          />
          <span className="hint" id="cors-origins-hint">
            One browser origin per line (or <code>*</code>). Leave empty unless a web page calls this app directly.
          </span>
          {errors.corsOrigins ? <span className="error-text">{errors.corsOrigins}</span> : null}
        </div>
        <SaveBar
          label="Save limits"
          dirty={dirty}
          pending={save.isPending}
          error={save.error}
          saved={save.isSuccess}
          blocked={blocked}
          onSave={onSave}
          onReset={() => reset()}
        />
      </div>
      <WebSearchPanel />
      <BudgetsPanel />
    </section>
  );
}
