// Models an upstream refused with a retry time: skipped by fallback chains until then, so later requests do not pay
// for a try that would fail, and shown on the Overview and in the tray ("rate-limited until …"). In memory (a restart
// forgets them; the upstream tells again).
import type { UpstreamRateLimit } from "../../shared/limits";

/** What is known of one refusal besides its time. */
export interface RefusalDetail {
  /** The request-log entry of the refusal. */
  logId?: string;
  /** The provider's words as Patchbay passed them on. */
  message?: string;
}

/** Cooldown registry keyed by `provider/model[#variant]`. Times are epoch ms. */
export class Cooldowns {
  private readonly until = new Map<string, UpstreamRateLimit>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly now: () => number) {}

  /** Records that `model` refused until `untilMs` (a later time wins). */
  note(model: string, untilMs: number, detail: RefusalDetail = {}): void {
    if (untilMs <= (this.until.get(model)?.until ?? 0)) return;
    this.until.set(model, {
      model,
      provider: model.split("/")[0] ?? model,
      until: untilMs,
      since: this.now(),
      logId: detail.logId ?? null,
      message: detail.message ?? null,
    });
    for (const l of this.listeners) l();
  }

  /** When `model` may be tried again, or null when it may be tried now. */
  coolingUntil(model: string): number | null {
    const t = this.until.get(model)?.until;
    if (t === undefined) return null;
    if (t <= this.now()) {
      this.until.delete(model);
      return null;
    }
    return t;
  }

  /** Every model cooling now, soonest first. */
  list(): UpstreamRateLimit[] {
    return [...this.until.keys()]
      .flatMap((model) => (this.coolingUntil(model) === null ? [] : [this.until.get(model)!]))
      .sort((a, b) => a.until - b.until);
  }

  /** Calls `listener` after each new refusal; returns unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** Notes `error` of `model` when it is a provider's 429 with a retry time (Patchbay's own 429s, e.g. budgets or
 *  every chain target cooling, are not the provider's word and are not noted). */
export function noteRefusal(
  cooldowns: Cooldowns,
  model: string,
  error: { status: number; code: string; message: string; retryAfter?: number },
  now: number,
  logId?: string,
): void {
  if (error.status !== 429 || error.retryAfter === undefined || error.code !== "upstream_rate_limited") return;
  if (/^Every model of this request is rate-limited/.test(error.message)) return;
  cooldowns.note(model, now + error.retryAfter * 1000, { ...(logId ? { logId } : {}), message: error.message });
}
