// A searchable model picker (ARIA combobox + listbox) over the model catalog. Typing filters; arrows move; Enter picks
// the highlighted option or, with none highlighted, hands the typed text to `onEnter` (for `provider/*` patterns).
import { useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { Search } from "lucide-react";
import type { ModelCatalog } from "../../../shared/admin-api";

export interface PickerOption {
  value: string;
  hint?: string;
  group: string;
}

/** Picker options from the catalog: optional `provider/*` patterns, every model, optional `model#variant`s. */
export function catalogOptions(
  catalog: ModelCatalog | undefined,
  o: { patterns?: boolean; variants?: boolean } = {},
): PickerOption[] {
  const out: PickerOption[] = [];
  for (const p of catalog?.providers ?? []) {
    if (o.patterns) out.push({ value: `${p.id}/*`, hint: `every ${p.name} model`, group: p.name });
    for (const m of p.models) {
      out.push({ value: m.id, hint: m.name, group: p.name });
      if (o.variants)
        for (const v of m.variants) out.push({ value: `${m.id}#${v}`, hint: `${m.name} · ${v}`, group: p.name });
    }
  }
  return out;
}

export interface ModelPickerProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: PickerOption[];
  /** Enter with no highlighted option. */
  onEnter?: (value: string) => void;
  /** Called instead of `onChange` when an option is picked (e.g. add it to a list right away). */
  onPick?: (value: string) => void;
  placeholder?: string;
  error?: string | null;
  hint?: string;
  /** Max options rendered (the rest are reachable by typing). */
  limit?: number;
}

export function ModelPicker({
  label,
  value,
  onChange,
  options,
  onEnter,
  onPick,
  placeholder,
  error,
  hint,
  limit = 80,
}: ModelPickerProps) {
  const id = useId();
  const listId = `${id}-list`;
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const inputRef = useRef<HTMLInputElement>(null);

  const filtered = useMemo(() => {
    const q = value.trim().toLowerCase();
    const hits = q
      ? options.filter((o) => o.value.toLowerCase().includes(q) || (o.hint ?? "").toLowerCase().includes(q))
      : options;
    return hits.slice(0, limit);
  }, [options, value, limit]);

  const pick = (v: string) => {
    if (onPick) onPick(v);
    else onChange(v);
    setOpen(false);
    setActive(-1);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown") {
      e.preventDefault();
      setOpen(true);
      setActive((a) => Math.min(a + 1, filtered.length - 1));
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      setActive((a) => Math.max(a - 1, -1));
    } else if (e.key === "Enter") {
      const opt = open && active >= 0 ? filtered[active] : undefined;
      e.preventDefault();
      if (opt) pick(opt.value);
      else {
        setOpen(false);
        onEnter?.(value.trim());
      }
    } else if (e.key === "Escape" && open) {
      // Close the list only; do not let a surrounding dialog close.
      e.preventDefault();
      e.stopPropagation();
      setOpen(false);
      setActive(-1);
    }
  };

  let lastGroup = "";
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="combo">
        <Search className="combo-icon" size={15} aria-hidden />
        <input
          ref={inputRef}
          id={id}
          className="input mono"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={listId}
          aria-activedescendant={open && active >= 0 ? `${id}-opt-${active}` : undefined}
          aria-invalid={error ? true : undefined}
          autoComplete="off"
          spellCheck={false}
          placeholder={placeholder}
          value={value}
          onChange={(e) => {
            onChange(e.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onClick={() => setOpen(true)}
          onKeyDown={onKeyDown}
        />
        {open ? (
          <ul className="combo-list" id={listId} role="listbox" aria-label={`${label} suggestions`}>
            {filtered.length === 0 ? (
              <li className="combo-empty" role="presentation">
                {options.length === 0
                  ? "No models available yet"
                  : "No matching models — press Enter to use what you typed"}
              </li>
            ) : (
              filtered.map((o, i) => {
                const header = o.group !== lastGroup;
                lastGroup = o.group;
                return [
                  header ? (
                    <li key={`g-${o.group}-${i}`} className="group" role="presentation">
                      {o.group}
                    </li>
                  ) : null,
                  <li
                    key={o.value}
                    id={`${id}-opt-${i}`}
                    role="option"
                    aria-selected={i === active}
                    onMouseDown={(e) => {
                      e.preventDefault();
                      pick(o.value);
                    }}
                    onMouseEnter={() => setActive(i)}
                  >
                    <span className="opt-value">{o.value}</span>
                    {o.hint ? <span className="opt-hint">{o.hint}</span> : null}
                  </li>,
                ];
              })
            )}
          </ul>
        ) : null}
      </div>
      {hint ? <span className="hint">{hint}</span> : null}
      {error ? <span className="error-text">{error}</span> : null}
    </div>
  );
}
