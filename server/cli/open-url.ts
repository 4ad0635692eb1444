// `dashboard --open`: hands a URL to the OS's browser opener (`open`, `xdg-open`, `start`) and reports whether that
// worked. On a headless machine it usually cannot: no desktop session, no opener, or an opener that exits with an
// error (xdg-open: 3 when it finds no browser). Each of these rejects with why, so the command can say so.
import { spawn } from "node:child_process";

/** How long the opener may take to say how it went (ms). `open` and `xdg-open` exit as soon as the browser has the
 *  URL; one still running after this is a browser it started in the foreground, so the URL did open. */
export const OPENER_WAIT_MS = 5_000;

/** The opener command for `platform`, or why there is none: on Linux and the BSDs a browser needs a desktop session
 *  (X11 `DISPLAY` or `WAYLAND_DISPLAY`) unless `BROWSER` names one (xdg-open's own override). */
export function browserOpener(
  url: string,
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
): { cmd: string; args: string[] } | { missing: string } {
  if (platform === "darwin") return { cmd: "open", args: [url] };
  if (platform === "win32") return { cmd: "cmd", args: ["/c", "start", '""', url.replace(/&/g, "^&")] };
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY && !env.BROWSER)
    return { missing: "no desktop session here: DISPLAY and WAYLAND_DISPLAY are not set" };
  return { cmd: "xdg-open", args: [url] };
}

/**
 * Opens `url` with the OS's opener, found on `env.PATH`. Resolves once the opener exited with 0, or is still running
 * after {@link OPENER_WAIT_MS}; rejects with a one-line reason when there is no desktop session, the opener cannot
 * start (`xdg-open: spawn xdg-open ENOENT`) or it exits with an error (`xdg-open exited with 3`). Until then the
 * opener keeps this process alive, so a short-lived CLI hears how it went (unref'd from the start, it exited first
 * and a failure went unsaid).
 */
export function openWithOs(
  url: string,
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const opener = browserOpener(url, platform, env);
  if ("missing" in opener) return Promise.reject(new Error(opener.missing));
  const { cmd, args } = opener;
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: "ignore", detached: true, windowsHide: true, env });
    const settle = (err: Error | null): void => {
      clearTimeout(timer);
      child.removeAllListeners();
      child.unref();
      if (err) reject(err);
      else resolve();
    };
    const timer = setTimeout(() => settle(null), OPENER_WAIT_MS);
    child.once("error", (err) => settle(new Error(`${cmd}: ${err.message}`)));
    child.once("exit", (code, signal) =>
      settle(
        code === 0 ? null : new Error(`${cmd} ${code === null ? `was ended by ${signal}` : `exited with ${code}`}`),
      ),
    );
  });
}
