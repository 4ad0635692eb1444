// Types of launch-mode.mjs (npm start's desktop/headless decision).

export type LaunchMode = { mode: "desktop"; electronBinary: string } | { mode: "headless"; reason: string };

export function decideLaunchMode(input: {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  /** What `require("electron")` returned, or null when it threw / the package is missing. */
  electronBinary: string | null;
  exists: (path: string) => boolean;
  /** The running Node.js version (default: process.versions.node). */
  nodeVersion?: string;
}): LaunchMode;

/** The oldest Node.js the `electron` npm package installs on, as [major, minor, patch]. */
export const ELECTRON_MIN_NODE: [number, number, number];

export function nodeAtLeast(version: string, min: readonly number[]): boolean;

export function fallbackLine(reason: string): string;

export function findElectronBinary(fromUrl?: string): string | null;

export function shouldForwardSignal(signal: NodeJS.Signals, stdinIsTTY: boolean): boolean;
