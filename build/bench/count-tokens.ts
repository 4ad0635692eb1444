// Benchmark of the count_tokens estimate (server/wires/anthropic-messages/count-tokens.ts) against encoding the same text in
// one call with js-tiktoken (the baseline, measured in the same run): time and token counts for ordinary prose, a run
// without spaces, and a large body. Run: npm run bench:count-tokens
import { getEncoding } from "js-tiktoken";
import { textsOf } from "../../server/tokenizer/request-texts";
import { countTexts, withinBudget } from "../../server/tokenizer/token-counter";
import type { NeutralRequest } from "../../server/core/contract";
import { neutralRequest } from "../../tests/harness/neutral-fixtures";

function request(text: string): NeutralRequest {
  return neutralRequest({ messages: [{ role: "user", content: [{ type: "text", text }] }] });
}

function time<T>(fn: () => T): { ms: number; value: T } {
  const t = performance.now();
  const value = fn();
  return { ms: performance.now() - t, value };
}

const encoding = getEncoding("o200k_base");
/** What the tokenizer worker computes for `request` (run here in-thread, to time the counting alone). */
const estimateInputTokens = (req: NeutralRequest) =>
  countTexts(withinBudget(textsOf(req).texts), (s) => encoding.encode(s, "all").length) + textsOf(req).fixedTokens;
const cases: Array<[string, string]> = [
  ["prose, 20 kB", "The quick brown fox jumps over the lazy dog. ".repeat(450)],
  ["no spaces, 5 kB", "a".repeat(5_000)],
  ["no spaces, 50 kB", "a".repeat(50_000)],
  ["prose, 2.4 MB", "hello world ".repeat(200_000)],
];
console.log("case                 baseline ms  estimate ms  ratio   baseline tokens  estimate tokens");
for (const [label, text] of cases) {
  // The one-call baseline is superlinear on runs without spaces: skip it where it would take minutes.
  const baseline = text.length > 20_000 && !text.includes(" ") ? null : time(() => encoding.encode(text, "all").length);
  const estimate = time(() => estimateInputTokens(request(text)) - 3);
  const ratio = baseline ? (estimate.ms / baseline.ms).toFixed(3) : "n/a";
  console.log(
    [
      label.padEnd(20),
      (baseline ? baseline.ms.toFixed(1) : "skipped").padStart(11),
      estimate.ms.toFixed(1).padStart(12),
      ratio.padStart(6),
      String(baseline?.value ?? "-").padStart(16),
      String(estimate.value).padStart(16),
    ].join(" "),
  );
}
