// Settings: where the OpenAI API listens (host, port, LAN exposure behind a warning), log bodies, start on launch,
// and — in the desktop app only — launch at login and the data folder.
import { useEffect, useRef, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { FolderOpen } from "lucide-react";
import type { Settings } from "../../../shared/settings";
import { SettingsUpdate } from "../../../shared/admin-api";
import { api, errorMessage, qk, useSettings, useStatus } from "../api";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { CopyButton } from "../components/CopyButton";
import { TextField } from "../components/Field";
import { PageHeader } from "../components/PageHeader";
import { SaveBar } from "../components/SaveBar";
import { Switch } from "../components/Switch";
import { Callout, ErrorState, Loading } from "../components/States";
import { useSchemaForm } from "../hooks/useSchemaForm";
import { EMPTY } from "../lib/format";
import { WebSearchSection } from "./settings/WebSearchSection";

interface Form {
  host: string;
  port: string;
  lanExposure: boolean;
  logBodies: boolean;
  startOnLaunch: boolean;
  /** OpenCode memory limit in MB; "" = automatic. */
  memoryLimit: string;
  /** OpenCode keep-alive as typed (`10m`, `0`, `forever`). */
  opencodeKeepAlive: string;
}

const toForm = (s: Settings): Form => ({
  host: s.host,
  port: String(s.port),
  lanExposure: s.lanExposure,
  logBodies: s.logBodies,
  startOnLaunch: s.startOnLaunch,
  memoryLimit: s.opencodeMemoryLimitMB === null ? "" : String(s.opencodeMemoryLimitMB),
  opencodeKeepAlive: s.opencodeKeepAlive,
});
const num = (s: string): number => (s.trim() === "" ? Number.NaN : Number(s));

const toValue = ({ memoryLimit, ...rest }: Form) => ({
  ...rest,
  host: rest.host.trim(),
  port: num(rest.port),
  opencodeMemoryLimitMB: memoryLimit.trim() === "" ? null : Number(memoryLimit),
  opencodeKeepAlive: rest.opencodeKeepAlive.trim(),
});

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1)$/i;

function DesktopSection() {
  const qc = useQueryClient();
  const desktop = useQuery({ queryKey: qk.desktop, queryFn: () => api.getDesktop() });
  const setLogin = useMutation({
    mutationFn: (enabled: boolean) => api.setLaunchAtLogin({ body: { enabled } }),
    onSuccess: (d) => {
      qc.setQueryData(qk.desktop, d);
      void qc.invalidateQueries({ queryKey: qk.settings });
    },
  });
  const open = useMutation({ mutationFn: () => api.openDataFolder() });
  return (
    <section className="card stack-lg" aria-label="Desktop">
      <h2>Desktop</h2>
      {desktop.isError ? <ErrorState error={desktop.error} onRetry={() => void desktop.refetch()} /> : null}
      <Switch
        label="Launch at login"
        hint="Start Patchbay hidden in the tray when you log in."
        checked={desktop.data?.launchAtLogin ?? false}
        disabled={!desktop.data || setLogin.isPending}
        onChange={(v) => setLogin.mutate(v)}
      />
      {setLogin.isError ? <Callout tone="danger">{errorMessage(setLogin.error)}</Callout> : null}
      <div className="row">
        <button type="button" className="btn" onClick={() => open.mutate()} disabled={open.isPending}>
          <FolderOpen size={15} aria-hidden />
          Open data folder
        </button>
        {desktop.data ? <code className="faint">{desktop.data.dataDir}</code> : null}
      </div>
      {open.isError ? <Callout tone="danger">{errorMessage(open.error)}</Callout> : null}
    </section>
  );
}

function SettingsForm({ settings }: { settings: Settings }) {
  const qc = useQueryClient();
  const status = useStatus().data;
  const initial = toForm(settings);
  const { form, set, reset, value, errors, dirty, blocked } = useSchemaForm({
    schema: SettingsUpdate,
    initial,
    toValue,
    fields: { opencodeMemoryLimitMB: { field: "memoryLimit" } },
  });
  const [confirmLan, setConfirmLan] = useState(false);
  // Settings saved elsewhere (another window, the CLI): an untouched form takes them, edits in progress stay. Not a
  // remount keyed by the settings: this form's own save would remount it and lose its "Saved".
  const initialJson = JSON.stringify(initial);
  const seen = useRef(initialJson);
  useEffect(() => {
    if (seen.current === initialJson) return;
    if (JSON.stringify(form) === seen.current) reset(JSON.parse(initialJson) as typeof initial);
    seen.current = initialJson;
  }, [initialJson, form, reset]);
  const listenerChanged =
    form.host !== initial.host || form.port !== initial.port || form.lanExposure !== initial.lanExposure;

  const save = useMutation({
    mutationFn: async (next: SettingsUpdate) => {
      const patch = Object.fromEntries(Object.entries(next).filter(([k, v]) => settings[k as keyof Settings] !== v));
      return api.updateSettings({ body: patch });
    },
    onSuccess: (s) => {
      qc.setQueryData(qk.settings, s);
      reset(toForm(s));
    },
  });
  const restart = useMutation({
    mutationFn: async () => {
      await api.stopApi();
      return api.startApi();
    },
    onSuccess: (s) => qc.setQueryData(qk.status, s),
  });
  const pinned = status?.api.pinned ?? false;
  const appliedDiffers =
    !pinned &&
    status &&
    status.api.running &&
    (status.api.port !== settings.port ||
      status.api.lanExposure !== settings.lanExposure ||
      (!settings.lanExposure && status.api.host !== settings.host));

  return (
    <section className="card stack-lg" aria-label="OpenAI API">
      <div>
        <h2>OpenAI API</h2>
        <p className="section-note">
          Where the OpenAI-compatible API listens. The dashboard itself always stays on this computer only.
        </p>
      </div>
      <div className="form-grid">
        <TextField
          label="Host"
          value={form.host}
          onChange={(v) => set("host", v)}
          mono
          disabled={form.lanExposure}
          error={errors.host}
          hint={
            form.lanExposure
              ? "LAN exposure binds all interfaces (0.0.0.0)."
              : "127.0.0.1 keeps the API on this computer."
          }
        />
        <TextField
          label="Port"
          type="number"
          min={0}
          max={65535}
          value={form.port}
          onChange={(v) => set("port", v)}
          error={errors.port}
          hint="Default 4747. 0 picks a free port."
        />
      </div>
      {!form.lanExposure && form.host.trim() && !LOOPBACK.test(form.host.trim()) ? (
        <Callout tone="warn">
          <code>{form.host}</code> is not a loopback address: other devices may reach the API on it. Keys are still
          required for requests.
        </Callout>
      ) : null}
      <Switch
        label="Expose on LAN"
        hint="Let other devices on your network use the API. Every route then requires a key."
        checked={form.lanExposure}
        onChange={(v) => (v ? setConfirmLan(true) : set("lanExposure", false))}
      />
      <Switch
        label="Keep request bodies in the log"
        hint="Stores prompts and answers in the request log on disk. Keys are never stored."
        checked={form.logBodies}
        onChange={(v) => set("logBodies", v)}
      />
      {form.logBodies ? (
        <Callout tone="warn">
          Request and response bodies can contain private data. They are kept on disk until the log rotates.
        </Callout>
      ) : null}
      <Switch
        label="Start the API when Patchbay launches"
        hint={
          <>
            When off, the API stays stopped until you press Start API on the Overview page.{" "}
            <code>patchbay serve --port …</code> always starts it.
          </>
        }
        checked={form.startOnLaunch}
        onChange={(v) => set("startOnLaunch", v)}
      />
      <TextField
        label="OpenCode memory limit (MB)"
        type="number"
        min={0}
        value={form.memoryLimit}
        onChange={(v) => set("memoryLimit", v)}
        error={errors.memoryLimit}
        hint="Above it, OpenCode is restarted between requests (sessions are kept). Empty: automatic (RAM / 16, 1–2 GB). 0: never."
      />
      <TextField
        label="OpenCode keep-alive"
        value={form.opencodeKeepAlive}
        onChange={(v) => set("opencodeKeepAlive", v)}
        error={errors.opencodeKeepAlive}
        hint="After this long without a model request OpenCode sleeps (it frees its memory) and starts again on the next request: e.g. 10m, 90s, 2h; 0 = as soon as it is idle; forever = never sleep. --opencode-keep-alive wins for its run."
      />
      {pinned ? (
        <Callout>
          This run's address was set on the command line (--host/--port); saved host and port apply the next time
          Patchbay starts.
        </Callout>
      ) : listenerChanged ? (
        <Callout>Saving moves the running API to the new address at once.</Callout>
      ) : null}
      <SaveBar
        label="Save settings"
        dirty={dirty}
        pending={save.isPending}
        error={save.error}
        saved={save.isSuccess}
        blocked={blocked}
        onSave={() => value && save.mutate(value)}
        onReset={() => reset()}
      />
      {appliedDiffers ? (
        <Callout tone="warn">
          <div className="row spread">
            <span>The running API still uses the previous address.</span>
            <button type="button" className="btn sm" onClick={() => restart.mutate()} disabled={restart.isPending}>
              Restart API
            </button>
          </div>
        </Callout>
      ) : null}
      {restart.isError ? <Callout tone="danger">{errorMessage(restart.error)}</Callout> : null}
      {confirmLan ? (
        <ConfirmDialog
          title="Expose Patchbay on your network?"
          confirmLabel="Expose on LAN"
          tone="primary"
          onConfirm={async () => set("lanExposure", true)}
          onClose={() => setConfirmLan(false)}
        >
          <p>
            Anyone on your network who has one of your keys can then use your logged-in models — and your subscription
            limits. Every route, including <code>/v1/models</code> and <code>/healthz</code>, will require a key.
          </p>
          <p className="muted">Only do this on networks you trust. Remember to save the settings afterwards.</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

export function SettingsPage() {
  const settings = useSettings();
  const status = useStatus().data;
  return (
    <div className="page">
      <PageHeader title="Settings" />
      {settings.isPending ? (
        <Loading label="Loading settings…" />
      ) : settings.isError ? (
        <ErrorState title="Could not load settings" error={settings.error} onRetry={() => void settings.refetch()} />
      ) : (
        <SettingsForm settings={settings.data} />
      )}
      {settings.data ? <WebSearchSection settings={settings.data} /> : null}
      {status?.desktop ? <DesktopSection /> : null}
      {status ? (
        <section className="card stack" aria-label="About">
          <h2>About</h2>
          <dl className="kv">
            <dt>Version</dt>
            <dd>{status.version}</dd>
            <dt>Data folder</dt>
            <dd>
              {status.desktop ? (
                // The Desktop section above has "Open data folder".
                <span className="mono">{status.dataDir}</span>
              ) : (
                // Headless: no native folder opener, so the path is the way there (copy it into a file manager or shell).
                <div className="data-folder">
                  <div className="readonly-value">
                    <code>{status.dataDir}</code>
                    <CopyButton text={status.dataDir} label="Copy data folder path" />
                  </div>
                  <span className="hint">
                    Settings, apps, keys and the request log live here; <code>runtime.json</code> holds this run&apos;s
                    admin URL and token for scripts.
                  </span>
                </div>
              )}
            </dd>
            <dt>OpenCode</dt>
            <dd>{status.opencode.version ?? EMPTY}</dd>
          </dl>
        </section>
      ) : null}
    </div>
  );
}
