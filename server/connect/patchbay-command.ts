// How a hint tells the user to call Patchbay: `patchbay …` when the `patchbay` on PATH is this Patchbay (the shim of
// `patchbay install-cli`, or a link to this checkout's bin/patchbay.mjs), else `node <this checkout>/bin/patchbay.mjs
// …`, which works in any folder. Never through npx: outside this repo npx fetches and runs an unrelated npm
// package named patchbay. Every CLI, connect and verify hint builds its command here.
import { existsSync, readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { CliCommand } from "../core/cli-command";
import { defaultDataDir } from "../data-dir";
import { findOnPath } from "./find-binary";

/** Tag in every shim `patchbay install-cli` writes (server/cli/cli-shim.ts): how a shim on PATH is known as ours. */
export const SHIM_MARKER = "patchbay-cli-shim";

/** This checkout's launcher (bin/patchbay.mjs); absent inside the packaged desktop app. */
export const PATCHBAY_BIN_SCRIPT = fileURLToPath(new URL("../../bin/patchbay.mjs", import.meta.url));

/** True when `file` (found on PATH) runs this Patchbay: our shim, or a link to `binScript`. */
function isOurPatchbay(file: string, binScript: string): boolean {
  try {
    if (realpathSync(file) === realpathSync(binScript)) return true;
    // A shim is a few hundred bytes; only its head is read.
    return readFileSync(file, "utf8").slice(0, 2000).includes(SHIM_MARKER);
  } catch {
    return false;
  }
}

/** `s` in POSIX single quotes (a `'` inside becomes `'\\''`): what `/bin/sh` reads back exactly, any byte included
 *  (for scripts; a hint to show uses {@link shellQuote}). */
export function singleQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * `s` as one POSIX shell word, safe to paste: single quotes (a `'` inside becomes `'\\''`); with control or format
 * characters (an escape sequence, a bidi override) ANSI-C quoting instead (`$'…\x1b…\u202e…'`, bash and zsh), so the
 * hint shows no raw control character and, pasted, names the same folder.
 */
export function shellQuote(s: string): string {
  if (!/[\p{Cc}\p{Cf}]/u.test(s)) return singleQuote(s);
  const body = [...s]
    .map((c) => {
      if (c === "\\" || c === "'") return `\\${c}`;
      if (!/[\p{Cc}\p{Cf}]/u.test(c)) return c;
      const code = c.codePointAt(0) ?? 0;
      // \xHH is one byte: only ASCII; anything above is written as its code point (bash writes it as UTF-8).
      if (code < 0x80) return `\\x${code.toString(16).padStart(2, "0")}`;
      return code < 0x10000 ? `\\u${code.toString(16).padStart(4, "0")}` : `\\U${code.toString(16).padStart(8, "0")}`;
    })
    .join("");
  return `$'${body}'`;
}

/** A path as one shell word: as is when plain, else single-quoted (POSIX: `$(…)`, backticks and `"` stay literal,
 *  so a pasted hint runs nothing but Patchbay), double-quoted on Windows (cmd knows no single quotes; `"` cannot
 *  occur in a Windows path). */
function quoted(p: string, platform: NodeJS.Platform = process.platform): string {
  // A backslash is a path separator on Windows only; a POSIX shell would eat it.
  if ((platform === "win32" ? /^[\w@%+=:,./\\-]+$/ : /^[\w@%+=:,./-]+$/).test(p)) return p;
  return platform === "win32" ? `"${p}"` : shellQuote(p);
}

/**
 * `patchbay <args>` when the `patchbay` on `env.PATH` is this one, else `node <abs>/bin/patchbay.mjs <args>`; plain
 * `patchbay <args>` where there is no launcher to name (the packaged desktop app).
 */
export function patchbayCommand(
  args: string,
  env: Record<string, string | undefined> = process.env,
  binScript: string = PATCHBAY_BIN_SCRIPT,
): string {
  const onPath = findOnPath("patchbay", env);
  if (onPath && isOurPatchbay(onPath, binScript)) return `patchbay ${args}`;
  if (!existsSync(binScript)) return `patchbay ${args}`;
  return `node ${quoted(path.resolve(binScript))} ${args}`;
}

/**
 * `--data-dir '<dir>' ` (with a trailing space) when `dataDir` is not the folder a bare `patchbay` uses without
 * PATCHBAY_DATA_DIR, else "". A hint carries the folder even when it came from PATCHBAY_DATA_DIR: the hint may be
 * followed in another shell, where acting on the default folder would miss the backup or app it means.
 */
export function dataDirArg(dataDir: string): string {
  return path.resolve(dataDir) === path.resolve(defaultDataDir())
    ? ""
    : `--data-dir ${shellQuote(path.resolve(dataDir))} `;
}

/**
 * The hint builder of the Patchbay serving `dataDir`: `cli("app list")` → `patchbay --data-dir '/x' app list` (see
 * {@link patchbayCommand} and {@link dataDirArg}). The PATH lookup runs on first use, once.
 */
export function cliCommandFor(dataDir: string, env: Record<string, string | undefined> = process.env): CliCommand {
  const folder = dataDirArg(dataDir);
  let head: string | undefined;
  return (args) => {
    head ??= patchbayCommand("", env).trimEnd();
    return `${head} ${folder}${args}`;
  };
}
