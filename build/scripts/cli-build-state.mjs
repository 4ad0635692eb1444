// Decides whether the compiled CLI in dist/cli/ (build-cli.mjs) may run: only when every file it was built from is
// unchanged. bin/patchbay.mjs asks this at every start, so it must stay cheap (a stat per input; a file is read and
// hashed only when its size or mtime moved, or when it changed too close to the build to trust its mtime) and must
// never import esbuild or anything it checks.
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Bumped when the manifest's shape changes: an older manifest then counts as stale. */
export const MANIFEST_VERSION = 1;

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** mtimes within this much of the build's start cannot tell an edit during the build from the built version (ms). */
const RACY_MS = 2_000;

/** True when `input` (a manifest entry) still describes the file under `root`. */
async function inputUnchanged(root, input, startedAt) {
  const file = path.join(root, input.path);
  const s = await stat(file).catch(() => null);
  if (input.missing) return s === null;
  if (s === null || s.size !== input.size) return false;
  if (s.mtimeMs === input.mtimeMs && input.mtimeMs < startedAt - RACY_MS) return true;
  // Touched (a checkout, a save without changes) or racy: the content decides.
  const hash = await readFile(file)
    .then((b) => createHash("sha256").update(b).digest("hex"))
    .catch(() => null);
  return hash !== null && hash === input.sha256;
}

/**
 * The entry file of the current CLI build when it is fresh, else null with the reason (no build yet, a changed or
 * removed source, a build folder gone). Never throws.
 * @param {{ root?: string, distDir?: string }} [opts]
 * @returns {Promise<{ entry: string } | { entry: null, reason: string }>}
 */
export async function freshCliBuild(opts = {}) {
  const root = opts.root ?? ROOT;
  const distDir = opts.distDir ?? path.join(root, "dist", "cli");
  let manifest;
  try {
    manifest = JSON.parse(await readFile(path.join(distDir, "manifest.json"), "utf8"));
  } catch {
    return { entry: null, reason: "no build yet" };
  }
  if (manifest?.version !== MANIFEST_VERSION || !Array.isArray(manifest.inputs) || typeof manifest.build !== "string")
    return { entry: null, reason: "a build from another Patchbay version" };
  const entry = path.join(distDir, manifest.build, manifest.entry);
  if (!(await stat(entry).catch(() => null))) return { entry: null, reason: "the build folder is gone" };
  const results = await Promise.all(
    manifest.inputs.map(async (input) => ((await inputUnchanged(root, input, manifest.startedAt)) ? null : input.path)),
  );
  const changed = results.filter((p) => p !== null);
  if (changed.length > 0)
    return {
      entry: null,
      reason: `${changed[0]}${changed.length > 1 ? ` and ${changed.length - 1} more` : ""} changed`,
    };
  return { entry };
}
