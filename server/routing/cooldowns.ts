// Models an upstream refused with a retry time: skipped by fallback chains until then, so later requests do not pay
// for a try that would fail. In memory (a restart forgets them; the upstream tells again).

/** Cooldown registry keyed by `provider/model[#variant]`. Times are epoch ms. */
export class Cooldowns {
  private readonly until = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  /** Records that `model` refused until `untilMs` (a later time wins). */
  note(model: string, untilMs: number): void {
    if (untilMs > (this.until.get(model) ?? 0)) this.until.set(model, untilMs);
  }

  /** When `model` may be tried again, or null when it may be tried now. */
  coolingUntil(model: string): number | null {
    const t = this.until.get(model);
    if (t === undefined) return null;
    if (t <= this.now()) {
      this.until.delete(model);
      return null;
    }
    return t;
  }

  /** Every model cooling now, with its time. */
  list(): { model: string; until: number }[] {
    return [...this.until.keys()].flatMap((model) => {
      const until = this.coolingUntil(model);
      return until === null ? [] : [{ model, until }];
    });
  }
}
