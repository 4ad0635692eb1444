// `patchbay install-cli`: puts a small `patchbay` launcher (a shim that runs this checkout's bin/patchbay.mjs) into a
// folder on the user's PATH, ~/.local/bin by default, so `patchbay …` works in any folder without `npx` (which, outside
// this repo, fetches an unrelated npm package of the same name). Must never overwrite or remove a file it did not
// write: each shim carries SHIM_MARKER, and only a file with it is replaced or removed.
import { chmod, lstat, mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { SHIM_MARKER, singleQuote } from "../connect/patchbay-command";

export { SHIM_MARKER };

/** Where and for what a shim is written. */
export interface ShimTarget {
  /** The folder to write into (default: `<home>/.local/bin`). */
  dir: string;
  /** The launcher the shim runs: this checkout's bin/patchbay.mjs (absolute). */
  binScript: string;
  /** The node the shim falls back to when none is on PATH when it runs (absolute). */
  nodePath: string;
  platform: NodeJS.Platform;
}

/** The shim's file name in its folder: `patchbay`, or `patchbay.cmd` on Windows. */
export function shimFileName(platform: NodeJS.Platform): string {
  return platform === "win32" ? "patchbay.cmd" : "patchbay";
}

/** The shim's text. POSIX: prefers the `node` on PATH when it runs (a Node upgrade may remove the recorded one). */
export function shimText(t: Pick<ShimTarget, "binScript" | "nodePath" | "platform">): string {
  if (t.platform === "win32")
    return [
      `@rem ${SHIM_MARKER}: written by \`patchbay install-cli\`; remove it with \`patchbay install-cli --remove\`.`,
      `@node "${t.binScript}" %*`,
      "",
    ].join("\r\n");
  // A script, not a hint: plain single quotes, which /bin/sh (dash too) reads back byte for byte.
  const q = singleQuote;
  return [
    "#!/bin/sh",
    `# ${SHIM_MARKER}: written by \`patchbay install-cli\`; remove it with \`patchbay install-cli --remove\`.`,
    `NODE=$(command -v node) || NODE=${q(t.nodePath)}`,
    `exec "$NODE" ${q(t.binScript)} "$@"`,
    "",
  ].join("\n");
}

/** What `installCliShim` / `removeCliShim` did. */
export interface ShimResult {
  file: string;
  action: "written" | "updated" | "unchanged" | "removed" | "absent";
}

/**
 * The text of the regular file at `file`, or null when nothing is there. A symlink (even a dangling one, which a
 * write would follow to wherever it points) counts as another program's file: ForeignFileError. Other errors (a
 * folder of that name, no permission) are thrown as they are.
 */
async function readIfExists(file: string): Promise<string | null> {
  try {
    if ((await lstat(file)).isSymbolicLink()) throw new ForeignFileError(file);
    return await readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/** Creates `dir` and its missing parents one level at a time. (Node 20's `mkdir(…, {recursive: true})` never returns
 *  for some paths, e.g. below /proc/self; a failing level here is a plain error naming it.) */
async function makeDirs(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    try {
      if ((await stat(d)).isDirectory()) break;
      throw Object.assign(new Error(`${d} is not a folder`), { code: "ENOTDIR" });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT" || path.dirname(d) === d) throw err;
      missing.unshift(d);
    }
  }
  for (const d of missing) await mkdir(d);
}

/** Error for a `patchbay` in the folder that this module did not write. */
export class ForeignFileError extends Error {
  constructor(readonly file: string) {
    super(
      `${file} exists and was not written by patchbay install-cli; it is left alone. ` +
        "Remove or rename it yourself, or choose another folder with --dir.",
    );
    this.name = "ForeignFileError";
  }
}

/** Writes (or refreshes) the shim. Throws ForeignFileError when another program's file has that name. */
export async function installCliShim(t: ShimTarget): Promise<ShimResult> {
  const file = path.join(t.dir, shimFileName(t.platform));
  const text = shimText(t);
  const existing = await readIfExists(file);
  if (existing !== null && !existing.includes(SHIM_MARKER)) throw new ForeignFileError(file);
  if (existing === text) return { file, action: "unchanged" };
  await makeDirs(t.dir);
  // A new file is created exclusively ("wx"): a link or file that appeared since the check is never written through.
  await writeFile(file, text, { mode: 0o755, flag: existing === null ? "wx" : "w" });
  await chmod(file, 0o755);
  return { file, action: existing === null ? "written" : "updated" };
}

/**
 * True when `text` is a shim exactly as {@link shimText} writes it (for any launcher and node path): a user's edit
 * (an extra line, another command) makes it theirs.
 */
export function isPristineShim(text: string, platform: NodeJS.Platform): boolean {
  const B = "\u0000B";
  const N = "\u0000N";
  const template = shimText({ binScript: B, nodePath: N, platform });
  const escaped = template.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern =
    platform === "win32"
      ? escaped.replace(B, '[^"\\r\\n]+')
      : escaped.replace(singleQuote(B), "'(?:[^'\\n]|'\\\\'')*'").replace(singleQuote(N), "'(?:[^'\\n]|'\\\\'')*'");
  return new RegExp(`^${pattern}$`).test(text);
}

/** Error for a shim the user edited since install-cli wrote it. */
export class EditedShimError extends ForeignFileError {
  constructor(file: string) {
    super(file);
    this.message =
      `${file} was written by patchbay install-cli but edited since; it is left alone. ` +
      "Remove it yourself if you no longer need it.";
    this.name = "EditedShimError";
  }
}

/** Removes the shim. Throws ForeignFileError when the file there is not one of ours, EditedShimError when it is
 *  ours but edited since. */
export async function removeCliShim(t: Pick<ShimTarget, "dir" | "platform">): Promise<ShimResult> {
  const file = path.join(t.dir, shimFileName(t.platform));
  const existing = await readIfExists(file);
  if (existing === null) return { file, action: "absent" };
  if (!existing.includes(SHIM_MARKER)) throw new ForeignFileError(file);
  if (!isPristineShim(existing, t.platform)) throw new EditedShimError(file);
  await rm(file);
  return { file, action: "removed" };
}

/** True when `dir` is one of PATH's folders. */
export function dirOnPath(dir: string, env: Record<string, string | undefined>): boolean {
  const want = path.resolve(dir);
  return (env.PATH ?? env.Path ?? "")
    .split(path.delimiter)
    .filter(Boolean)
    .some((d) => path.resolve(d) === want);
}
