// A unified diff of two config files, for `connect --dry-run` and the dashboard's Set up dialog. jsdiff (Myers,
// O((n+m)·d) for d changed lines) does the work: connect changes a few lines of files up to 4 MB, where a full LCS
// table would take gigabytes. Pure.
import { structuredPatch, type StructuredPatchHunk } from "diff";

/** Bounds of the search (jsdiff's `maxEditLength` in lines, `timeout` in ms): connect changes a few dozen lines;
 *  past either, the whole file is shown as replaced, which is still a correct diff. */
const MAX_EDIT_LINES = 2_000;
const DIFF_TIMEOUT_MS = 200;

/**
 * `--- a/<label>` / `+++ b/<label>` and hunks with `context` lines around each change; "" when the texts are equal.
 * `before` null means the file does not exist (`--- /dev/null`). A missing final newline is not shown as a change.
 */
export function unifiedDiff(before: string | null, after: string, label: string, context = 3): string {
  if (before === after) return "";
  const old = withFinalNewline(before ?? "");
  const next = withFinalNewline(after);
  const patch =
    structuredPatch(label, label, old, next, "", "", {
      context,
      maxEditLength: MAX_EDIT_LINES,
      timeout: DIFF_TIMEOUT_MS,
    }) ??
    // Too many changes to find in time: everything out, everything in (still a correct diff).
    wholeFile(old, next);
  const out = [before === null ? "--- /dev/null" : `--- a/${label}`, `+++ b/${label}`];
  for (const h of patch.hunks) {
    // Unified format: a hunk with no line of a side names the line before it (jsdiff's formatPatch does the same).
    const oldStart = h.oldLines === 0 ? h.oldStart - 1 : h.oldStart;
    const newStart = h.newLines === 0 ? h.newStart - 1 : h.newStart;
    out.push(`@@ -${oldStart},${h.oldLines} +${newStart},${h.newLines} @@`);
    for (const line of h.lines) if (!line.startsWith("\\")) out.push(line);
  }
  return out.length > 2 ? `${out.join("\n")}\n` : "";
}

/** `text` ending in a newline (an empty text stays empty). */
function withFinalNewline(text: string): string {
  return text === "" || text.endsWith("\n") ? text : `${text}\n`;
}

/** One hunk replacing every line of `old` with every line of `next`. */
function wholeFile(old: string, next: string): { hunks: StructuredPatchHunk[] } {
  return { hunks: [hunkOf(lines(old), lines(next))] };
}

function hunkOf(a: string[], b: string[]): StructuredPatchHunk {
  return {
    oldStart: 1,
    oldLines: a.length,
    newStart: 1,
    newLines: b.length,
    lines: [...a.map((l) => `-${l}`), ...b.map((l) => `+${l}`)],
  };
}

function lines(text: string): string[] {
  return text === "" ? [] : text.replace(/\r?\n$/, "").split(/\r?\n/);
}
