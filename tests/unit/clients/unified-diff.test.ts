// The unified diff `connect --dry-run` prints: standard headers and hunks, applied back by `patch` semantics.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { unifiedDiff } from "../../../server/clients/unified-diff";

/** Applies a diff made by unifiedDiff (hunks in order) to `before`. */
function applyDiff(before: string, diff: string): string {
  const src = before === "" ? [] : before.replace(/\n$/, "").split("\n");
  const out: string[] = [];
  let at = 0;
  const lines = diff.replace(/\n$/, "").split("\n").slice(2);
  for (let i = 0; i < lines.length; i++) {
    const m = /^@@ -(\d+),(\d+) \+\d+,\d+ @@$/.exec(lines[i] as string);
    assert.ok(m, `hunk header: ${lines[i]}`);
    const start = Number(m[2]) === 0 ? Number(m[1]) : Number(m[1]) - 1;
    while (at < start) out.push(src[at++] as string);
    while (i + 1 < lines.length && !(lines[i + 1] as string).startsWith("@@")) {
      const l = lines[++i] as string;
      if (l[0] === " ") {
        assert.equal(src[at], l.slice(1));
        out.push(src[at++] as string);
      } else if (l[0] === "-") {
        assert.equal(src[at], l.slice(1));
        at++;
      } else out.push(l.slice(1));
    }
  }
  while (at < src.length) out.push(src[at++] as string);
  return out.length ? `${out.join("\n")}\n` : "";
}

describe("unifiedDiff", () => {
  test("equal texts give an empty diff", () => {
    assert.equal(unifiedDiff("a\n", "a\n", "f"), "");
  });

  test("a new file diffs against /dev/null", () => {
    assert.equal(unifiedDiff(null, "x\ny\n", "f.toml"), "--- /dev/null\n+++ b/f.toml\n@@ -0,0 +1,2 @@\n+x\n+y\n");
  });

  test("changes far apart make separate hunks with three lines of context; the diff applies back", () => {
    const a = Array.from({ length: 30 }, (_, i) => `line ${i}`).join("\n") + "\n";
    const b = a.replace("line 2\n", "line two\n").replace("line 25\n", "").replace("line 29\n", "line 29\nline 30\n");
    const d = unifiedDiff(a, b, "f");
    assert.equal(d.match(/^@@/gm)?.length, 2);
    assert.match(d, /^--- a\/f\n\+\+\+ b\/f\n@@ -1,6 \+1,6 @@\n line 0\n line 1\n-line 2\n\+line two\n/);
    assert.equal(applyDiff(a, d), b);
  });

  test("random edits always apply back", () => {
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let k = 0; k < 200; k++) {
      const a = Array.from({ length: rnd(12) }, () => `v${rnd(5)}`);
      const b = Array.from({ length: rnd(12) }, () => `v${rnd(5)}`);
      const at = a.length ? `${a.join("\n")}\n` : "";
      const bt = b.length ? `${b.join("\n")}\n` : "";
      const d = unifiedDiff(at, bt, "f");
      assert.equal(at === bt ? "" : applyDiff(at, d), at === bt ? "" : bt, `case ${k}\n${d}`);
    }
  });

  test("a big file with a few changed lines: a small diff; texts too different to search fall back to a whole-file diff", () => {
    const big = Array.from({ length: 20_000 }, (_, i) => `  "k${i}": "v",`).join("\n") + "\n";
    const edited = big.replace('  "k10": "v",\n', '  "k10": "v",\n  "env": {},\n');
    const d = unifiedDiff(big, edited, "settings.json");
    assert.equal(d.match(/^@@/gm)?.length, 1);
    assert.equal(applyDiff(big, d), edited);
    const a = Array.from({ length: 3000 }, (_, i) => `a${i}`).join("\n") + "\n";
    const b = Array.from({ length: 3000 }, (_, i) => `b${i}`).join("\n") + "\n";
    const whole = unifiedDiff(a, b, "f");
    assert.match(whole, /^--- a\/f\n\+\+\+ b\/f\n@@ -1,3000 \+1,3000 @@\n/);
    assert.equal(applyDiff(a, whole), b);
    assert.equal(unifiedDiff("x", "x\n", "f"), "", "a final newline alone is no change");
  });
});
