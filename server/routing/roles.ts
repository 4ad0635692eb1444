// The role of a request, from the hint headers coding agents send, and the model an app routes that role to.
import type { IncomingHttpHeaders } from "node:http";
import type { App } from "../../shared/apps";
import { REQUEST_ROLES, type RequestRole } from "../../shared/routing";
import { quoteClientText as q } from "../core/client-text";
import { PatchbayError, toPatchbayError } from "../core/errors";
import type { CliCommand } from "../core/cli-command";

/** The role a request names, with the header it came from (for the log). */
export interface RequestHint {
  role: RequestRole;
  /** Claude Code's `x-claude-code-agent-type` (e.g. `general-purpose`), when sent. */
  agentType?: string;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined ? undefined : s.trim().toLowerCase();
}

/**
 * The request's role: Claude Code's `x-claude-code-request-class` (sent with CLAUDE_CODE_GATEWAY_HINT_HEADERS=1),
 * else Codex's `x-openai-subagent` (`review` → review, `compact` → compaction, any other subagent → subagent). Null
 * when the request names none or an unknown class (it is then treated like a request without hints).
 */
export function requestHint(headers: IncomingHttpHeaders): RequestHint | null {
  const cls = header(headers, "x-claude-code-request-class");
  if (cls !== undefined) {
    if (!(REQUEST_ROLES as readonly string[]).includes(cls)) return null;
    const agentType = header(headers, "x-claude-code-agent-type");
    return { role: cls as RequestRole, ...(agentType ? { agentType: agentType.slice(0, 80) } : {}) };
  }
  const sub = header(headers, "x-openai-subagent");
  if (sub === undefined || sub === "") return null;
  return { role: sub === "review" ? "review" : sub === "compact" ? "compaction" : "subagent" };
}

/** The alias or model `app` routes `role` to, or null (the request keeps the model it asked for). */
export function routeFor(app: App, role: RequestRole | undefined): string | null {
  if (role === undefined) return null;
  return Object.hasOwn(app.routes, role) ? (app.routes[role] ?? null) : null;
}

/** A request its role's route sends elsewhere: the role and the alias or model the app routes it to. */
export interface RoutedRequest {
  role: RequestRole;
  target: string;
}

/**
 * The error of a routed request whose route's model cannot be used (`err`, from model resolution): same code and
 * status, with a message naming the app's route, its model and the model the client asked for, so the client's user
 * sees that the route (not their request) needs fixing.
 */
export function routeError(
  app: App,
  routed: RoutedRequest,
  asked: string,
  err: unknown,
  cli: CliCommand,
): PatchbayError {
  const e = toPatchbayError(err);
  if (e.code !== "model_not_found" && e.code !== "model_not_allowed") return e;
  const fix = `Change the route with: ${cli(`app route ${app.name} ${routed.role} MODEL`)} (or the app's Models tab in the Patchbay dashboard).`;
  const isAlias = Object.hasOwn(app.aliases, routed.target);
  const why = isAlias
    ? `to its alias ${q(routed.target)}, which cannot be used: ${e.message}`
    : e.code === "model_not_allowed"
      ? `to ${q(routed.target)}, which the app may not use.`
      : `to ${q(routed.target)}, which no connected OpenCode provider offers.`;
  return new PatchbayError(
    e.code,
    `App '${app.name}' routes ${routed.role} requests (this one asked for ${q(asked)}) ${why} ${fix}`,
    { param: "model" },
  );
}
