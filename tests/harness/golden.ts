// Golden files: compare a test's output with a checked-in JSON file. One flag, `UPDATE_GOLDEN=1`, rewrites the files
// after a deliberate change (review the diff); without it a missing or different golden fails the test.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** True when this run rewrites goldens instead of comparing (`UPDATE_GOLDEN=1`). */
export function updatingGoldens(): boolean {
  return process.env.UPDATE_GOLDEN === "1";
}

/**
 * Compares `actual` (as JSON) with the golden file at `file` (an absolute path). With `UPDATE_GOLDEN=1` the file is
 * (re)written instead. Fails when the file is missing (never writes it silently) or differs.
 */
export function matchGoldenFile(file: string, actual: unknown): void {
  const text = `${JSON.stringify(actual, null, 2)}\n`;
  const name = path.basename(file);
  if (updatingGoldens()) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    return;
  }
  assert.ok(existsSync(file), `golden file ${name} is missing; run with UPDATE_GOLDEN=1 to create it`);
  assert.deepEqual(
    JSON.parse(text),
    JSON.parse(readFileSync(file, "utf8")),
    `output differs from golden ${name} (UPDATE_GOLDEN=1 rewrites)`,
  );
}
