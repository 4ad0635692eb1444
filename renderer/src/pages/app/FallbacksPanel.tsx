// The Aliases tab's fallback chains: for each saved alias, the models tried in order when its target refuses before
// answering (429, quota, 5xx). Saved together as the app's `fallbacks` (PATCH /admin/api/apps/:name, the map the CLI's
// `patchbay app alias APP ALIAS TARGET --fallback MODEL` sets); the server refuses a model no provider offers, one
// outside the allowlist, a loop or a control character with a 400 naming the chain, shown at that chain.
import { useMemo, useState } from "react";
import type { FallbackMap } from "../../../../shared/routing";
import { errorMessage, useModels } from "../../api";
import { catalogOptions } from "../../components/ModelPicker";
import { SaveBar } from "../../components/SaveBar";
import { SaveWarnings } from "../../components/States";
import { useCurrentApp } from "./context";
import { FallbackChain } from "./FallbackChain";
import { chainOf, chainsToSave, refusedFallback } from "./fallback-chains";
import { useSaveApp } from "./useSaveApp";

/**
 * Editor of every saved alias's fallback chain, with one Save fallbacks. Mount it keyed by the saved aliases: saving
 * the aliases drops the chains of removed ones on the server, and the draft starts again from what was saved.
 */
export function FallbacksPanel() {
  const app = useCurrentApp();
  const models = useModels();
  const save = useSaveApp(app.name);
  const saved = useMemo(() => chainsToSave(app.aliases, app.fallbacks), [app.aliases, app.fallbacks]);
  const [draft, setDraft] = useState<FallbackMap>(saved);
  const options = useMemo(() => catalogOptions(models.data, { variants: true }), [models.data]);
  const aliases = Object.entries(app.aliases);
  const value = chainsToSave(app.aliases, draft);
  const dirty = JSON.stringify(value) !== JSON.stringify(saved);
  const refused = refusedFallback(
    save.error,
    aliases.map(([a]) => a),
  );

  // A new edit clears the last save's outcome: its refusal named an entry of the draft as it was.
  const edit = (next: FallbackMap) => {
    save.reset();
    setDraft(next);
  };

  return (
    <section className="card stack-lg" aria-label="Fallback chains">
      <div>
        <h2>Fallback chains</h2>
        <p className="section-note">
          When an alias&apos;s model refuses before answering (rate limit, quota, server error), Patchbay tries its
          fallbacks in order, so the client still gets an answer. Each fallback is a model a connected provider offers
          and this app may use; removing an alias removes its chain.
        </p>
      </div>
      {aliases.length === 0 ? (
        <p className="faint">No saved aliases: add one above and save it, then give it fallbacks here.</p>
      ) : (
        aliases.map(([alias, target]) => (
          <FallbackChain
            key={alias}
            alias={alias}
            target={target}
            chain={chainOf(draft, alias)}
            options={options}
            onChange={(chain) => edit({ ...draft, [alias]: chain })}
            error={refused?.alias === alias ? errorMessage(save.error) : null}
            invalidIndex={refused?.alias === alias ? refused.index : null}
          />
        ))
      )}
      <SaveWarnings warnings={save.data?.warnings} />
      <SaveBar
        label="Save fallbacks"
        dirty={dirty}
        pending={save.isPending}
        error={refused ? null : save.error}
        saved={save.isSuccess}
        onSave={() =>
          save.mutate({ fallbacks: value }, { onSuccess: (a) => setDraft(chainsToSave(a.aliases, a.fallbacks)) })
        }
        onReset={() => edit(saved)}
      />
    </section>
  );
}
