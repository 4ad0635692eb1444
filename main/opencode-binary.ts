// Where the packaged app finds the pinned `opencode` binary. electron-builder.yml copies the platform package's
// binary (node_modules/opencode-<os>-<arch>/bin/) to <resources>/opencode/<os>-<arch>/; this module only computes paths.
import path from "node:path";

/** opencode-ai's platform package naming: `darwin` | `linux` | `windows`. */
export function opencodeOsName(platform: NodeJS.Platform): string {
  return platform === "win32" ? "windows" : platform;
}

/** `<resourcesPath>/opencode/<os>-<arch>/opencode[.exe]` (the layout electron-builder.yml produces). */
export function packagedOpencodeBinary(opts: {
  resourcesPath: string;
  platform: NodeJS.Platform;
  arch: string;
}): string {
  const exe = opts.platform === "win32" ? "opencode.exe" : "opencode";
  const join = opts.platform === "win32" ? path.win32.join : path.posix.join;
  return join(opts.resourcesPath, "opencode", `${opencodeOsName(opts.platform)}-${opts.arch}`, exe);
}

/**
 * The `opencodeBinary` to pass to createPatchbay: the bundled binary in a packaged app; undefined in development or
 * when PATCHBAY_OPENCODE_BIN is set, so the server's own default (the pinned npm package, or that variable) applies.
 * A missing file is not checked here on purpose: the server then reports exactly which path it could not start.
 */
export function resolveOpencodeBinary(opts: {
  isPackaged: boolean;
  resourcesPath: string;
  platform: NodeJS.Platform;
  arch: string;
  env: Record<string, string | undefined>;
}): string | undefined {
  if (opts.env.PATCHBAY_OPENCODE_BIN) return undefined;
  if (!opts.isPackaged) return undefined;
  return packagedOpencodeBinary(opts);
}
