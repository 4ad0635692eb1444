// Parses request JSON with a zod schema and turns the first problem into a 400 PatchbayError that names the field
// in OpenAI's `param` style (`messages[2].content`). Shared by the chat and Responses decoders; no wire knowledge here.
import type { z } from "zod";
import { shortenClientText } from "./client-text";
import { invalidRequest, type PatchbayError } from "./errors";

/** A path into the request body, as zod reports it. */
export type WirePath = readonly PropertyKey[];

/** Formats a path as OpenAI's `param`: `["messages", 2, "content"]` → `messages[2].content`. Keys are shortened
 *  (a client's record key, e.g. in `metadata`, can be any length). */
export function formatParam(path: WirePath): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else {
      const name = shortenClientText(String(key));
      out += out === "" ? name : `.${name}`;
    }
  }
  return out;
}

/** True for a plain JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function valueAt(root: unknown, path: WirePath): unknown {
  let cur = root;
  for (const key of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

/** Short printable form of a rejected value, for messages ("(got 3)"); omitted for large values. */
function shown(value: unknown): string {
  if (value === undefined) return "";
  if (Array.isArray(value)) return " (got an array)";
  if (value !== null && typeof value === "object") return " (got an object)";
  const text = JSON.stringify(value);
  return text.length <= 60 ? ` (got ${text})` : "";
}

type Issue = z.core.$ZodIssue;

/** Resolves a union failure to the branch that got furthest, so "messages[0].content[1].text" beats
 *  "messages[0].content". Returns the leaf issue and its full path (relative to where parsing started). */
function resolveIssue(issue: Issue): { issue: Issue; path: PropertyKey[] } {
  if (issue.code !== "invalid_union" || issue.errors.length === 0) return { issue, path: [...issue.path] };
  let best: Issue | undefined;
  for (const branch of issue.errors) {
    const first = branch[0];
    if (first && first.path.length > 0 && (!best || first.path.length > best.path.length)) best = first;
  }
  if (!best) return { issue, path: [...issue.path] };
  const inner = resolveIssue(best);
  return { issue: inner.issue, path: [...issue.path, ...inner.path] };
}

/** zod's own messages start like this; ours (set with `error:` in the schemas) are lower-case phrases. */
const ZOD_DEFAULT_MESSAGE = /^(Invalid|Too (big|small))/;

function describe(issue: Issue, param: string, value: unknown): string {
  if (value === undefined && (issue.code === "invalid_type" || issue.code === "invalid_union")) {
    return `Missing required parameter: '${param}'.`;
  }
  const kind = issue.code === "invalid_type" ? "type" : "value";
  if (!ZOD_DEFAULT_MESSAGE.test(issue.message))
    return `Invalid ${kind} for '${param}'${shown(value)}: ${issue.message}.`;
  switch (issue.code) {
    case "invalid_union": {
      // zod's discriminated unions add `options` to the issue; its types do not declare it on all variants.
      const options = (issue as { options?: unknown[] }).options;
      if (options)
        return `Invalid value for '${param}'${shown(value)}: expected one of ${options.map((o) => `'${String(o)}'`).join(", ")}.`;
      return `Invalid value for '${param}'${shown(value)}.`;
    }
    case "invalid_value":
      return `Invalid value for '${param}'${shown(value)}: expected ${issue.values.length === 1 ? "" : "one of "}${issue.values.map((v) => JSON.stringify(v)).join(", ")}.`;
    default:
      // "Invalid input: expected string, received number" → "expected string, received number".
      return `Invalid ${kind} for '${param}'${shown(value)}: ${issue.message.replace(/^(Invalid input|Too big|Too small): /, "")}.`;
  }
}

/** The 400 PatchbayError for a zod failure; `base` prefixes paths when a sub-value was parsed. */
export function zodErrorToPatchbayError(error: z.ZodError, root: unknown, base: WirePath = []): PatchbayError {
  const first = error.issues[0];
  if (!first) return invalidRequest("The request is invalid.", null);
  const resolved = resolveIssue(first);
  const issue = resolved.issue;
  const path = [...base, ...resolved.path];
  const param = path.length === 0 ? null : formatParam(path);
  const value = valueAt(root, resolved.path);
  const message = param === null ? `Invalid request: ${issue.message}.` : describe(issue, param, value);
  return invalidRequest(message, param);
}

/** Parses `value` with `schema`; throws a 400 PatchbayError naming the first bad field (prefixed with `base`). */
export function parseWire<S extends z.ZodType>(schema: S, value: unknown, base: WirePath = []): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw zodErrorToPatchbayError(result.error, value, base);
  return result.data;
}
