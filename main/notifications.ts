// Which desktop notifications a status change deserves: a pure decision over (previous status, next status).
// It never shows anything itself; the shell passes the result to Electron's Notification.
import type { PatchbayStatus } from "../shared/status";

export interface DesktopNotification {
  title: string;
  body: string;
}

/** Decision state carried between calls (explicit, so the function stays pure). */
export interface NotificationState {
  /** Whether the user was told OpenCode failed and not yet that it recovered. */
  openCodeFailureShown: boolean;
  /** The API error already notified (so repeated status events with the same error stay quiet). */
  apiErrorShown: string | null;
}

export const INITIAL_NOTIFICATION_STATE: NotificationState = { openCodeFailureShown: false, apiErrorShown: null };

/**
 * Notifications for a status transition: OpenCode failed to start / recovered; the API stopped because its port is
 * taken (naming the port) or for another reason. `prev` is null for the first status seen after launch.
 */
export function decideNotifications(
  state: NotificationState,
  prev: PatchbayStatus | null,
  next: PatchbayStatus,
): { state: NotificationState; notifications: DesktopNotification[] } {
  const notifications: DesktopNotification[] = [];
  let { openCodeFailureShown, apiErrorShown } = state;

  const oc = next.opencode;
  if (oc.state === "failed" && !openCodeFailureShown) {
    const wasRunning = prev?.opencode.state === "ready";
    notifications.push({
      title: wasRunning ? "OpenCode stopped working" : "OpenCode failed to start",
      body: `${oc.reason ?? "Unknown reason."} The API answers 503 until it is back; see the dashboard for details.`,
    });
    openCodeFailureShown = true;
  } else if (oc.state === "ready" && openCodeFailureShown) {
    notifications.push({ title: "OpenCode recovered", body: "Patchbay's API is serving requests again." });
    openCodeFailureShown = false;
  } else if (oc.state === "stopped") {
    // Stopped on purpose (quit, restart from settings): nothing to report, and nothing to "recover" from later.
    openCodeFailureShown = false;
  }

  const apiError = next.api.running ? null : next.api.error;
  if (apiError !== null && apiError !== apiErrorShown) {
    const port = portInUse(apiError, next.api.port);
    notifications.push(
      port !== null
        ? {
            title: "Patchbay API stopped",
            body: `Port ${port} is already in use by another program. Choose another port in Settings, then start the API.`,
          }
        : { title: "Patchbay API stopped", body: apiError },
    );
  }
  apiErrorShown = apiError;

  return { state: { openCodeFailureShown, apiErrorShown }, notifications };
}

/** The port named by a "port taken" error (EADDRINUSE / "in use"), else null. */
export function portInUse(error: string, configuredPort: number): number | null {
  if (!/EADDRINUSE|in use|already used|taken/i.test(error)) return null;
  const m = /port\s+(\d{1,5})/i.exec(error) ?? /:(\d{1,5})\b/.exec(error);
  return m?.[1] ? Number(m[1]) : configuredPort;
}

/** Shown once, the first time the window is closed: Patchbay keeps running in the tray. */
export const STILL_RUNNING_NOTIFICATION: DesktopNotification = {
  title: "Patchbay is still running",
  body: "The API keeps serving in the background. Use the tray icon to open the dashboard or quit.",
};
