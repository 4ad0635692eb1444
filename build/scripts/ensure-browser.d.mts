// Types of ensure-browser.mjs (the dashboard tests' Chromium finder).

export const SYSTEM_CANDIDATES: string[];

/** Runs an installer step with its stdout and stderr on our stderr; true when it exited 0 within `timeoutMs`. */
export function runQuietly(cmd: string, args: string[], timeoutMs: number, env?: NodeJS.ProcessEnv): boolean;

export interface BrowserInstaller {
  name: string;
  /** Installs; true on success. Must not write to stdout. */
  run: () => boolean;
  /** Where the browser may be after `run`. */
  paths: () => Promise<(string | null)[]>;
}

export interface FindOptions {
  override?: string;
  candidates?: string[];
  cachedPath?: () => Promise<string | null>;
  installers?: BrowserInstaller[];
}

export function findChromium(options?: FindOptions): Promise<string | null>;

/** Prints the path as stdout's only line, or explains on stderr and sets exit code 1. */
export function main(options?: FindOptions): Promise<void>;
