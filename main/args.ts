// Command-line flags the desktop app understands (the rest, e.g. Chromium switches, is ignored): pure parsing.
import { HIDDEN_ARG } from "./launch-at-login";

export interface ShellArgs {
  /** Start hidden in the tray (launch at login). */
  hidden: boolean;
  /** Start the built-in demo upstream (`npm start -- --demo`). */
  demo: boolean;
  /** Overrides Electron's userData as Patchbay's data folder (development). */
  dataDir: string | null;
  /** Overrides the OpenAI listener port for this run; 0 = a free port. */
  port: number | null;
}

/** Parses `argv` (process.argv: executable, [app dir], flags…). Invalid values are ignored, never fatal. */
export function parseShellArgs(argv: readonly string[]): ShellArgs {
  const out: ShellArgs = { hidden: false, demo: false, dataDir: null, port: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    const [flag, inline] =
      arg.startsWith("--") && arg.includes("=")
        ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
        : [arg, undefined];
    const value = (): string | undefined => inline ?? (argv[i + 1]?.startsWith("--") ? undefined : argv[++i]);
    if (flag === HIDDEN_ARG) out.hidden = true;
    else if (flag === "--demo") out.demo = true;
    else if (flag === "--data-dir") out.dataDir = value() || null;
    else if (flag === "--port") {
      const n = Number(value());
      if (Number.isInteger(n) && n >= 0 && n <= 65535) out.port = n;
    }
  }
  return out;
}
