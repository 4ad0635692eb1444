// Every compat case id → its executable spec (the union of the per-area spec tables). The case runner and the
// compat suites look cases up here; a case without a spec, or a spec without a case, fails the suite.
import type { CaseSpec } from "./runner";
import { chatOutputSpecs } from "./chat-output-specs";
import { chatSpecs } from "./chat-specs";
import { chatStreamSpecs } from "./chat-stream-specs";
import { httpSpecs } from "./http-specs";
import { responsesSpecs } from "./responses-specs";

/** All specs by case id. */
export const compatSpecs: Readonly<Record<string, CaseSpec>> = {
  ...chatStreamSpecs,
  ...chatSpecs,
  ...chatOutputSpecs,
  ...httpSpecs,
  ...responsesSpecs,
};

/** The README "Known gaps" lines the specs record, by case id. */
export function compatGaps(): Array<{ id: string; gap: string }> {
  return Object.entries(compatSpecs).flatMap(([id, s]) => (s.gap ? [{ id, gap: s.gap }] : []));
}
