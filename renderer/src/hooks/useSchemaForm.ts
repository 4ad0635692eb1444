// State, validation and field errors of a form whose value a shared zod schema checks (Settings, Limits, History).
// The schema stays the one authority on what is valid; this hook only words its issues for the form's fields.
import { useState } from "react";
import type { z } from "zod";

/** Shown beside Save while any field is invalid. */
export const FIX_FIELDS_MESSAGE = "Fix the highlighted fields";

/** Where a schema field is edited: the form field, and how many schema units one form unit is (1000 for s → ms). */
export interface FieldMapping<F> {
  field: keyof F;
  /** Schema value = form value × scale (bounds in messages are divided by it). Default 1. */
  scale?: number;
}

export interface SchemaFormOptions<F, S extends z.ZodType> {
  /** The schema the server also checks (e.g. `AppLimitsPatch`). */
  schema: S;
  /** The saved state as form fields: what "dirty" compares with and "reset" returns to. */
  initial: F;
  /** Form fields → the candidate value for `schema` (empty number fields become NaN, so the schema rejects them). */
  toValue: (form: F) => unknown;
  /** Schema fields edited under another name or unit; a schema field not named here is the form field of its name. */
  fields?: Partial<Record<string, FieldMapping<F>>>;
}

export interface SchemaForm<F, V> {
  form: F;
  set<K extends keyof F>(key: K, value: F[K]): void;
  /** Back to `initial`, or to `next` (e.g. what the server saved). */
  reset(next?: F): void;
  /** The parsed value, or null while any field is invalid. */
  value: V | null;
  /** The first problem of each invalid field, worded for the form. */
  errors: Partial<Record<keyof F, string>>;
  /** The form differs from `initial`. */
  dirty: boolean;
  /** {@link FIX_FIELDS_MESSAGE} while invalid, else null (SaveBar's `blocked`). */
  blocked: string | null;
}

/** Holds a form's fields and checks them with `schema` on every render (cheap: a handful of fields). */
export function useSchemaForm<F extends object, S extends z.ZodType>(
  options: SchemaFormOptions<F, S>,
): SchemaForm<F, z.output<S>> {
  const { schema, initial, toValue, fields = {} } = options;
  const [form, setForm] = useState<F>(initial);
  const parsed = schema.safeParse(toValue(form));
  const errors: Partial<Record<keyof F, string>> = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0] ?? "");
      const mapping = fields[name] ?? (name in form ? { field: name as keyof F } : undefined);
      if (mapping && errors[mapping.field] === undefined)
        errors[mapping.field] = fieldErrorMessage(issue, mapping.scale ?? 1);
    }
  }
  return {
    form,
    set: (key, value) => setForm((f) => ({ ...f, [key]: value })),
    reset: (next) => setForm(next ?? initial),
    value: parsed.success ? parsed.data : null,
    errors,
    dirty: JSON.stringify(form) !== JSON.stringify(initial),
    blocked: parsed.success ? null : FIX_FIELDS_MESSAGE,
  };
}

/**
 * One wording for every schema-backed form: zod's own messages name schema units ("expected number to be >=1000" on a
 * field in seconds). A custom issue (e.g. the loopback host rule) keeps the schema's message, which is written for
 * people already.
 */
export function fieldErrorMessage(issue: z.core.$ZodIssue, scale = 1): string {
  // Only numbers are scaled; string lengths and entry counts are the same in both units.
  const bound = (n: number | bigint) => formatBound(Number(n) / scale);
  const perEntry = issue.path.length > 1 ? " per entry" : "";
  switch (issue.code) {
    case "invalid_type":
      return String(issue.expected) === "int" ? "Enter a whole number" : "Enter a number";
    case "too_small":
      if (issue.origin === "string") return `Enter at least ${Number(issue.minimum)} characters${perEntry}`;
      if (issue.origin === "array") return `Enter at least ${Number(issue.minimum)} entries`;
      return `Enter ${bound(issue.minimum)} or more`;
    case "too_big":
      if (issue.origin === "string") return `Enter at most ${Number(issue.maximum)} characters${perEntry}`;
      if (issue.origin === "array") return `Enter at most ${Number(issue.maximum)} entries`;
      return `Enter ${bound(issue.maximum)} or less`;
    case "not_multiple_of":
      return "Enter a whole number";
    default:
      return issue.message;
  }
}

/** A bound in form units, without float noise (1024 B in MB is 0.000977, not 0.0009765625). */
function formatBound(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(3)));
}
