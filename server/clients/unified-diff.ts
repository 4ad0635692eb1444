// A unified diff of two small texts (config files), for `connect --dry-run` and the dashboard's Set up dialog.
// Pure; line-based LCS, fine for files of a few thousand lines.

/** Lines of `text` without their endings (a final newline does not make an extra empty line). */
function lines(text: string): string[] {
  if (text === "") return [];
  return text.replace(/\r?\n$/, "").split(/\r?\n/);
}

type Op = { kind: " " | "-" | "+"; line: string; a: number; b: number };

/** Edit script from `a` to `b` (longest common subsequence). */
function editScript(a: readonly string[], b: readonly string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      (lcs[i] as Uint32Array)[j] =
        a[i] === b[j]
          ? ((lcs[i + 1] as Uint32Array)[j + 1] ?? 0) + 1
          : Math.max((lcs[i + 1] as Uint32Array)[j] ?? 0, (lcs[i] as Uint32Array)[j + 1] ?? 0);
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  // `a`/`b` of an op: how many lines of each text come before it.
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) ops.push({ kind: " ", line: a[i] as string, a: i++, b: j++ });
    else if (i < n && (j >= m || ((lcs[i + 1] as Uint32Array)[j] ?? 0) >= ((lcs[i] as Uint32Array)[j + 1] ?? 0)))
      ops.push({ kind: "-", line: a[i] as string, a: i++, b: j });
    else ops.push({ kind: "+", line: b[j] as string, a: i, b: j++ });
  }
  return ops;
}

/**
 * `--- a/<label>` / `+++ b/<label>` and hunks with `context` lines around each change; "" when the texts are equal.
 * `before` null means the file does not exist (`--- /dev/null`).
 */
export function unifiedDiff(before: string | null, after: string, label: string, context = 3): string {
  if (before === after) return "";
  const ops = editScript(lines(before ?? ""), lines(after));
  const changed = ops.map((o, k) => (o.kind === " " ? -1 : k)).filter((k) => k >= 0);
  const out = [before === null ? "--- /dev/null" : `--- a/${label}`, `+++ b/${label}`];
  let k = 0;
  while (k < changed.length) {
    const start = Math.max(0, (changed[k] as number) - context);
    let end = Math.min(ops.length, (changed[k] as number) + context + 1);
    while (k + 1 < changed.length && (changed[k + 1] as number) - context <= end) {
      k++;
      end = Math.min(ops.length, (changed[k] as number) + context + 1);
    }
    k++;
    const hunk = ops.slice(start, end);
    const aLines = hunk.filter((o) => o.kind !== "+").length;
    const bLines = hunk.filter((o) => o.kind !== "-").length;
    const first = ops[start] as Op;
    // Line numbers of the hunk's first line in each text (0 when the hunk holds no line of that text).
    const aStart = aLines === 0 ? first.a : first.a + 1;
    const bStart = bLines === 0 ? first.b : first.b + 1;
    out.push(`@@ -${aStart},${aLines} +${bStart},${bLines} @@`);
    for (const o of hunk) out.push(`${o.kind}${o.line}`);
  }
  return `${out.join("\n")}\n`;
}
