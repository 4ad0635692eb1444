// `npm start`'s decision, desktop (Electron) or headless server, as pure functions; start.mjs does the I/O.
// Types: launch-mode.d.mts.
import { createRequire } from "node:module";

/**
 * Desktop when the Electron binary is installed and a display exists (DISPLAY/WAYLAND_DISPLAY on Linux and other
 * X11/Wayland systems; macOS and Windows always have one); otherwise headless with a one-line reason.
 * `PATCHBAY_HEADLESS=1` forces headless.
 */
export function decideLaunchMode({ platform, env, electronBinary, exists, nodeVersion = process.versions.node }) {
  if (env.PATCHBAY_HEADLESS && env.PATCHBAY_HEADLESS !== "0") {
    return { mode: "headless", reason: "PATCHBAY_HEADLESS is set" };
  }
  if (!electronBinary && !nodeAtLeast(nodeVersion, ELECTRON_MIN_NODE)) {
    // npm skips an optional dependency whose `engines` the running Node does not meet (Electron ≥ 42 needs 22.12).
    return {
      mode: "headless",
      reason: `Electron needs Node.js ${ELECTRON_MIN_NODE.join(".")} or later to install (this is Node.js ${nodeVersion}), so npm skipped it`,
    };
  }
  if (!electronBinary) {
    return { mode: "headless", reason: "Electron binary not installed (its download failed or was skipped)" };
  }
  if (!exists(electronBinary)) {
    return { mode: "headless", reason: `Electron binary missing at ${electronBinary}` };
  }
  if (platform !== "darwin" && platform !== "win32" && !env.DISPLAY && !env.WAYLAND_DISPLAY) {
    return { mode: "headless", reason: "no display (neither DISPLAY nor WAYLAND_DISPLAY is set)" };
  }
  return { mode: "desktop", electronBinary };
}

/** The oldest Node.js the `electron` npm package installs on (its `engines.node`, Electron 42 and later). */
export const ELECTRON_MIN_NODE = [22, 12, 0];

/** Whether dotted `version` (e.g. "20.20.2") is at least `[major, minor, patch]`. */
export function nodeAtLeast(version, min) {
  const parts = version.split(".").map((n) => Number.parseInt(n, 10) || 0);
  for (let i = 0; i < 3; i++) {
    if ((parts[i] ?? 0) !== min[i]) return (parts[i] ?? 0) > min[i];
  }
  return true;
}

/** The one line printed when falling back to headless mode. */
export function fallbackLine(reason) {
  return `Patchbay: ${reason} — starting headless server instead.`;
}

/**
 * The Electron executable path as the `electron` package reports it, or null when the package is absent or its
 * binary was never downloaded (its index.js throws then).
 */
export function findElectronBinary(fromUrl = import.meta.url) {
  try {
    const p = createRequire(fromUrl)("electron");
    return typeof p === "string" && p ? p : null;
  } catch {
    return null;
  }
}

/**
 * Whether a signal received by start.mjs must be passed on to its child. A terminal's Ctrl-C already reaches the
 * whole foreground process group, child included; forwarding it too would make the child see two SIGINTs (which
 * servers commonly treat as "force quit").
 */
export function shouldForwardSignal(signal, stdinIsTTY) {
  return !(signal === "SIGINT" && stdinIsTTY);
}
