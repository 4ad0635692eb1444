// The types every wire shares with the model-request runner: a decoded request, its encoder, and the runner's deps.
import type { ModelBackend, ModelInfo, ModelEvent, NeutralRequest, PatchbayWarning } from "../../core/contract";
import type { ConcurrencyGate } from "../../core/concurrency";
import type { PatchbayError } from "../../core/errors";
import type { SseFrame } from "../../core/sse-frame";
import type { RequestLog } from "../../stores/types";
import type { BudgetGuard } from "../../budgets/budget-guard";
import type { Cooldowns } from "../../routing/cooldowns";
import type { StreamBufferLimits } from "../sse-writer";
import type { RunRegistry } from "./run-registry";
import type { FinishedRequest } from "../../conversations/record-request";
import type { CliCommand } from "../../core/cli-command";

/**
 * A wire encoder: one state machine that yields stream frames and the final JSON body (they never disagree). It owns
 * the run's terminal state: the runner keeps no copy of "finished" or "failed".
 */
export interface WireEncoder {
  /** Feeds one neutral event; returns the frames to write now (none after the terminal event). */
  push(event: ModelEvent): SseFrame[];
  /** Closes the stream: nothing after a terminal event; a run that never finished becomes a failure (its frames). */
  end(): SseFrame[];
  /** The non-stream JSON body. @throws PatchbayError when the run failed or did not finish. */
  body(): unknown;
  /** The run's failure (an `error` event, or `end()` before `finish`), else null. */
  readonly failure: PatchbayError | null;
  /** Optional: keeps the finished response (stored Responses). The runner awaits it once the encoder reached its
   *  terminal state and before the terminal frames or the JSON body are sent, so a client can refer to the response
   *  as soon as it sees it. `sessionId` is the OpenCode session of the run (null when none started). Returns the
   *  stored id (for the log entry), or null; never throws; idempotent. It may amend the frames of the terminal event
   *  it follows (already returned by `push`/`end`, not yet sent), e.g. to say `store: false` when the write failed. */
  persist?(sessionId: string | null): Promise<string | null>;
  /** Optional: set once `persist` failed (the answer then says `store: false`; the warning says why). */
  readonly storeWarning?: PatchbayWarning | null;
}

/** A decoded request of some wire plus the factory of its encoder. */
export interface DecodedWireRequest {
  request: NeutralRequest;
  /** `model` is the id echoed to the client (what it asked for). */
  createEncoder(model: string): WireEncoder;
  /** Raw SSE text sent as a keepalive while the model is silent (default: a `: keepalive` comment). */
  keepalive?: string;
}

/** What the runner needs; built once in the composition root. */
export interface ModelRequestDeps {
  backend: ModelBackend;
  /** The connected models (cached: the one model list of a request). */
  catalog: () => Promise<ModelInfo[]>;
  gate: ConcurrencyGate;
  requestLog: RequestLog;
  logBodies: () => boolean;
  /** Inlines http(s) images (SSRF-guarded) or refuses them when the app does not allow remote images; `signal`
   *  aborts pending fetches when the client leaves. */
  inlineImages: (request: NeutralRequest, allowed: boolean, signal?: AbortSignal) => Promise<NeutralRequest>;
  /** How a message to an API client names a Patchbay command: by name only (core/cli-command.ts bareCli); an API
   *  client may be on another machine, and this one's paths and data folder are none of its business. */
  cli: CliCommand;
  now: () => number;
  /** After a request used a session of `app` (history sweeps hook in here). */
  afterRequest?: (app: string) => void;
  /** After a request used a session: records its conversation, arrival time and carried tool results
   *  (server/conversations/record-request.ts). Never throws. */
  recordRequest?: (r: FinishedRequest) => Promise<void>;
  /** Hold before committing a stream's headers when no token came yet (ms); default 1000. */
  commitAfterMs?: number;
  /** Keepalive comment interval (ms); default 15 000. */
  keepaliveMs?: number;
  /** Per-app budgets (none: no budget is enforced or reported). */
  budgets?: BudgetGuard;
  /** Models refused with a retry time, skipped by fallback chains (none: a fresh registry per request). */
  cooldowns?: Cooldowns;
  /** Buffer limits of streams for a client that stops reading (tests shrink them). */
  streamBuffer?: Partial<StreamBufferLimits>;
  /** Runs in flight, so deleting an app or revoking a key can end them (server/app-retirement.ts). */
  runs?: RunRegistry;
}
