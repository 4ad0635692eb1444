// The server-tool loop: a ModelBackend wrapper for requests that offer provider server tools (web search / fetch).
// The model is offered each as a function tool; when it calls one, Patchbay runs the call (execute.ts), the client
// sees `server-tool-call` + `server-tool-result` events (its wire's native blocks), and the model continues with the
// result in a further step of the same client request. Client tools are still never executed: a step that calls one
// ends the request as before. Requests without server tools pass straight through.
import crypto from "node:crypto";
import type {
  BackendRequest,
  ModelBackend,
  ModelEvent,
  NeutralMessage,
  PatchbayWarning,
  ServerToolCallRecord,
  ServerToolOutcome,
  ServerToolSpec,
  ToolCall,
  ToolDefinition,
  Usage,
} from "../core/contract";
import { addUsage, ZERO_USAGE } from "../core/contract";
import { warn } from "../core/warnings";
import { outcomeText, runServerToolCall, type ServerToolServices } from "./execute";
import { ruleAdmits, urlKey, urlKeysInText } from "./fetchable-urls";

/** How the wrapper finds the services of a request's app, and reports each call. */
export interface ServerToolsOptions {
  /** The services for `app` (search backend or why none, fetcher), resolved per request. */
  services(app: string): ServerToolServices;
  /** Called after each call ran (request log / live log). */
  onCall?: (app: string, call: ServerToolCallRecord) => void;
  /** Model steps per client request (each server tool round is one); default 10. */
  maxSteps?: number;
  /** Calls per tool per request when the client set no `max_uses`; default 8. */
  defaultMaxUses?: number;
}

export type { ServerToolCallRecord };

const SEARCH_PARAMETERS = {
  type: "object",
  properties: { query: { type: "string", description: "The search query" } },
  required: ["query"],
  additionalProperties: false,
};
const FETCH_PARAMETERS = {
  type: "object",
  properties: { url: { type: "string", description: "The http(s) URL of the page to fetch" } },
  required: ["url"],
  additionalProperties: false,
};

/** The function tool the model is offered for a server tool (Anthropic's own input shapes: `{query}` / `{url}`). */
export function serverToolDefinition(spec: ServerToolSpec): ToolDefinition {
  return spec.kind === "web_search"
    ? {
        name: spec.name,
        description:
          "Search the web. Returns result titles, URLs and snippets. Use it for current information; cite the URLs you use.",
        parameters: SEARCH_PARAMETERS,
      }
    : {
        name: spec.name,
        description:
          "Fetch a web page by URL and return its text. Only URLs that already appear in the conversation (from the user, tool results, search results or fetched pages) can be fetched; never make one up.",
        parameters: FETCH_PARAMETERS,
      };
}

/** Wraps `backend`: requests with `serverTools` run the loop above, all others go straight to `backend`. */
export function withServerTools<B extends ModelBackend>(backend: B, options: ServerToolsOptions): ModelBackend {
  return {
    listModels: () => backend.listModels(),
    ...(backend.check ? { check: backend.check.bind(backend) } : {}),
    stream: (req, signal) =>
      req.request.serverTools?.length ? runWithServerTools(backend, req, signal, options) : backend.stream(req, signal),
  };
}

async function* runWithServerTools(
  backend: ModelBackend,
  req: BackendRequest,
  signal: AbortSignal,
  options: ServerToolsOptions,
): AsyncGenerator<ModelEvent> {
  const r = req.request;
  const warnings: PatchbayWarning[] = [];
  const specs = new Map<string, ServerToolSpec>();
  for (const spec of r.serverTools ?? []) {
    if (r.tools.some((t) => t.name === spec.name)) {
      warnings.push(
        warn.dropped("tools", `server tool '${spec.name}' not offered: a client tool of that name is in the request`),
      );
      continue;
    }
    specs.set(spec.name, spec);
    if (spec.userLocation)
      warnings.push(warn.ignored("user_location", "user_location ignored: the search backend takes no location"));
  }
  const services = options.services(req.app);
  // Per web fetch tool: the URL keys it may fetch, growing with this request's search and fetch results.
  const fetchable = new Map<string, Set<string>>();
  for (const spec of specs.values())
    if (spec.kind === "web_fetch") fetchable.set(spec.name, new Set(spec.fetchScope?.urls ?? []));
  const maxSteps = options.maxSteps ?? 10;
  const offered = r.toolChoice === "none" ? [] : [...specs.values()].map(serverToolDefinition);
  const uses = new Map<string, number>();
  const counts = { webSearchRequests: 0, webFetchRequests: 0 };
  let messages: NeutralMessage[] = [...r.messages];
  let usage: Usage = ZERO_USAGE;
  let mapperWarnings: PatchbayWarning[] = [];

  for (let step = 0; ; step++) {
    const last = step === maxSteps - 1;
    const stepReq: BackendRequest = {
      ...req,
      request: {
        ...r,
        messages,
        tools: [...r.tools, ...offered],
        // A forced tool call is for the first step only: after a server tool round the model must be free to answer.
        toolChoice: step > 0 && r.toolChoice === "required" ? "auto" : r.toolChoice,
        serverTools: [],
      },
    };
    let text = "";
    const serverCalls: Array<{ call: ToolCall; result: string }> = [];
    let clientCalls = 0;
    let finished = false;
    events: for await (const event of backend.stream(stepReq, signal)) {
      switch (event.type) {
        case "start":
          if (step === 0) yield { ...event, warnings: [...event.warnings, ...warnings] };
          continue;
        case "text-delta":
          text += event.delta;
          yield event;
          continue;
        case "tool-call": {
          const spec = specs.get(event.name);
          if (!spec) {
            clientCalls++;
            yield event;
            continue;
          }
          const id = `srvtoolu_${crypto.randomBytes(12).toString("hex")}`;
          const input = parseInput(event.arguments);
          yield { type: "server-tool-call", id, name: spec.name, kind: spec.kind, input };
          const used = (uses.get(spec.name) ?? 0) + 1;
          uses.set(spec.name, used);
          const limit = spec.maxUses ?? options.defaultMaxUses ?? 8;
          const started = Date.now();
          const outcome =
            used > limit
              ? { kind: spec.kind, error: "max_uses_exceeded" as const, message: `At most ${limit} uses per request.` }
              : await runServerToolCall(spec, input, services, signal, fetchable.get(spec.name));
          if (!("error" in outcome)) {
            addFetchableUrls(fetchable, specs, spec.name, outcome);
            if (spec.kind === "web_search") counts.webSearchRequests++;
            else counts.webFetchRequests++;
          }
          const record: ServerToolCallRecord = {
            kind: spec.kind,
            target: String(input.query ?? input.url ?? "").slice(0, 500),
            backend: spec.kind === "web_search" ? (services.search?.label ?? "none") : "Patchbay fetch",
            ms: Date.now() - started,
            results: "error" in outcome ? 0 : outcome.kind === "web_search" ? outcome.hits.length : 1,
            ...("error" in outcome ? { error: `${outcome.error}: ${outcome.message}` } : {}),
          };
          options.onCall?.(req.app, record);
          yield { type: "server-tool-result", id, outcome, record };
          serverCalls.push({
            call: { id, name: spec.name, arguments: JSON.stringify(input) },
            result: outcomeText(outcome),
          });
          continue;
        }
        case "finish": {
          usage = addUsage(usage, event.usage);
          mapperWarnings = [...mapperWarnings, ...(event.warnings ?? [])];
          finished = true;
          const again = serverCalls.length > 0 && clientCalls === 0 && !last && !signal.aborted;
          if (again) break events; // closes this step's iterator (its session cleanup runs)
          yield {
            type: "finish",
            // The model's last word was a server tool call when it ran out of steps: it stopped, it did not ask the
            // client for anything.
            reason: clientCalls === 0 && event.reason === "tool_calls" ? "stop" : event.reason,
            usage: { ...usage, serverToolUse: { ...counts } },
            ...(mapperWarnings.length || (last && serverCalls.length)
              ? {
                  warnings: [
                    ...mapperWarnings,
                    ...(last && serverCalls.length
                      ? [warn.approximated("tools", `server tool loop stopped after ${maxSteps} model steps`)]
                      : []),
                  ],
                }
              : {}),
          };
          return;
        }
        default:
          // reasoning-delta passes through; an `error` ends the request (the relay stops at it).
          yield event;
          if (event.type === "error") return;
      }
    }
    if (!finished) return; // the backend ended without finish (aborted): the relay reports it
    messages = [
      ...messages,
      { role: "assistant", content: text ? [{ type: "text", text }] : [], toolCalls: serverCalls.map((c) => c.call) },
      ...serverCalls.map((c): NeutralMessage => ({ role: "tool", toolCallId: c.call.id, content: c.result })),
    ];
  }
}

/** Adds the URLs of a search's hits, or a fetched page's URL and the links in its text, to the fetch tools whose
 *  `url_sources.server_tool_results` admit results of tool `from`. */
function addFetchableUrls(
  fetchable: Map<string, Set<string>>,
  specs: ReadonlyMap<string, ServerToolSpec>,
  from: string,
  outcome: ServerToolOutcome,
): void {
  if ("error" in outcome) return;
  const keys =
    outcome.kind === "web_search"
      ? outcome.hits.map((h) => urlKey(h.url))
      : [urlKey(outcome.url), ...urlKeysInText(outcome.text)];
  for (const [name, set] of fetchable) {
    const rule = specs.get(name)?.fetchScope?.serverToolResults ?? { type: "all" as const };
    if (!ruleAdmits(rule, from)) continue;
    for (const key of keys) if (key) set.add(key);
  }
}

function parseInput(args: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(args);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
