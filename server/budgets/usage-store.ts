// Durable budget counting: every admitted request and every finished request's tokens, per app id, as JSON lines in
// `<dataDir>/budget-usage.jsonl`. Appends are serialized; the file is rewritten atomically (only uses still inside
// the longest window) when opened and after every few thousand appends, so it stays small. One writer: the server.
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import writeFileAtomic from "write-file-atomic";
import { BUDGET_WINDOWS } from "../../shared/routing";
import type { UsageRecord } from "./policy";

/** File name inside the data folder. */
export const BUDGET_USAGE_FILE = "budget-usage.jsonl";

/** The longest window: older uses never count again. */
const KEEP_MS = Math.max(...Object.values(BUDGET_WINDOWS));
const COMPACT_EVERY = 5000;

/** Recorded uses per app id. */
export interface BudgetUsageStore {
  /** The app's uses inside the longest window, oldest first. */
  uses(appId: string): readonly UsageRecord[];
  /** Counts one request (at admission, so concurrent requests cannot overrun a request budget). */
  recordRequest(appId: string, t: number): void;
  /** Counts a finished request's tokens (input + output). Zero is not recorded. */
  recordTokens(appId: string, t: number, tokens: number): void;
  /** Last write error (disk full…), else null; counting in memory goes on. */
  lastError(): string | null;
  /** Waits for pending writes. */
  close(): Promise<void>;
}

interface Line {
  a: string;
  t: number;
  r?: number;
  k?: number;
}

/** Reads the uses recorded in `dataDir` (missing file: none). Torn or foreign lines are skipped. */
export function readBudgetUsage(dataDir: string, now: number): Map<string, UsageRecord[]> {
  const byApp = new Map<string, UsageRecord[]>();
  let text = "";
  try {
    text = fs.readFileSync(path.join(dataDir, BUDGET_USAGE_FILE), "utf8");
  } catch {
    return byApp;
  }
  for (const raw of text.split("\n")) {
    if (raw.trim() === "") continue;
    let line: Partial<Line>;
    try {
      line = JSON.parse(raw) as Partial<Line>;
    } catch {
      continue;
    }
    if (typeof line.a !== "string" || typeof line.t !== "number" || !Number.isFinite(line.t)) continue;
    if (line.t <= now - KEEP_MS) continue;
    const rec = { t: line.t, requests: num(line.r), tokens: num(line.k) };
    if (rec.requests === 0 && rec.tokens === 0) continue;
    const list = byApp.get(line.a) ?? [];
    list.push(rec);
    byApp.set(line.a, list);
  }
  for (const list of byApp.values()) list.sort((x, y) => x.t - y.t);
  return byApp;
}

function num(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0;
}

/** Opens (and compacts) the usage file of `dataDir`. `clock` is epoch ms. */
export async function openBudgetUsage(opts: { dataDir: string; clock: () => number }): Promise<BudgetUsageStore> {
  const file = path.join(opts.dataDir, BUDGET_USAGE_FILE);
  const byApp = readBudgetUsage(opts.dataDir, opts.clock());
  let chain: Promise<void> = Promise.resolve();
  let appended = 0;
  let error: string | null = null;
  const run = (job: () => Promise<void>) => {
    chain = chain.then(job).then(
      () => {
        error = null;
      },
      (err: unknown) => {
        error = `Could not write ${file}: ${(err as Error).message}`;
      },
    );
  };
  const serialize = () => {
    const lines: string[] = [];
    for (const [a, list] of byApp)
      for (const u of list)
        lines.push(
          JSON.stringify({ a, t: u.t, ...(u.requests ? { r: u.requests } : {}), ...(u.tokens ? { k: u.tokens } : {}) }),
        );
    return lines.length ? `${lines.join("\n")}\n` : "";
  };
  const compact = () => run(() => writeFileAtomic(file, serialize(), { mode: 0o600, fsync: true }));
  compact();
  await chain;
  const add = (appId: string, rec: UsageRecord) => {
    const list = byApp.get(appId) ?? [];
    const cutoff = opts.clock() - KEEP_MS;
    while (list.length && list[0]!.t <= cutoff) list.shift();
    list.push(rec);
    byApp.set(appId, list);
    const line = JSON.stringify({
      a: appId,
      t: rec.t,
      ...(rec.requests ? { r: rec.requests } : {}),
      ...(rec.tokens ? { k: rec.tokens } : {}),
    });
    if (++appended % COMPACT_EVERY === 0) compact();
    else run(() => fsp.appendFile(file, `${line}\n`, { mode: 0o600 }));
  };
  return {
    uses: (appId) => {
      const cutoff = opts.clock() - KEEP_MS;
      return (byApp.get(appId) ?? []).filter((u) => u.t > cutoff);
    },
    recordRequest: (appId, t) => add(appId, { t, requests: 1, tokens: 0 }),
    recordTokens: (appId, t, tokens) => {
      if (tokens > 0) add(appId, { t, requests: 0, tokens: Math.floor(tokens) });
    },
    lastError: () => error,
    close: () => chain,
  };
}
