// The DesktopHost the server's dashboard endpoints call for native actions (open data folder, launch at login).
// Plain logic over injected functions; Electron's shell is passed in, never imported.
import type { DesktopHost } from "../server/index";
import type { LaunchAtLogin } from "./launch-at-login";

export interface DesktopHostDeps {
  dataDir: string;
  /** Electron's shell.openPath: resolves to an error message, or "" on success. */
  openPath(path: string): Promise<string>;
  launchAtLogin: LaunchAtLogin;
  /** Called after launch at login changed (so the tray's checkbox follows the dashboard's toggle). */
  onLaunchAtLoginChanged?(enabled: boolean): void;
}

/** Builds the DesktopHost. `openDataFolder` rejects with the OS's message when the folder cannot be opened. */
export function createDesktopHost(deps: DesktopHostDeps): DesktopHost {
  return {
    async openDataFolder() {
      const error = await deps.openPath(deps.dataDir);
      if (error) throw new Error(`Could not open ${deps.dataDir}: ${error}`);
    },
    getLaunchAtLogin: () => deps.launchAtLogin.isEnabled(),
    async setLaunchAtLogin(enabled: boolean) {
      await deps.launchAtLogin.setEnabled(enabled);
      deps.onLaunchAtLoginChanged?.(enabled);
    },
  };
}
