// Fallback chains: the same request sent to the next target when one refuses before its first byte (429, quota,
// overloaded, 5xx). Nothing is retried after the first output event: the client has seen that model's answer begin.
import type { ModelError, ModelEvent, ModelInfo } from "../core/contract";
import { toPatchbayError } from "../core/errors";
import { noteRefusal, type Cooldowns } from "./cooldowns";

/** One target of a chain. */
export interface ChainTarget {
  model: ModelInfo;
  variant?: string;
  /** `provider/model[#variant]`: the cooldown key and the name in headers and the log. */
  id: string;
}

/** A model of a chain that cannot be asked (no connected provider offers it): skipped when the chain reaches it. */
export interface MissingTarget {
  id: string;
  /** Why, as `x-patchbay-skipped` says it (e.g. `not offered by any connected provider`). */
  missing: string;
}

/** One entry of a chain, in the order the alias names them. */
export type ChainEntry = ChainTarget | MissingTarget;

/** True for an entry that can be asked. */
export function isTarget(e: ChainEntry): e is ChainTarget {
  return !("missing" in e);
}

/** What a chain did, filled in as it runs: the target whose events the client gets (its answer, or the refusal
 *  passed on; null until known) and the ones skipped before it, in chain order, with why. */
export interface ChainReport {
  served: string | null;
  skipped: { model: string; reason: string }[];
}

/** Errors that say "this target, not this request": worth trying the next one. Patchbay's own states (OpenCode
 *  starting or down) are not: every target shares them. */
export function isFallbackError(e: ModelError): boolean {
  if (["backend_unavailable", "backend_starting", "api_stopped"].includes(e.code)) return false;
  return e.status === 429 || e.status >= 500 || e.code === "upstream_rate_limited" || e.kind === "quota";
}

function thrownAsError(err: unknown): ModelError {
  const e = toPatchbayError(err);
  return {
    code: e.code,
    status: e.status,
    message: e.message,
    param: e.param,
    ...(e.retryAfter !== undefined ? { retryAfter: e.retryAfter } : {}),
  };
}

/** `x-patchbay-skipped`'s reason for a target cooling down: it refused with 429 and a retry time earlier. */
export function coolingReason(until: number): string {
  return `rate-limited until ${new Date(until).toISOString()}`;
}

/**
 * Runs the chain's entries in order through `run` and yields the events of the first target that does not refuse
 * before its first output. Entries are passed over, and named in `report.skipped` in chain order, only when the chain
 * reaches them: a missing model (`missing`), a target cooling down (a provider's 429 with a retry time, noted in
 * `cooldowns`), a target that refused before its first byte with a fallback reason (its status, code and message).
 * Entries after the one that answers are never named. The refusal of the last target that can be tried is passed on
 * as it is; when no entry can be tried and some cool down, the answer is one 429 with the earliest retry time (none
 * cooling: a 404 `model_not_found` naming them). `signal` stops fallbacks once the client left or a deadline passed.
 */
export async function* runChain(
  entries: readonly ChainEntry[],
  run: (t: ChainTarget) => AsyncIterable<ModelEvent>,
  opts: {
    cooldowns: Cooldowns;
    now: () => number;
    report: ChainReport;
    signal: AbortSignal;
    /** Called once, when the target whose events the client gets is known (before its first event is yielded). */
    onServed?: (id: string) => void;
    /** Called each time an entry is skipped, with every skip so far, before the next entry is tried: a stream may
     *  commit its headers before the first event, so what is known goes out as early as possible. */
    onSkipped?: (skipped: ChainReport["skipped"]) => void;
    /** The request-log entry, named with each refusal noted in `cooldowns`. */
    logId?: string;
  },
): AsyncGenerator<ModelEvent> {
  const { report, cooldowns } = opts;
  // One look at the cooldowns: a refusal noted by another request meanwhile must not make the chain end unanswered.
  const cooling = new Map(entries.filter(isTarget).map((t) => [t.id, cooldowns.coolingUntil(t.id)]));
  const triable = entries.filter((e): e is ChainTarget => isTarget(e) && cooling.get(e.id) === null);
  const skip = (model: string, reason: string) => {
    report.skipped.push({ model, reason: reason.slice(0, 300) });
    opts.onSkipped?.(report.skipped);
  };
  const skipUnusable = (e: ChainEntry): void => {
    if (!isTarget(e)) return skip(e.id, e.missing);
    const until = cooling.get(e.id);
    if (until !== null && until !== undefined) skip(e.id, coolingReason(until));
  };
  if (triable.length === 0) {
    entries.forEach(skipUnusable);
    yield { type: "error", error: noTargetError(entries, cooling, opts.now()) };
    return;
  }
  const last = triable[triable.length - 1]!;
  for (const entry of entries) {
    if (!isTarget(entry) || cooling.get(entry.id) !== null) {
      skipUnusable(entry);
      continue;
    }
    const target = entry;
    const it = run(target)[Symbol.asyncIterator]();
    const held: ModelEvent[] = [];
    let first: ModelEvent | undefined;
    try {
      for (;;) {
        const step = await it.next().catch((err: unknown) => ({
          done: false as const,
          value: { type: "error" as const, error: thrownAsError(err) },
        }));
        if (step.done) break;
        if (step.value.type === "start") {
          held.push(step.value);
          continue;
        }
        first = step.value;
        break;
      }
      if (first?.type === "error") {
        const error = first.error;
        noteRefusal(cooldowns, target.id, error, opts.now(), opts.logId);
        if (target !== last && isFallbackError(error) && !opts.signal.aborted) {
          skip(target.id, `${error.status} ${error.code}: ${error.message}`);
          continue;
        }
      }
      report.served = target.id;
      opts.onServed?.(target.id);
      yield* held;
      if (first === undefined) return;
      yield first;
      for (;;) {
        const step = await it.next();
        if (step.done) return;
        yield step.value;
      }
    } finally {
      // The tried target's cleanup (lease, session abort) runs whether it refused or served.
      await it.return?.(undefined)?.catch(() => undefined);
    }
  }
}

/** The answer when no entry of a chain can be tried: 429 until the first cooling target may be tried again, or 404
 *  when none is offered at all (admission refuses that case first; kept here so the chain never ends unanswered). */
function noTargetError(entries: readonly ChainEntry[], cooling: Map<string, number | null>, now: number): ModelError {
  const ids = entries.map((e) => e.id).join(", ");
  const times = [...cooling.values()].filter((t): t is number => t !== null);
  if (times.length === 0)
    return {
      code: "model_not_found",
      status: 404,
      message: `No model of this request is offered by a connected provider (${ids}).`,
      param: "model",
    };
  const until = Math.min(...times);
  return {
    code: "upstream_rate_limited",
    status: 429,
    message: `Every model of this request is rate-limited by its provider${entries.some((e) => !isTarget(e)) ? " or not offered" : ""} (${ids}); the first may be tried again after ${new Date(until).toISOString()}.`,
    retryAfter: Math.max(1, Math.ceil((until - now) / 1000)),
  };
}
