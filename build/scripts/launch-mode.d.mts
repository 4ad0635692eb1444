// Types of launch-mode.mjs (npm start's desktop/headless decision).

export type LaunchMode = { mode: "desktop"; electronBinary: string } | { mode: "headless"; reason: string };

export function decideLaunchMode(input: {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  /** What `require("electron")` returned, or null when it threw / the package is missing. */
  electronBinary: string | null;
  exists: (path: string) => boolean;
}): LaunchMode;

export function fallbackLine(reason: string): string;

export function findElectronBinary(fromUrl?: string): string | null;

export function shouldForwardSignal(signal: NodeJS.Signals, stdinIsTTY: boolean): boolean;
