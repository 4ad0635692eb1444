// The request runner's routing and budget steps, kept out of run.ts: read the role, pick its route, reserve the
// budget, run the fallback chain with its headers, count tokens. Each function is one hook in run.ts.
import type { Request, Response } from "express";
import { appDataKey, type App } from "../../../shared/apps";
import type { RequestLogEntry } from "../../../shared/log-entry";
import type { BackendRequest, ModelEvent } from "../../core/contract";
import type { BudgetReservation, BudgetWire } from "../../budgets/budget-guard";
import { BudgetExhaustedError } from "../../budgets/budget-guard";
import { toPatchbayError } from "../../core/errors";
import type { Admitted } from "./admission";
import type { ModelRequestDeps } from "./types";
import { Cooldowns, noteRefusal } from "../../routing/cooldowns";
import { isTarget, runChain, type ChainReport, type ChainTarget } from "../../routing/fallback";
import { requestHint, routeFor, type RoutedRequest } from "../../routing/roles";

/** Reads the request's role into the log entry; returns its role and the model its route names (null: none
 *  applies). */
export function routeOfRequest(req: Request, app: App, entry: RequestLogEntry): RoutedRequest | null {
  const hint = requestHint(req.headers);
  if (!hint) return null;
  entry.role = hint.role;
  if (hint.agentType) entry.agentType = hint.agentType;
  const routed = routeFor(app, hint.role);
  if (!routed) return null;
  entry.routedTo = routed;
  return { role: hint.role, target: routed };
}

/** Anthropic's Messages wire reads `anthropic-ratelimit-*`; the OpenAI wires `x-ratelimit-*` / `x-codex-*`. */
export function budgetWireOf(req: Request): BudgetWire {
  return req.path.endsWith("/messages") ? "anthropic" : "openai";
}

/** Reserves one request of the app's budgets (throws BudgetExhaustedError when one is spent); null without budgets. */
export function reserveBudget(req: Request, app: App, deps: ModelRequestDeps): BudgetReservation | null {
  return deps.budgets ? deps.budgets.reserve(app, deps.now(), budgetWireOf(req)) : null;
}

/** A refused request's utilization headers, set before the error middleware answers. */
export function setRefusalHeaders(res: Response, err: unknown): void {
  if (!(err instanceof BudgetExhaustedError) || res.headersSent) return;
  for (const [k, v] of Object.entries(err.headers)) res.setHeader(k, v);
}

/** Sets `headers` on the answer unless it already went out. */
export function setHeaders(res: Response, headers: Record<string, string>): void {
  if (res.headersSent) return;
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
}

/** Process-wide cooldowns for deps without their own (tests that build deps by hand). */
const fallbackCooldowns = new WeakMap<ModelRequestDeps, Cooldowns>();

/** `x-patchbay-skipped`: `model; reason` entries joined by `, `, in chain order. */
export function skippedHeader(skipped: ChainReport["skipped"]): string {
  return skipped.map((s) => `${headerModelId(s.model)}; ${headerSafe(s.reason)}`).join(", ");
}

/**
 * A model id as a header value: bytes outside printable ASCII, and `%`, `,` and `;` (the list separators of
 * `x-patchbay-skipped`), percent-encoded as UTF-8. An alias may name any `provider/model` (`demo/中`, even control
 * characters), and Node throws on such a header value, which would turn the answer into a 500.
 */
export function headerModelId(id: string): string {
  return id.replace(/[^\x21-\x24\x26-\x2b\x2d-\x3a\x3c-\x7e]/gu, (c) =>
    [...Buffer.from(c, "utf8")].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join(""),
  );
}

/**
 * The backend's events through the admitted chain: the first target, then its fallbacks while targets refuse before
 * their first byte (fallback.ts). `x-patchbay-skipped` names what the chain passed over so far, set before each next
 * target is tried; `x-patchbay-served-model` names the target whose events the client gets, set once it answers (on
 * a request with one target, from an alias or a route: at once). Headers already sent are not changed; the log entry
 * gets `servedBy` and `skipped` in any case.
 */
export function streamChain(
  res: Response,
  app: App,
  admitted: Admitted,
  deps: ModelRequestDeps,
  entry: RequestLogEntry,
  signal: AbortSignal,
): AsyncIterator<ModelEvent> {
  let cooldowns = deps.cooldowns ?? fallbackCooldowns.get(deps);
  if (!cooldowns) fallbackCooldowns.set(deps, (cooldowns = new Cooldowns(deps.now)));
  const run = (t: ChainTarget) => {
    const backendRequest: BackendRequest = {
      // Sessions are filed under the app's data key, so a later app of the same name never sees them.
      app: appDataKey(app),
      model: t.model,
      ...(t.variant ? { variant: t.variant } : {}),
      request: admitted.request,
    };
    return deps.backend.stream(backendRequest, signal);
  };
  if (!admitted.chained) {
    const only = admitted.chain.find(isTarget)!;
    if (admitted.indirect) setHeaders(res, { "x-patchbay-served-model": headerModelId(only.id) });
    return watchRefusal(run(only), only.id, cooldowns, deps.now, entry.id);
  }
  const report: ChainReport = { served: null, skipped: [] };
  return runChain(admitted.chain, run, {
    cooldowns,
    now: deps.now,
    logId: entry.id,
    report,
    signal,
    onSkipped: (skipped) => {
      entry.skipped = [...skipped];
      setHeaders(res, { "x-patchbay-skipped": skippedHeader(skipped) });
    },
    onServed: (id) => {
      entry.servedBy = id;
      setHeaders(res, { "x-patchbay-served-model": headerModelId(id) });
    },
  });
}

/** The events of a single target, noting a provider's 429 with a retry time (Overview, tray, later chains). */
async function* watchRefusal(
  events: AsyncIterable<ModelEvent>,
  model: string,
  cooldowns: Cooldowns,
  now: () => number,
  logId: string,
): AsyncGenerator<ModelEvent> {
  try {
    for await (const event of events) {
      if (event.type === "error") noteRefusal(cooldowns, model, event.error, now(), logId);
      yield event;
    }
  } catch (err) {
    const e = toPatchbayError(err);
    const error = { status: e.status, code: e.code, message: e.message };
    noteRefusal(
      cooldowns,
      model,
      e.retryAfter === undefined ? error : { ...error, retryAfter: e.retryAfter },
      now(),
      logId,
    );
    throw err;
  }
}

/** A reason as a header value: printable ASCII, no list separators, at most 200 characters. */
function headerSafe(text: string): string {
  return text.replace(/[^\x20-\x7e]|[,;]/g, " ").slice(0, 200);
}

/** Counts a finished request's tokens against the app's token budgets. */
export function countTokens(app: App, entry: RequestLogEntry, deps: ModelRequestDeps): void {
  if (deps.budgets && entry.usage)
    deps.budgets.recordTokens(app, deps.now(), entry.usage.inputTokens + entry.usage.outputTokens);
}
