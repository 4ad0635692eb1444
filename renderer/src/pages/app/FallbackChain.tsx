// One alias's fallback chain in the Aliases tab's editor: its models in the order they are tried, each with move up,
// move down and remove, and a model picker to add one. Edits a draft only; the panel saves every chain at once.
import { useMemo, useState } from "react";
import { ArrowDown, ArrowUp, X } from "lucide-react";
import { MAX_FALLBACKS } from "../../../../shared/routing";
import { ModelPicker, type PickerOption } from "../../components/ModelPicker";
import { Callout } from "../../components/States";
import { fallbackProblem, moveEntry } from "./fallback-chains";

export interface FallbackChainProps {
  alias: string;
  /** The alias's own target, tried first. */
  target: string;
  /** The draft chain, in order. */
  chain: string[];
  /** The picker's models (the catalog, with variants). */
  options: PickerOption[];
  onChange: (chain: string[]) => void;
  /** The server's refusal of this chain on the last save, in its words. */
  error: string | null;
  /** The entry that refusal names, if it names one. */
  invalidIndex: number | null;
}

/** The chain editor of `alias`: a group named "Fallbacks of <alias>" (buttons name the model they act on). */
export function FallbackChain({ alias, target, chain, options, onChange, error, invalidIndex }: FallbackChainProps) {
  const [pick, setPick] = useState("");
  const [pickError, setPickError] = useState<string | null>(null);
  const offered = useMemo(
    () => options.filter((o) => o.value !== target && !chain.includes(o.value)),
    [options, target, chain],
  );
  const full = chain.length >= MAX_FALLBACKS;

  const add = (value: string) => {
    const model = value.trim();
    if (!model) return;
    const problem = fallbackProblem(model, target, chain);
    setPickError(problem);
    if (problem) return;
    onChange([...chain, model]);
    setPick("");
  };
  // aria-disabled rather than disabled at the ends: a button that moved its model to the top keeps keyboard focus.
  const move = (i: number, by: -1 | 1) => {
    if (i + by >= 0 && i + by < chain.length) onChange(moveEntry(chain, i, by));
  };

  return (
    <div className="fallback-chain stack" role="group" aria-label={`Fallbacks of ${alias}`}>
      <div className="mono">
        <strong>{alias}</strong> → {target}
        {chain.map((m) => ` → ${m}`).join("")}
      </div>
      {chain.length === 0 ? (
        <p className="faint">No fallbacks: when {target} refuses, the client gets that refusal.</p>
      ) : (
        <ol className="fallback-list" aria-label={`Fallback chain of ${alias}`}>
          {chain.map((m, i) => (
            <li key={m} className={i === invalidIndex ? "invalid" : undefined}>
              <span className="faint" aria-hidden>
                {i + 1}.
              </span>
              <span className="mono grow">{m}</span>
              <button
                type="button"
                className="btn ghost sm icon"
                aria-label={`Move ${m} up`}
                aria-disabled={i === 0}
                onClick={() => move(i, -1)}
              >
                <ArrowUp size={13} aria-hidden />
              </button>
              <button
                type="button"
                className="btn ghost sm icon"
                aria-label={`Move ${m} down`}
                aria-disabled={i === chain.length - 1}
                onClick={() => move(i, 1)}
              >
                <ArrowDown size={13} aria-hidden />
              </button>
              <button
                type="button"
                className="btn ghost sm icon"
                aria-label={`Remove fallback ${m}`}
                onClick={() => onChange(chain.filter((x) => x !== m))}
              >
                <X size={13} aria-hidden />
              </button>
            </li>
          ))}
        </ol>
      )}
      {error ? <Callout tone="danger">{error}</Callout> : null}
      <div className="row" style={{ alignItems: "flex-end" }}>
        <div className="grow">
          <ModelPicker
            label={`Add a fallback to ${alias}`}
            value={pick}
            onChange={(v) => {
              setPick(v);
              setPickError(null);
            }}
            onEnter={add}
            onPick={add}
            options={offered}
            placeholder={full ? `At most ${MAX_FALLBACKS} fallbacks` : "provider/model#variant"}
            error={pickError}
          />
        </div>
        <button
          type="button"
          className="btn"
          aria-label={`Add fallback to ${alias}`}
          onClick={() => add(pick)}
          style={{ marginBottom: pickError ? 22 : 0 }}
        >
          Add
        </button>
      </div>
    </div>
  );
}
