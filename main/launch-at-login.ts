// Launch at login, started hidden in the tray: macOS/Windows through Electron's login item settings, Linux through
// an XDG autostart entry (~/.config/autostart/patchbay.desktop). The Linux part is plain Node; no Electron import here.
import { readFile, rm, mkdir } from "node:fs/promises";
import path from "node:path";
import writeFileAtomic from "write-file-atomic";

/** Command-line flag that makes Patchbay start hidden in the tray (passed by the login item / autostart entry). */
export const HIDDEN_ARG = "--hidden";

/** Reads and changes the OS's launch-at-login state (the OS is the source of truth: users edit it there too). */
export interface LaunchAtLogin {
  isEnabled(): Promise<boolean>;
  setEnabled(enabled: boolean): Promise<void>;
}

/** Electron's login item API, reduced (see ElectronPorts.getLoginItem/setLoginItem). */
export interface LoginItemApi {
  getLoginItem(args: string[]): { openAtLogin: boolean };
  setLoginItem(settings: { openAtLogin: boolean; args: string[] }): void;
}

export interface LaunchAtLoginDeps {
  platform: NodeJS.Platform;
  loginItems: LoginItemApi;
  /** Linux: the command that starts Patchbay (AppImage path, or the installed binary; in development electron + app dir). */
  command: string[];
  /** Linux: environment for locating the autostart folder (HOME, XDG_CONFIG_HOME). */
  env: Record<string, string | undefined>;
}

/** Picks the platform's mechanism. */
export function createLaunchAtLogin(deps: LaunchAtLoginDeps): LaunchAtLogin {
  if (deps.platform === "darwin" || deps.platform === "win32") return loginItemLaunchAtLogin(deps.loginItems);
  return new XdgAutostart(autostartFile(deps.env), deps.command);
}

function loginItemLaunchAtLogin(api: LoginItemApi): LaunchAtLogin {
  return {
    isEnabled: async () => api.getLoginItem([HIDDEN_ARG]).openAtLogin,
    setEnabled: async (enabled) => api.setLoginItem({ openAtLogin: enabled, args: [HIDDEN_ARG] }),
  };
}

/**
 * `$XDG_CONFIG_HOME/autostart/patchbay.desktop`, XDG_CONFIG_HOME defaulting to `~/.config` (a relative value is
 * invalid per the XDG Base Directory spec and ignored). Throws if neither HOME nor XDG_CONFIG_HOME is usable.
 */
export function autostartFile(env: Record<string, string | undefined>): string {
  const xdg = env.XDG_CONFIG_HOME;
  const configHome = xdg && path.isAbsolute(xdg) ? xdg : env.HOME ? path.join(env.HOME, ".config") : null;
  if (!configHome) throw new Error("Cannot locate the autostart folder: neither XDG_CONFIG_HOME nor HOME is set.");
  return path.join(configHome, "autostart", "patchbay.desktop");
}

/** Linux launch at login through an XDG autostart desktop entry. */
export class XdgAutostart implements LaunchAtLogin {
  constructor(
    readonly file: string,
    private readonly command: string[],
  ) {}

  async isEnabled(): Promise<boolean> {
    let text: string;
    try {
      text = await readFile(this.file, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw err;
    }
    // Desktop environments disable an entry in place rather than deleting it.
    return !/^Hidden\s*=\s*true\s*$/m.test(text) && !/^X-GNOME-Autostart-enabled\s*=\s*false\s*$/m.test(text);
  }

  async setEnabled(enabled: boolean): Promise<void> {
    if (!enabled) {
      await rm(this.file, { force: true });
      return;
    }
    await mkdir(path.dirname(this.file), { recursive: true });
    await writeFileAtomic(this.file, autostartEntry([...this.command, HIDDEN_ARG]), { mode: 0o644 });
  }
}

/** The autostart desktop entry text for a command (Desktop Entry Specification 1.5). */
export function autostartEntry(command: string[]): string {
  if (command.length === 0) throw new Error("autostartEntry: empty command");
  return [
    "[Desktop Entry]",
    "Type=Application",
    "Name=Patchbay",
    "Comment=Local OpenAI-compatible API for your OpenCode logins",
    `Exec=${command.map(quoteExecArg).join(" ")}`,
    "Icon=patchbay",
    "Terminal=false",
    "Categories=Development;",
    "X-GNOME-Autostart-enabled=true",
    "",
  ].join("\n");
}

/**
 * Quotes one Exec argument per the Desktop Entry spec: `%` doubled (field codes), arguments with reserved characters
 * double-quoted with `"`, `` ` ``, `$`, `\` backslash-escaped; then the string-value escaping doubles backslashes again.
 */
export function quoteExecArg(arg: string): string {
  if (/[\n\r]/.test(arg)) throw new Error("A launch command argument cannot contain a line break.");
  let s = arg.replace(/%/g, "%%");
  if (s === "" || /[\s"'\\><~|&;$*?#()`]/.test(s)) s = `"${s.replace(/["`$\\]/g, "\\$&")}"`;
  return s.replace(/\\/g, "\\\\");
}

/**
 * The command the Linux autostart entry runs: the AppImage file when running from one (its mount point changes every
 * run), the installed executable when packaged, else (development) the Electron binary plus the app folder.
 */
export function launchCommand(opts: {
  isPackaged: boolean;
  execPath: string;
  appPath: string;
  env: Record<string, string | undefined>;
}): string[] {
  if (opts.env.APPIMAGE) return [opts.env.APPIMAGE];
  return opts.isPackaged ? [opts.execPath] : [opts.execPath, opts.appPath];
}
