// Benchmark measuring helpers: a streaming HTTP client that timestamps the first token and the end of a stream,
// a bounded-concurrency runner, percentiles, and process CPU readings from /proc. No Patchbay code here.
import fs from "node:fs";
import { createParser } from "eventsource-parser";

/** One measured request: ms from the start to the first token and to the end; `tokens` = content frames seen. */
export interface Sample {
  ttftMs: number;
  totalMs: number;
  tokens: number;
}

/** How to read one SSE stream: which frame is a token, which one ends it. */
export interface StreamShape {
  isToken(event: string | undefined, data: string): boolean;
  isEnd(event: string | undefined, data: string): boolean;
}

/** Chat completions chunks (the mock and Patchbay chat): a token is a chunk with `delta.content`; the end is `[DONE]`. */
export const CHAT_STREAM: StreamShape = {
  isToken: (_e, d) => d.startsWith("{") && d.includes('"content":"') && !d.includes('"content":""'),
  isEnd: (_e, d) => d === "[DONE]",
};

/** Responses events: a token is `response.output_text.delta`; the end is `response.completed`. */
export const RESPONSES_STREAM: StreamShape = {
  isToken: (e) => e === "response.output_text.delta",
  isEnd: (e) => e === "response.completed",
};

/** POSTs `body` and reads the SSE answer to its end. Throws on a non-200 status or a stream without its end frame. */
export async function timedStream(
  url: string,
  body: unknown,
  headers: Record<string, string>,
  shape: StreamShape,
): Promise<Sample> {
  const t0 = performance.now();
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  if (res.status !== 200 || !res.body)
    throw new Error(`${url} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  let ttft = -1;
  let tokens = 0;
  let ended = false;
  let failure: string | null = null;
  const parser = createParser({
    onEvent: (ev) => {
      if (shape.isToken(ev.event, ev.data)) {
        tokens++;
        if (ttft < 0) ttft = performance.now() - t0;
      }
      if (shape.isEnd(ev.event, ev.data)) ended = true;
      if (ev.data.startsWith('{"error"') || ev.event === "response.failed") failure = ev.data.slice(0, 300);
    },
  });
  const decoder = new TextDecoder();
  const reader = res.body.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  const total = performance.now() - t0;
  if (failure) throw new Error(`${url}: in-band error ${failure}`);
  if (!ended) throw new Error(`${url}: the stream ended without its final frame`);
  return { ttftMs: ttft < 0 ? total : ttft, totalMs: total, tokens };
}

/** POSTs `body` and reads the whole JSON answer (first token = completion). Throws on a non-200 status. */
export async function timedJson(url: string, body: unknown, headers: Record<string, string>): Promise<Sample> {
  const t0 = performance.now();
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${text.slice(0, 300)}`);
  const total = performance.now() - t0;
  return { ttftMs: total, totalMs: total, tokens: 0 };
}

/** Runs `count` calls of `fn` with at most `concurrency` in flight; returns the samples in completion order. */
export async function runConcurrent(
  count: number,
  concurrency: number,
  fn: (i: number) => Promise<Sample>,
): Promise<Sample[]> {
  const out: Sample[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      out.push(await fn(i));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return out;
}

/** The p-th percentile (0–100) of `values` (nearest rank). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** p50/p90 of time to first token and to completion. */
export interface CellStats {
  ttft: { p50: number; p90: number };
  total: { p50: number; p90: number };
  n: number;
}

export function stats(samples: readonly Sample[]): CellStats {
  const ttft = samples.map((s) => s.ttftMs);
  const total = samples.map((s) => s.totalMs);
  return {
    ttft: { p50: percentile(ttft, 50), p90: percentile(ttft, 90) },
    total: { p50: percentile(total, 50), p90: percentile(total, 90) },
    n: samples.length,
  };
}

/** CPU time (user + system) of a process from /proc, in ms; null where /proc is missing (not Linux) or it is gone. */
export function procCpuMs(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "latin1");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime (fields 14 and 15)
    return (ticks * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/** Resident memory of a process from /proc, in bytes; null when unavailable. */
export function procRssBytes(pid: number): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "latin1");
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : null;
  } catch {
    return null;
  }
}

/** USER_HZ: 100 on every mainstream Linux build. */
const CLOCK_TICKS = 100;

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
