// Patchbay's companion OpenCode plugin: makes Patchbay's `bridge` sessions send exactly the client's system prompt,
// history, parameters and tools upstream, and stops the loop (unexecuted) when the model calls a client tool.
// Runs INSIDE `opencode serve` (Bun): self-contained, imports only node builtins and types. Never touches other sessions.
//
// Facts it relies on (opencode 1.18.33, DESIGN §3): hooks must mutate their output in place; the messages hook's input
// has no sessionID (take it from messages[i].info.sessionID); plugin tools are fixed per instance (directory), so the
// client tools come from `<directory>/.patchbay/toolset.json`; a rejected permission is the only clean loop stop.
import fs from "node:fs";
import path from "node:path";
import type { Hooks, PluginInput } from "@opencode-ai/plugin";

/** One OpenCode-internal message as `MessageV2.toModelMessages` consumes it (`{info, parts}`). */
export interface CompanionMessage {
  info: Record<string, unknown> & { id: string; role: "user" | "assistant" };
  parts: Array<Record<string, unknown> & { id: string; type: string }>;
}

/** Generation parameters for `chat.params`. `null` clears OpenCode's per-model default; an absent key keeps it. */
export interface CompanionParams {
  temperature: number | null;
  topP: number | null;
  topK: number | null;
  maxOutputTokens?: number | null;
  /** Merged into the provider options (AI SDK providerOptions under the provider key). */
  options: Record<string, unknown>;
  /** Provider-option defaults OpenCode injects that the client did not ask for (removed before merging). */
  dropOptions: string[];
}

/** A client tool as written to `<directory>/.patchbay/toolset.json` (names already renamed for OpenCode). */
export interface CompanionTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** The toolset file of one instance directory. */
export interface CompanionToolset {
  tools: CompanionTool[];
}

/** What Patchbay serves for one session over the side channel (`GET <url>/spec/<sessionID>`). */
export interface CompanionSpec {
  v: 1;
  system: string[];
  messages: CompanionMessage[];
  params: CompanionParams;
  /** Refuse a second LLM step (one upstream call per client request). */
  singleStep: boolean;
}

type SpecResult = { spec: CompanionSpec } | { missing: true };

const CLIENT_TOOL_PERMISSION = "patchbay_client_tool";
const BRIDGE_AGENT = "bridge";
const TOOLSET_FILE = path.join(".patchbay", "toolset.json");
const SPEC_TIMEOUT_MS = 5000;
const SPEC_CACHE_MAX = 256;
// Patchbay's backend recognises these texts in session.error (server/opencode/session/upstream-errors.ts).
const SINGLE_STEP_REFUSAL = "patchbay: refusing a second model call for a single-step request";
const FAIL_CLOSED_PREFIX = "patchbay: no request data";
const SIDE_CHANNEL_TOKEN_HEADER = "x-patchbay-token";
// These constants are copies because this file ships alone into OpenCode; tests/unit/opencode/protocol/companion-plugin.test.ts
// checks each against the server's own.

/** The plugin. OpenCode calls every export of this module, so this must stay the only runtime export. */
export const PatchbayCompanion = async (input: PluginInput): Promise<Hooks> => {
  const { directory, serverUrl } = input;
  const sideChannelUrl = process.env.PATCHBAY_SIDE_CHANNEL_URL ?? "";
  const sideChannelToken = process.env.PATCHBAY_SIDE_CHANNEL_TOKEN ?? "";

  // Tell Patchbay this instance has the plugin: it never prompts in an instance that did not announce itself.
  await announce(sideChannelUrl, sideChannelToken, directory);

  const toolset = readToolset(directory);
  const byName = new Map(toolset.map((t) => [t.name, t]));

  // Specs are cached per session for the duration of a run (three hooks per step read it); failures are not cached.
  const cache = new Map<string, Promise<SpecResult>>();
  function loadSpec(sessionID: string | undefined): Promise<SpecResult> {
    if (!sessionID || !sideChannelUrl) return Promise.resolve({ missing: true });
    const hit = cache.get(sessionID);
    if (hit) return hit;
    const pending = fetchSpec(sideChannelUrl, sideChannelToken, sessionID);
    cache.set(sessionID, pending);
    pending.then(
      (r) => {
        if ("missing" in r) cache.delete(sessionID);
      },
      () => cache.delete(sessionID),
    );
    if (cache.size > SPEC_CACHE_MAX) cache.delete(cache.keys().next().value as string);
    return pending;
  }

  async function rejectPermission(requestID: string): Promise<void> {
    const password = process.env.OPENCODE_SERVER_PASSWORD;
    const username = process.env.OPENCODE_SERVER_USERNAME ?? "opencode";
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "x-opencode-directory": encodeURIComponent(directory),
    };
    if (password) headers.authorization = "Basic " + Buffer.from(`${username}:${password}`).toString("base64");
    const res = await fetch(new URL(`/permission/${encodeURIComponent(requestID)}/reply`, serverUrl), {
      method: "POST",
      headers,
      // No `message`: a reject with feedback is OpenCode's "corrected" error, which continues the loop.
      body: JSON.stringify({ reply: "reject" }),
      signal: AbortSignal.timeout(SPEC_TIMEOUT_MS),
    });
    if (!res.ok) console.error(`[patchbay] permission reject failed: ${res.status}`);
  }

  // No prototype: client tool names are arbitrary (`__proto__`, `constructor`) and must all become own keys.
  const tool = Object.create(null) as NonNullable<Hooks["tool"]>;
  for (const t of toolset) {
    const properties = (t.parameters as { properties?: unknown }).properties;
    tool[t.name] = {
      description: t.description,
      // Non-zod args: OpenCode builds a plain object schema without validating; tool.definition swaps in the exact one.
      args: (isRecord(properties) ? properties : {}) as never,
      async execute(args: unknown, ctx) {
        // Blocks until the event hook below rejects it -> PermissionRejectedError -> OpenCode ends the loop after
        // this step with every parallel call recorded. Nothing is executed.
        await ctx.ask({
          permission: CLIENT_TOOL_PERMISSION,
          patterns: [t.name],
          always: [],
          metadata: { tool: t.name, args },
        });
        throw new Error(`${t.name} is a client tool: Patchbay returns it to the client unexecuted`);
      },
    };
  }

  return {
    tool,

    "tool.definition": async ({ toolID }, output) => {
      const t = byName.get(toolID);
      if (!t) return;
      output.description = t.description;
      // OpenCode uses `jsonSchema` (undocumented) when `parameters` is left untouched: the client's exact schema.
      (output as { jsonSchema?: unknown }).jsonSchema = t.parameters;
    },

    event: async ({ event }) => {
      const e = event as { type: string; properties?: Record<string, unknown> };
      const props = e.properties ?? {};
      if (
        e.type === "permission.asked" &&
        props.permission === CLIENT_TOOL_PERMISSION &&
        typeof props.id === "string"
      ) {
        await rejectPermission(props.id).catch((err: unknown) =>
          console.error(`[patchbay] permission reject failed: ${String(err)}`),
        );
        return;
      }
      if (e.type === "session.idle" || e.type === "session.deleted") {
        const sid =
          typeof props.sessionID === "string" ? props.sessionID : (props.info as { id?: string } | undefined)?.id;
        if (sid) cache.delete(sid);
      }
    },

    "experimental.chat.system.transform": async ({ sessionID }, output) => {
      const r = await loadSpec(sessionID);
      if ("missing" in r) return; // not ours, or fail-closed happens in the messages hook (it knows the agent)
      output.system.length = 0;
      for (const s of r.spec.system) output.system.push(s);
    },

    "experimental.chat.messages.transform": async (_input, output) => {
      const messages = output.messages as unknown as CompanionMessage[];
      const sessionID = messages.find((m) => typeof m.info.sessionID === "string")?.info.sessionID as
        string | undefined;
      const isBridge = messages.some((m) => m.info.role === "user" && m.info.agent === BRIDGE_AGENT);
      const r = await loadSpec(sessionID);
      if ("missing" in r) {
        // Fail closed: a Patchbay session must never reach the model with OpenCode's own prompt and history.
        if (isBridge) throw new Error(`${FAIL_CLOSED_PREFIX} for this session (side channel unavailable)`);
        return;
      }
      // Patchbay sessions are fresh: message 0 is the trigger user message; anything after it is this run's own steps.
      const trigger = messages.findIndex((m) => m.info.role === "user");
      const tail = trigger >= 0 ? messages.slice(trigger + 1) : [];
      if (r.spec.singleStep && tail.some((m) => m.info.role === "assistant")) {
        throw new Error(SINGLE_STEP_REFUSAL);
      }
      const injected = r.spec.messages.map((m) => ({
        info: { ...m.info, sessionID },
        parts: m.parts.map((p) => ({ ...p, sessionID, messageID: m.info.id })),
      }));
      // In place: OpenCode keeps using its own array reference.
      messages.splice(0, messages.length, ...injected, ...tail);
    },

    "chat.params": async (input, output) => {
      const r = await loadSpec(input.sessionID);
      if ("missing" in r) return;
      const p = r.spec.params;
      output.temperature = p.temperature ?? (undefined as unknown as number);
      output.topP = p.topP ?? (undefined as unknown as number);
      output.topK = p.topK ?? (undefined as unknown as number);
      if ("maxOutputTokens" in p) output.maxOutputTokens = p.maxOutputTokens ?? undefined;
      if (!isRecord(output.options)) output.options = {};
      for (const k of p.dropOptions) delete output.options[k];
      Object.assign(output.options, p.options);
    },
  };
};

function readToolset(directory: string): CompanionTool[] {
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(path.join(directory, TOOLSET_FILE), "utf8"));
    const tools = isRecord(parsed) && Array.isArray(parsed.tools) ? parsed.tools : [];
    return tools.filter(
      (t): t is CompanionTool =>
        isRecord(t) && typeof t.name === "string" && typeof t.description === "string" && isRecord(t.parameters),
    );
  } catch {
    return []; // a directory without a toolset (e.g. the default instance) has no client tools
  }
}

async function announce(url: string, token: string, directory: string): Promise<void> {
  if (!url) return;
  await fetch(`${url}/hello`, {
    method: "POST",
    headers: { [SIDE_CHANNEL_TOKEN_HEADER]: token, "content-type": "application/json" },
    body: JSON.stringify({ v: 1, directory, pid: process.pid }),
    signal: AbortSignal.timeout(SPEC_TIMEOUT_MS),
  }).catch((err: unknown) => console.error(`[patchbay] could not announce the companion plugin: ${String(err)}`));
}

async function fetchSpec(url: string, token: string, sessionID: string): Promise<SpecResult> {
  const res = await fetch(`${url}/spec/${encodeURIComponent(sessionID)}`, {
    headers: { [SIDE_CHANNEL_TOKEN_HEADER]: token },
    signal: AbortSignal.timeout(SPEC_TIMEOUT_MS),
  }).catch(() => null);
  if (!res || !res.ok) return { missing: true };
  const body: unknown = await res.json().catch(() => null);
  if (
    !isRecord(body) ||
    body.v !== 1 ||
    !Array.isArray(body.system) ||
    !Array.isArray(body.messages) ||
    !isRecord(body.params)
  ) {
    return { missing: true };
  }
  return { spec: body as unknown as CompanionSpec };
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}
