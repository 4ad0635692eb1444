// The options of OpenCodeSupervisor (supervisor.ts): where the home goes, the user's files, the side channel, and
// the timings of start-up, restart backoff and the health probe.
import type { SideChannelEndpoint } from "../protocol/side-channel";

/** Options of {@link OpenCodeSupervisor}. Only `dataDir`, `user` and `sideChannel` are required. */
export interface OpenCodeSupervisorOptions {
  /** Patchbay's data folder; OpenCode's home goes to `<dataDir>/opencode/`. */
  dataDir: string;
  /** The user's OpenCode files (auth.json linked, provider sections of opencode.json taken). */
  user: { authFile: string | null; configFile: string | null };
  /** Provider blocks Patchbay adds (e.g. `demoProviderConfig(url)`). */
  extraProviders?: Record<string, unknown>;
  /** Where the plugin reads specs: a started endpoint (`{url, token}`), or a SideChannel (started idempotently
   *  before each spawn). */
  sideChannel: SideChannelEndpoint | { start(): Promise<SideChannelEndpoint> };
  /** Path of the `opencode` binary (default: PATCHBAY_OPENCODE_BIN, then the pinned opencode-ai package). */
  binaryPath?: string;
  /** Diagnostic sink, one line per call (OpenCode's own output is forwarded prefixed `[opencode]`). */
  log?: (line: string) => void;
  /** Environment the child's passthrough variables come from (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Let OpenCode fetch models.dev at startup (default false: bundled snapshot, no network). */
  modelsFetch?: boolean;
  /** Max wait for the listening line + health, ms (default 60 000). */
  startupTimeoutMs?: number;
  /** Restart backoff, ms (default 500 → 30 000, doubling). */
  backoff?: { initialMs: number; maxMs: number };
  /** Consecutive failed startups before `failed` (default 3); then retried after `failedRetry`. */
  maxStartupFailures?: number;
  /** Backoff of the retries after `failed`, ms (default 5 000 → 300 000, doubling; retry-policy.ts). */
  failedRetry?: { initialMs: number; maxMs: number };
  /** How long `whenReady()` waits for a wake from sleep, at least, ms (default 60 000). */
  wakeWaitMs?: number;
  /** Health probe period while ready, ms (default 5 000). */
  healthIntervalMs?: number;
  /** True when no request needs OpenCode now (e.g. none for a minute): probes then run only every
   *  `idleHealthIntervalMs`, since a wedge matters once a request comes, and the probe is most of an idle tray app's
   *  CPU. Default: never idle. */
  isIdle?: () => boolean;
  /** Health probe period while `isIdle()`, ms (default 60 000). */
  idleHealthIntervalMs?: number;
  /** Health probe timeout, ms (default 3 000). */
  healthTimeoutMs?: number;
  /** Missed probes in a row that mean "wedged" (port open, not answering) when the process is also not working
   *  (stopped, or no CPU progress; see wedge-policy.ts): killed and restarted (default 2; a process that keeps
   *  burning CPU gets 10 more). Worst case from freeze to kill: interval × misses + timeout = 13 s with the defaults
   *  (≈ 63 s for a process that spins without answering). */
  healthMisses?: number;
  /** Companion plugin source to copy into the home (default: the shipped one). */
  pluginSource?: string;
}
