// A minimal single-consumer async queue: producers push, the consumer awaits the next item or an abort.
// Owns buffering only (no timers, no I/O).

/** Result of {@link AsyncQueue.next}: an item, or `aborted` when the signal fired first. */
export type QueueResult<T> = { item: T } | { aborted: true };

export class AsyncQueue<T> {
  private readonly items: T[] = [];
  private wake: (() => void) | null = null;

  push(item: T): void {
    this.items.push(item);
    this.wake?.();
  }

  /** Next item in order; resolves `{aborted: true}` as soon as `signal` is aborted (pending items are kept). */
  async next(signal: AbortSignal): Promise<QueueResult<T>> {
    for (;;) {
      if (signal.aborted) return { aborted: true };
      if (this.items.length) return { item: this.items.shift() as T };
      await new Promise<void>((resolve) => {
        const done = () => {
          signal.removeEventListener("abort", done);
          this.wake = null;
          resolve();
        };
        this.wake = done;
        signal.addEventListener("abort", done, { once: true });
      });
    }
  }
}
