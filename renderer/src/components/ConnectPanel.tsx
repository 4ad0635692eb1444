// Copy-ready client snippets (shared/admin/snippets.ts) for the current base URL and a chosen model, as vertical
// ARIA tabs. Snippets never contain a key: they read PATCHBAY_KEY.
import { useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import type { App } from "../../../shared/apps";
import { isModelAllowed } from "../../../shared/apps";
import { buildSnippets, KEY_ENV } from "../../../shared/admin/snippets";
import { useBaseUrl, useModels, useStatus } from "../api";
import { CodeBlock } from "./CodeBlock";
import { CopyButton } from "./CopyButton";
import { SelectField } from "./Field";
import { Callout } from "./States";

/** Models a client of `app` may ask for: its aliases first, then allowed catalog models. */
function modelChoices(app: App | undefined, catalogIds: string[]): { value: string; label: string }[] {
  const aliases = app ? Object.entries(app.aliases).map(([a, t]) => ({ value: a, label: `${a} → ${t}` })) : [];
  const ids = catalogIds.filter((id) => !app || isModelAllowed(app.models, id)).map((id) => ({ value: id, label: id }));
  return [...aliases, ...ids];
}

export function ConnectPanel({ app }: { app?: App }) {
  const baseUrl = useBaseUrl();
  const status = useStatus().data;
  const models = useModels();
  const catalogIds = useMemo(
    () => models.data?.providers.flatMap((p) => p.models.map((m) => m.id)) ?? [],
    [models.data],
  );
  const choices = useMemo(() => modelChoices(app, catalogIds), [app, catalogIds]);
  const [picked, setPicked] = useState<string | null>(null);
  const model = picked && choices.some((c) => c.value === picked) ? picked : (choices[0]?.value ?? "provider/model");
  // The model's (or its alias target's) context window, as `patchbay launch` gives Claude Code.
  const contextTokens = useMemo(() => {
    const target = (app?.aliases && Object.hasOwn(app.aliases, model) ? app.aliases[model] : undefined) ?? model;
    const id = target.split("#")[0];
    const found = models.data?.providers.flatMap((p) => p.models).find((m) => m.id === id);
    return found && found.limit.context > 0 ? found.limit.context : null;
  }, [app?.aliases, model, models.data]);
  const snippets = useMemo(
    () => buildSnippets({ baseUrl, model, app: app?.name, contextTokens }),
    [baseUrl, model, app?.name, contextTokens],
  );
  const [active, setActive] = useState(0);
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const id = useId();
  const current = snippets[active] ?? snippets[0];

  const onKeyDown = (e: KeyboardEvent) => {
    const last = snippets.length - 1;
    let next = active;
    if (e.key === "ArrowDown" || e.key === "ArrowRight") next = active === last ? 0 : active + 1;
    else if (e.key === "ArrowUp" || e.key === "ArrowLeft") next = active === 0 ? last : active - 1;
    else if (e.key === "Home") next = 0;
    else if (e.key === "End") next = last;
    else return;
    e.preventDefault();
    setActive(next);
    tabRefs.current[next]?.focus();
  };

  return (
    <div className="stack-lg">
      <div className="form-grid">
        <SelectField
          label="Model"
          value={model}
          onChange={setPicked}
          options={
            choices.length
              ? choices
              : [{ value: "provider/model", label: models.isPending ? "Loading models…" : "provider/model" }]
          }
          hint={app ? "This app's aliases and allowed models." : "Any model of a connected provider."}
        />
        <div className="field">
          <span className="field-label">Base URL</span>
          <div className="readonly-value">
            <code>{baseUrl}</code>
            <CopyButton text={baseUrl} label="Copy base URL" />
          </div>
          <span className="hint">
            Use a key{app ? ` of ${app.name}` : ""} in <code>{KEY_ENV}</code>.
          </span>
        </div>
      </div>
      {status && !status.api.running ? (
        <Callout tone="warn">The API is stopped. Start it on the Overview page before trying these.</Callout>
      ) : null}
      <div className="connect">
        <div role="tablist" aria-label="Clients" aria-orientation="vertical" className="tabs" onKeyDown={onKeyDown}>
          {snippets.map((s, i) => (
            <button
              key={s.id}
              ref={(el) => {
                tabRefs.current[i] = el;
              }}
              type="button"
              role="tab"
              id={`${id}-tab-${s.id}`}
              aria-selected={i === active}
              aria-controls={`${id}-panel`}
              tabIndex={i === active ? 0 : -1}
              onClick={() => setActive(i)}
            >
              {s.label}
            </button>
          ))}
        </div>
        {current ? (
          <div
            role="tabpanel"
            id={`${id}-panel`}
            aria-labelledby={`${id}-tab-${current.id}`}
            className="stack"
            style={{ minWidth: 0 }}
          >
            <CodeBlock
              code={current.code}
              language={current.language}
              caption={current.hint}
              copyLabel={`Copy ${current.label} snippet`}
            />
          </div>
        ) : null}
      </div>
    </div>
  );
}
