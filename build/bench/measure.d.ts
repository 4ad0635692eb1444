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
export declare const CHAT_STREAM: StreamShape;
/** Responses events: a token is `response.output_text.delta`; the end is `response.completed`. */
export declare const RESPONSES_STREAM: StreamShape;
/** POSTs `body` and reads the SSE answer to its end. Throws on a non-200 status or a stream without its end frame. */
export declare function timedStream(url: string, body: unknown, headers: Record<string, string>, shape: StreamShape): Promise<Sample>;
/** Runs `count` calls of `fn` with at most `concurrency` in flight; returns the samples in completion order. */
export declare function runConcurrent(count: number, concurrency: number, fn: (i: number) => Promise<Sample>): Promise<Sample[]>;
/** The p-th percentile (0–100) of `values` (nearest rank). */
export declare function percentile(values: readonly number[], p: number): number;
/** p50/p90 of time to first token and to completion. */
export interface CellStats {
    ttft: {
        p50: number;
        p90: number;
    };
    total: {
        p50: number;
        p90: number;
    };
    n: number;
}
export declare function stats(samples: readonly Sample[]): CellStats;
/** CPU time (user + system) of a process from /proc, in ms; null where /proc is missing (not Linux) or it is gone. */
export declare function procCpuMs(pid: number): number | null;
/** Resident memory of a process from /proc, in bytes; null when unavailable. */
export declare function procRssBytes(pid: number): number | null;
export declare function sleep(ms: number): Promise<void>;
