import type { Sample } from "./measure";
/** A started (b) target. */
export interface OpenCodeDirect {
    pid: number | null;
    /** One request: `text` is what the client sends; the mock decides the answer. */
    request(text: string): Promise<Sample>;
    stop(): Promise<void>;
}
/** Starts OpenCode for `dataDir` with the user config at `configFile`; resolves once the event stream is connected. */
export declare function startOpenCodeDirect(dataDir: string, configFile: string, modelId: string): Promise<OpenCodeDirect>;
