// Help texts fit 80 columns when not printed to a terminal (issue 21 §3.7: `app --help` ran to 140 columns while
// the others wrapped at 80). `launch` and `connect` are left to their own help rewrites.
import { test } from "node:test";
import assert from "node:assert/strict";
import { runCli } from "./running-admin";

for (const args of [[], ["app"], ["app", "alias"], ["key"], ["serve"], ["sessions"], ["dashboard"], ["models"]]) {
  test(`patchbay ${args.join(" ")} --help fits 80 columns`, async () => {
    const r = await runCli([...args, "--help"]);
    assert.equal(r.code, 0, r.err);
    const wide = r.out.split("\n").filter((l) => l.length > 80);
    assert.deepEqual(wide, [], `lines over 80 columns:\n${wide.join("\n")}`);
  });
}
