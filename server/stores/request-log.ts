// Request log: redacts each entry, keeps a ring for the live view, counts usage per app id, and appends JSON lines to
// `<dataDir>/logs/requests.jsonl` with size-based rotation. Per-app views go by the app's id (shared/log-filter.ts
// entryBelongsTo), so a deleted app's entries are never a later same-name app's; they are not removed (the log is
// append-only and rotates them away), and stay visible in the all-apps view. Must never block or fail a request: writes are
// buffered and asynchronous, and every failure is kept for `lastError()` instead of thrown.
import fsp from "node:fs/promises";
import { createReadStream } from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { isErrorStatus, RequestLogEntry } from "../../shared/log-entry";
import type { AppNamed, LogOwner } from "../../shared/log-filter";
import { decodeCursor, encodeCursor, parseLine, queryMatcher, usageFacts, type Stored } from "./log-lines";
import { linesBefore, logFilePath, seqOfLine } from "./log-files";
import { localDay, UsageBook } from "./log-usage";
import { redactEntry } from "./redact";
import { describeFsError } from "./storage-error";
import { STORE_FILES } from "./store-paths";
import type { DailyUsage, LogPage, LogQuery, RequestLog } from "./types";

export interface RequestLogOptions {
  /** Patchbay's data folder; the log lives in `<dataDir>/logs/`. */
  dataDir: string;
  /** Wall clock, epoch ms (default Date.now). `now` is accepted as an alias. */
  clock?: () => number;
  now?: () => number;
  /** Rotate when the current file would exceed this many bytes (default 10 MiB); a file holds more only when a
   *  single line is larger. */
  maxFileBytes?: number;
  /** Files kept, the current one included (default 5). */
  maxFiles?: number;
  /** Entries kept in memory for the live view and fast queries (default 1,000). */
  ringSize?: number;
  /** Delay before buffered lines are written (ms, default 50). */
  flushDelayMs?: number;
  /** Days of usage kept and rebuilt from the files at start (default 400). */
  usageDays?: number;
  /** Body strings longer than this are cut before storing (characters, default 64 KiB). */
  maxBodyStringChars?: number;
  /** Secrets Patchbay knows by value (admin token, login tokens, OpenCode's password), removed from every entry
   *  wherever they appear; asked for each entry, so secrets created later are covered. */
  secrets?: () => readonly string[];
  /** Max bytes a query reads from disk before it returns a partial page with a cursor (default 16 MiB). */
  queryBudgetBytes?: number;
}

/** Lines waiting for the disk beyond this are dropped (and reported), so a dead disk cannot eat memory. */
const MAX_PENDING_LINES = 10_000;
/** Longest a request can run (AppLimits.totalTimeoutMs max) plus a minute: entries are written when requests end,
 *  so file order is not start-time order; a `since` scan may stop only this far past `since`. */
const ORDER_SLACK_MS = 7_200_000 + 60_000;

/**
 * Opens the request log: loads the newest entries into the ring and rebuilds usage from the files (bounded by the
 * rotation size). Never throws for disk trouble; it is reported by `lastError()` and the log works in memory.
 */
export async function createRequestLog(options: RequestLogOptions): Promise<RequestLog> {
  const log = new FileRequestLog(options);
  await log.open();
  return log;
}

class FileRequestLog implements RequestLog {
  private readonly dir: string;
  private readonly clock: () => number;
  private readonly maxFileBytes: number;
  private readonly maxFiles: number;
  private readonly ringSize: number;
  private readonly flushDelayMs: number;
  private readonly maxBodyStringChars: number;
  private readonly secrets: () => readonly string[];
  private readonly queryBudgetBytes: number;
  private readonly book: UsageBook;
  private ring: Stored[] = [];
  private seq = 0;
  private readonly listeners = new Set<(e: RequestLogEntry) => void>();
  private pending: string[] = [];
  private dropped = 0;
  private flushTimer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private currentSize = 0;
  private needsNewline = false;
  private error: string | null = null;
  private closed = false;
  private sessionRequests = 0;
  private sessionErrors = 0;
  private lastPruneDay = "";

  constructor(options: RequestLogOptions) {
    this.dir = path.join(path.resolve(options.dataDir), STORE_FILES.logDir);
    this.clock = options.clock ?? options.now ?? Date.now;
    this.maxFileBytes = options.maxFileBytes ?? 10 * 1024 * 1024;
    this.maxFiles = Math.max(1, options.maxFiles ?? 5);
    this.ringSize = Math.max(1, options.ringSize ?? 1000);
    this.flushDelayMs = options.flushDelayMs ?? 50;
    this.maxBodyStringChars = options.maxBodyStringChars ?? 64 * 1024;
    this.secrets = options.secrets ?? (() => []);
    this.queryBudgetBytes = options.queryBudgetBytes ?? 16 * 1024 * 1024;
    this.book = new UsageBook(Math.max(1, options.usageDays ?? 400));
  }

  /** Reads the files oldest to newest: seq, the ring's tail, usage per day. */
  async open(): Promise<void> {
    try {
      await fsp.mkdir(this.dir, { recursive: true, mode: 0o700 });
    } catch (err) {
      this.error = `Could not create the log folder ${this.dir}: ${describeFsError(err)}.`;
      return;
    }
    const now = this.clock();
    const oldestDay = this.book.oldestDay(now);
    const tail: { seq: number; raw: unknown }[] = [];
    for (let i = this.maxFiles - 1; i >= 0; i--) {
      const file = logFilePath(this.dir, i);
      try {
        await this.scanFile(file, oldestDay, tail);
      } catch (err) {
        if ((err as { code?: string }).code !== "ENOENT")
          this.error = `Could not read ${file}: ${describeFsError(err)}.`;
      }
    }
    // Only the entries that go into the ring get a full validation.
    for (const t of tail.slice(-this.ringSize)) {
      const parsed = RequestLogEntry.safeParse(t.raw);
      if (parsed.success) this.ring.push({ seq: t.seq, entry: Object.freeze(parsed.data) });
    }
    this.lastPruneDay = oldestDay;
    try {
      const file = logFilePath(this.dir, 0);
      const st = await fsp.stat(file);
      this.currentSize = st.size;
      if (st.size > 0) {
        const fh = await fsp.open(file, "r");
        try {
          const last = Buffer.alloc(1);
          await fh.read(last, 0, 1, st.size - 1);
          // A crash mid-write can leave a partial line; start the next write on a fresh line.
          this.needsNewline = last[0] !== 10;
        } finally {
          await fh.close();
        }
      }
    } catch {
      this.currentSize = 0;
    }
  }

  private async scanFile(file: string, oldestDay: string, tail: { seq: number; raw: unknown }[]): Promise<void> {
    await fsp.access(file);
    const rl = readline.createInterface({ input: createReadStream(file, { encoding: "utf8" }), crlfDelay: Infinity });
    for await (const line of rl) {
      const seq = seqOfLine(line);
      if (seq === null) continue;
      if (seq > this.seq) this.seq = seq;
      let raw: unknown;
      try {
        raw = JSON.parse(line);
      } catch {
        continue;
      }
      const facts = usageFacts(raw);
      if (facts && localDay(facts.time) >= oldestDay) this.book.add(facts);
      tail.push({ seq, raw });
      if (tail.length > this.ringSize * 2) tail.splice(0, tail.length - this.ringSize);
    }
  }

  append(entry: RequestLogEntry): void {
    try {
      const redacted = Object.freeze(
        redactEntry(entry, { maxBodyStringChars: this.maxBodyStringChars, secrets: this.secrets() }),
      );
      const stored: Stored = { seq: ++this.seq, entry: redacted };
      this.ring.push(stored);
      if (this.ring.length > this.ringSize) this.ring.splice(0, this.ring.length - this.ringSize);
      this.count(redacted);
      for (const listener of [...this.listeners]) {
        try {
          listener(redacted);
        } catch {
          // One broken subscriber must not affect the request or the others.
        }
      }
      this.enqueue(`${JSON.stringify({ seq: stored.seq, ...redacted })}\n`);
    } catch (err) {
      this.error = `Could not record a request: ${err instanceof Error ? err.message : String(err)}`;
    }
  }

  private count(e: RequestLogEntry): void {
    this.sessionRequests++;
    if (isErrorStatus(e.status)) this.sessionErrors++;
    this.book.add(e);
    const now = this.clock();
    const oldest = this.book.oldestDay(now);
    if (oldest !== this.lastPruneDay) {
      this.lastPruneDay = oldest;
      this.book.prune(now);
    }
  }

  private enqueue(line: string): void {
    if (this.closed) return;
    this.pending.push(line);
    if (this.pending.length > MAX_PENDING_LINES) {
      this.dropped += this.pending.length - MAX_PENDING_LINES;
      this.pending.splice(0, this.pending.length - MAX_PENDING_LINES);
    }
    if (!this.flushTimer && !this.flushing) {
      this.flushTimer = setTimeout(() => void this.flush(), this.flushDelayMs);
      this.flushTimer.unref();
    }
  }

  /** Writes everything pending; one writer at a time. */
  private flush(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (this.flushing) return this.flushing.then(() => this.flush());
    if (this.pending.length === 0) return Promise.resolve();
    this.flushing = this.writePending().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async writePending(): Promise<void> {
    while (this.pending.length > 0) {
      const lines = this.pending;
      this.pending = [];
      let written = 0;
      const file = logFilePath(this.dir, 0);
      try {
        await fsp.mkdir(this.dir, { recursive: true, mode: 0o700 });
        // Lines go out in groups that fit the current file; a file is rotated before the line that would overflow
        // it, so a burst (or one huge line) can exceed the cap by at most one line.
        while (written < lines.length) {
          let bytes = 0;
          let end = written;
          for (; end < lines.length; end++) {
            const next = Buffer.byteLength(lines[end] as string);
            if (this.currentSize + bytes > 0 && this.currentSize + bytes + next > this.maxFileBytes) break;
            bytes += next;
          }
          if (end === written) {
            await this.rotate();
            continue;
          }
          let chunk = lines.slice(written, end).join("");
          if (this.needsNewline) chunk = `\n${chunk}`;
          await fsp.appendFile(file, chunk, { mode: 0o600 });
          this.currentSize += Buffer.byteLength(chunk);
          this.needsNewline = false;
          written = end;
        }
        this.error =
          this.dropped > 0 ? `${this.dropped} request log entries were dropped while the disk was unavailable.` : null;
        this.dropped = 0;
      } catch (err) {
        this.dropped += lines.length - written;
        this.error = `Could not write ${file}: ${describeFsError(err)}; ${this.dropped} entries were not saved.`;
      }
    }
  }

  /** requests.jsonl → requests.1.jsonl → … ; the oldest file is deleted. */
  private async rotate(): Promise<void> {
    await fsp.rm(logFilePath(this.dir, this.maxFiles - 1), { force: true });
    for (let i = this.maxFiles - 2; i >= 0; i--) {
      await fsp.rename(logFilePath(this.dir, i), logFilePath(this.dir, i + 1)).catch((err: unknown) => {
        if ((err as { code?: string }).code !== "ENOENT") throw err;
      });
    }
    this.currentSize = 0;
    this.needsNewline = false;
  }

  query(q: LogQuery, appNamed: AppNamed): LogPage {
    const matches = queryMatcher(q, appNamed);
    const limit = Math.max(1, Math.min(500, Math.floor(q.limit ?? 50)));
    const before = q.cursor ? decodeCursor(q.cursor) : Infinity;
    const since = q.since ?? -Infinity;
    const tooOld = (e: RequestLogEntry): boolean => e.time < since - ORDER_SLACK_MS;

    const out: Stored[] = [];
    let exhausted = false;
    for (let i = this.ring.length - 1; i >= 0 && out.length <= limit; i--) {
      const s = this.ring[i] as Stored;
      if (s.seq >= before) continue;
      if (tooOld(s.entry)) {
        exhausted = true;
        break;
      }
      if (matches(s.entry)) out.push(s);
    }
    let lastScanned: number | null = null;
    if (!exhausted && out.length <= limit) {
      const boundary = Math.min(before, this.ring[0]?.seq ?? Infinity);
      let budget = this.queryBudgetBytes;
      scan: for (let i = 0; i < this.maxFiles; i++) {
        for (const line of linesBefore(logFilePath(this.dir, i), boundary, (n) => (budget -= n))) {
          const s = parseLine(line);
          if (!s || s.seq >= boundary) continue;
          lastScanned = s.seq;
          if (tooOld(s.entry)) {
            exhausted = true;
            break scan;
          }
          if (matches(s.entry)) out.push(s);
          if (out.length > limit) break scan;
          if (budget <= 0) break scan;
        }
      }
      // Out of budget before the page filled: hand back a cursor so the client can continue from there.
      if (out.length <= limit && budget <= 0 && lastScanned !== null && !exhausted) {
        return { entries: out.map((s) => s.entry), nextCursor: encodeCursor(lastScanned) };
      }
    }
    const page = out.slice(0, limit);
    const last = page[page.length - 1];
    return {
      entries: page.map((s) => s.entry),
      nextCursor: out.length > limit && last ? encodeCursor(last.seq) : null,
    };
  }

  recent(n: number): RequestLogEntry[] {
    const count = Math.max(0, Math.floor(n));
    return count === 0 ? [] : this.ring.slice(-count).map((s) => s.entry);
  }

  subscribe(listener: (e: RequestLogEntry) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  usage(app: LogOwner, days: number): DailyUsage[] {
    return this.book.usage(app, days, this.clock());
  }

  /** `requests`/`errors` count this run; `requestsToday`/`errorsToday` the local day, including earlier runs. */
  totals(): ReturnType<RequestLog["totals"]> {
    const today = this.book.today(this.clock());
    return {
      requests: this.sessionRequests,
      errors: this.sessionErrors,
      requestsToday: today.requests,
      errorsToday: today.errors,
    };
  }

  lastError(): string | null {
    return this.error;
  }

  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
  }
}
