// Fidelity oracle: from a client's OpenAI chat request, the body an OpenAI-compatible upstream must receive through
// Patchbay + OpenCode. The ONLY allowed differences are the documented ones below (one place; the README's "Fidelity
// guarantees" lists the same); a field-by-field diff reports everything else. Test-only, pure.
import { isDeepStrictEqual } from "node:util";

type Json = Record<string, unknown>;

/** A documented difference between what the client sent and what the upstream receives, and why. */
export interface DocumentedDifference {
  id: string;
  what: string;
  why: string;
}

/** Client tool names OpenCode treats specially; sent upstream as `client_<name>` and restored in answers. */
export const CLASHING_TOOL_NAMES = ["invalid", "websearch", "edit", "write", "apply_patch", "task"];

/** Top-level fields that reach an OpenAI-compatible upstream through OpenCode (everything else is not forwarded). */
const FORWARDED_FIELDS = new Set([
  "model",
  "messages",
  "tools",
  "tool_choice",
  "parallel_tool_calls",
  "response_format",
  "temperature",
  "top_p",
  "max_tokens",
  "stop",
  "seed",
  "presence_penalty",
  "frequency_penalty",
  "reasoning_effort",
  "stream",
  "stream_options",
]);

/** Every allowed difference, in the order {@link expectedUpstreamBody} applies them. */
export const DOCUMENTED_DIFFERENCES: readonly DocumentedDifference[] = [
  {
    id: "model-id",
    what: "`model` is the provider's own model id (`mock/mock-model` → `mock-model`)",
    why: "Patchbay's ids are `provider/model`; the provider knows only its model id",
  },
  {
    id: "always-streamed",
    what: "`stream: true` and `stream_options: {include_usage: true}` are always sent",
    why: "OpenCode always streams from the provider; Patchbay assembles non-streamed answers and relays real usage",
  },
  {
    id: "max-tokens",
    what: "`max_completion_tokens` is sent as `max_tokens`",
    why: "OpenCode's OpenAI-compatible provider sends the one limit as `max_tokens`",
  },
  {
    id: "not-forwarded",
    what: "fields OpenCode cannot pass are dropped: `user`, `metadata`, `store`, `service_tier`, `logit_bias`, `n: 1`, `prompt_cache_key`, message-level extras such as `name`/`metadata`",
    why: "OpenCode builds the provider request itself; Patchbay reports dropped parameters with effect in `x-patchbay-warnings`",
  },
  {
    id: "stop-list",
    what: 'a scalar `stop` is sent as a one-element list; `""` and `[]` are not sent',
    why: "Patchbay normalises `stop` to a list of non-empty strings",
  },
  {
    id: "developer-as-system",
    what: "`developer` messages are sent with role `system`, in place",
    why: "OpenCode has one system role; each system/developer text stays its own system message, in order",
  },
  {
    id: "text-parts-as-string",
    what: 'system/developer/tool content given as text parts is sent as one string (parts joined with "\\n"); assistant text parts are concatenated; a user message of exactly one text part is sent as a string',
    why: "OpenCode stores system texts and tool results as strings and its provider collapses single text parts (same meaning to the model)",
  },
  {
    id: "assistant-content-empty",
    what: 'assistant `content` null or omitted (with `tool_calls`) is sent as `""`',
    why: "OpenCode's provider always writes a string content for assistant turns",
  },
  {
    id: "empty-arguments",
    what: 'tool-call `arguments: ""` in history is sent as `"{}"`',
    why: "OpenCode stores tool input as a JSON object",
  },
  {
    id: "image-detail",
    what: "`image_url.detail` is dropped (the data URL is byte-identical)",
    why: "OpenCode's file parts have no detail field",
  },
  {
    id: "tool-strict",
    what: "`tools[].function.strict` is dropped (warned in `x-patchbay-warnings`)",
    why: "OpenCode has no way to pass `strict`",
  },
  {
    id: "tool-description",
    what: 'a tool without `description` is sent with `description: ""`',
    why: "OpenCode tools always carry a description",
  },
  {
    id: "tool-rename",
    what: "client tools named invalid/websearch/edit/write/apply_patch/task are sent as `client_<name>` (tools, tool_choice and history); calls are renamed back in answers",
    why: "OpenCode treats these built-in names specially (DESIGN §3)",
  },
  {
    id: "tool-order",
    what: "`tools` are sent sorted by (sent) name",
    why: "a tool set is one OpenCode instance directory, keyed by its sorted tools",
  },
  {
    id: "tool-choice-auto",
    what: 'with tools and no `tool_choice`, `tool_choice: "auto"` is sent',
    why: "OpenCode sets it explicitly; `auto` is OpenAI's default, same meaning",
  },
  {
    id: "tool-choice-named",
    what: 'a named `tool_choice` is sent as `"required"` with only that tool offered (warned)',
    why: "OpenCode cannot name a tool; the approximation forces a call to the only offered tool",
  },
  {
    id: "tool-choice-none",
    what: '`tool_choice: "none"` is sent as no tools and no `tool_choice` (warned)',
    why: "OpenCode cannot send `none`; offering no tools has the same effect",
  },
];

/** The expected upstream body for `client` and which documented differences were needed to get it. */
export interface ExpectedUpstream {
  body: Json;
  /** Ids of the differences that changed something for this request. */
  applied: string[];
}

type Rule = (b: Json) => void;

const renamed = (name: unknown) =>
  typeof name === "string" && CLASHING_TOOL_NAMES.includes(name) ? `client_${name}` : name;
const msgs = (b: Json) => (Array.isArray(b.messages) ? (b.messages as Json[]) : []);
const textOfParts = (c: unknown, sep: string) =>
  Array.isArray(c) ? (c as Json[]).map((p) => String(p.text ?? "")).join(sep) : c;

const RULES: Record<string, Rule> = {
  "model-id": (b) => {
    if (typeof b.model === "string" && b.model.includes("/"))
      b.model = b.model.slice(b.model.indexOf("/") + 1).replace(/#.*$/, "");
  },
  "always-streamed": (b) => {
    b.stream = true;
    b.stream_options = { include_usage: true };
  },
  "not-forwarded": (b) => {
    for (const k of Object.keys(b)) if (!FORWARDED_FIELDS.has(k)) delete b[k];
    for (const m of msgs(b))
      for (const k of Object.keys(m)) if (!["role", "content", "tool_calls", "tool_call_id"].includes(k)) delete m[k];
  },
  "max-tokens": (b) => {
    const limit = b.max_completion_tokens ?? b.max_tokens;
    delete b.max_completion_tokens;
    if (limit !== undefined && limit !== null) b.max_tokens = limit;
  },
  "stop-list": (b) => {
    if (b.stop === undefined || b.stop === null) return;
    const list = (typeof b.stop === "string" ? [b.stop] : (b.stop as string[])).filter((s) => s !== "");
    if (list.length) b.stop = list;
    else delete b.stop;
  },
  "developer-as-system": (b) => {
    for (const m of msgs(b)) if (m.role === "developer") m.role = "system";
  },
  "text-parts-as-string": (b) => {
    for (const m of msgs(b)) {
      if (m.role === "system" || m.role === "tool") m.content = textOfParts(m.content, "\n");
      else if (m.role === "assistant") m.content = textOfParts(m.content, "");
      else if (
        m.role === "user" &&
        Array.isArray(m.content) &&
        m.content.length === 1 &&
        (m.content[0] as Json).type === "text"
      ) {
        m.content = (m.content[0] as Json).text;
      }
    }
  },
  "assistant-content-empty": (b) => {
    for (const m of msgs(b))
      if (m.role === "assistant" && (m.content === null || m.content === undefined)) m.content = "";
  },
  "empty-arguments": (b) => {
    for (const m of msgs(b))
      for (const c of (m.tool_calls as Json[] | undefined) ?? [])
        if ((c.function as Json).arguments === "") (c.function as Json).arguments = "{}";
  },
  "image-detail": (b) => {
    for (const m of msgs(b))
      if (Array.isArray(m.content))
        for (const p of m.content as Json[]) if (p.type === "image_url") delete (p.image_url as Json).detail;
  },
  "tool-strict": (b) => {
    for (const t of (b.tools as Json[] | undefined) ?? []) delete (t.function as Json).strict;
  },
  "tool-description": (b) => {
    for (const t of (b.tools as Json[] | undefined) ?? []) (t.function as Json).description ??= "";
  },
  "tool-rename": (b) => {
    for (const t of (b.tools as Json[] | undefined) ?? [])
      (t.function as Json).name = renamed((t.function as Json).name);
    for (const m of msgs(b))
      for (const c of (m.tool_calls as Json[] | undefined) ?? [])
        (c.function as Json).name = renamed((c.function as Json).name);
    const tc = b.tool_choice as Json | string | undefined;
    if (tc && typeof tc === "object") (tc.function as Json).name = renamed((tc.function as Json).name);
  },
  "tool-order": (b) => {
    if (Array.isArray(b.tools))
      (b.tools as Json[]).sort((x, y) =>
        String((x.function as Json).name).localeCompare(String((y.function as Json).name)),
      );
  },
  "tool-choice-auto": (b) => {
    if (Array.isArray(b.tools) && b.tools.length > 0 && (b.tool_choice === undefined || b.tool_choice === null))
      b.tool_choice = "auto";
  },
  "tool-choice-named": (b) => {
    const tc = b.tool_choice as Json | string | undefined;
    if (!tc || typeof tc !== "object") return;
    const name = (tc.function as Json).name;
    b.tools = ((b.tools as Json[]) ?? []).filter((t) => (t.function as Json).name === name);
    b.tool_choice = "required";
  },
  "tool-choice-none": (b) => {
    if (b.tool_choice !== "none") return;
    delete b.tools;
    delete b.tool_choice;
  },
};

/** Applies the documented differences to a copy of the client's chat request. */
export function expectedUpstreamBody(client: Json): ExpectedUpstream {
  let body = structuredClone(client);
  const applied: string[] = [];
  for (const d of DOCUMENTED_DIFFERENCES) {
    const before = structuredClone(body);
    RULES[d.id]!(body);
    if (!isDeepStrictEqual(before, body)) applied.push(d.id);
    body = JSON.parse(JSON.stringify(body)) as Json; // drop undefined-valued keys, as JSON on the wire does
  }
  return { body, applied };
}

/** Field-by-field differences between `actual` and `expected` as `path: actual ≠ expected` lines (empty = equal). */
export function diffFields(actual: unknown, expected: unknown, at = "$"): string[] {
  if (isDeepStrictEqual(actual, expected)) return [];
  const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
  if (Array.isArray(actual) && Array.isArray(expected)) {
    const out: string[] = [];
    if (actual.length !== expected.length) out.push(`${at}.length: ${actual.length} ≠ ${expected.length}`);
    for (let i = 0; i < Math.min(actual.length, expected.length); i++)
      out.push(...diffFields(actual[i], expected[i], `${at}[${i}]`));
    return out;
  }
  if (isObj(actual) && isObj(expected)) {
    const keys = [...new Set([...Object.keys(actual), ...Object.keys(expected)])].sort();
    return keys.flatMap((k) => {
      if (!(k in expected)) return [`${at}.${k}: unexpected ${JSON.stringify(actual[k])}`.slice(0, 300)];
      if (!(k in actual)) return [`${at}.${k}: missing (expected ${JSON.stringify(expected[k])})`.slice(0, 300)];
      return diffFields(actual[k], expected[k], `${at}.${k}`);
    });
  }
  return [`${at}: ${JSON.stringify(actual)} ≠ ${JSON.stringify(expected)}`.slice(0, 300)];
}
