// Compat cases for the Responses API (ids RESP-* in tests/fixtures/compat-cases.jsonl), each an automated test named
// by its id, run by the case runner (tests/compat/) against Patchbay + real OpenCode + the mock upstream.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { PatchbayFixture } from "../harness/patchbay-fixture";
import { releaseSharedPatchbay, useSharedPatchbay } from "../harness/shared-patchbay";
import { loadCompatCases } from "../compat/cases";
import { runCompatCase } from "../compat/runner";
import { compatSpecs } from "../compat/specs";

const cases = loadCompatCases().filter((c) => c.id.startsWith("RESP-"));

let fx: PatchbayFixture;
let key: string;

before(async () => {
  fx = await useSharedPatchbay();
  key = await fx.createKey("compat-responses");
});
after(async () => {
  await releaseSharedPatchbay(fx);
});

describe("compat cases: Responses API", () => {
  test("the cases file has RESP-* cases", () => assert.ok(cases.length >= 6));
  for (const c of cases) {
    test(c.id, async () => {
      const spec = compatSpecs[c.id];
      assert.ok(spec, `no spec for ${c.id}`);
      await runCompatCase(fx, key, c, spec);
    });
  }
});
