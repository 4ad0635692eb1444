// Issue 21 item 4.6: a memory limit below what a fresh OpenCode uses restarts it every minute or two; Patchbay allows
// it (soaks force recycles) but says so in its status notices (dashboard) and its log.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, test } from "node:test";
import { createPatchbay } from "../../../server/index";
import { FRESH_OPENCODE_RSS_MB, memoryLimitNotice } from "../../../server/opencode/runtime/memory-limit";
import { removeDir, tempDir } from "../stores/helpers";

const dataDir = tempDir("mem-notice");
after(() => removeDir(dataDir));

test("the notice names the limit; automatic, off and large enough limits give none", () => {
  assert.match(memoryLimitNotice(200) ?? "", /200 MiB, below the ≈ 550 MB a freshly started OpenCode already uses/);
  for (const ok of [null, 0, FRESH_OPENCODE_RSS_MB, 4096]) assert.equal(memoryLimitNotice(ok), null);
});

test("a Patchbay whose settings hold a too-small limit lists the notice in its status", async () => {
  fs.writeFileSync(
    path.join(dataDir, "settings.json"),
    JSON.stringify({ version: 1, data: { opencodeMemoryLimitMB: 128 } }),
  );
  const pb = await createPatchbay({
    dataDir,
    log: () => undefined,
    userOpenCode: { authFile: null, configFile: null },
  });
  try {
    assert.ok(
      pb.status().notices.some((n) => /memory limit is 128 MiB/.test(n)),
      pb.status().notices.join("\n"),
    );
  } finally {
    await pb.stop();
  }
});
