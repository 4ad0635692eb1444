// The instance LRU for real: 8 distinct tool sets (more than twice the cap) through one `opencode serve` with
// maxLiveInstances 3. The cap must hold after every request and every disposal must succeed. OpenCode's memory per tool
// set is printed, not asserted (it depends on the machine; the benchmark owns such figures). Each new tool set boots an
// instance (~2 s of CPU here), so this file is deliberately small.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import {
  backendRequest,
  neutralRequest,
  runStream,
  startBridgeStack,
  tool,
  waitFor,
  type BridgeStack,
} from "../harness/opencode-stack";

const CAP = 3;
const TOOL_SETS = 8;
let stack: BridgeStack;

/** Resident memory of `pid` in MiB (Linux), or NaN elsewhere. */
function rssMiB(pid: number | null): number {
  if (pid === null) return Number.NaN;
  try {
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Math.round(Number(kb) / 1024) : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

describe("OpenCode instance pool (real opencode serve)", () => {
  before(async () => {
    stack = await startBridgeStack({ maxLiveInstances: CAP });
  });
  after(async () => {
    await stack?.stop();
  });

  test(`${TOOL_SETS} distinct tool sets keep at most ${CAP} instances live; every disposal succeeds`, async (t) => {
    const pid = stack.supervisor.status().pid;
    const rss: number[] = [rssMiB(pid)];
    const ms: number[] = [];
    const dirs = new Set<string>();
    for (let i = 0; i < TOOL_SETS; i++) {
      const r = await runStream(stack.backend, backendRequest(neutralRequest({ tools: [tool(`tool_set_${i}`)] })));
      assert.equal(r.error, null, `request ${i}: ${JSON.stringify(r.error)}`);
      ms.push(r.durationMs);
      const live = stack.backend.liveInstances();
      for (const d of live) dirs.add(d);
      assert.ok(live.length <= CAP, `after request ${i}: ${live.length} live instances`);
      rss.push(rssMiB(pid));
    }
    assert.equal(dirs.size, TOOL_SETS, "each tool set had its own instance directory");
    await waitFor("disposals to finish", () => stack.backend.liveInstances().length <= CAP, 10_000);
    await new Promise((r) => setTimeout(r, 500));
    const failures = stack.logs.filter((l) => /disposing instance .* failed/.test(l));
    assert.deepEqual(failures, [], "every least-recently-used instance was disposed");
    assert.equal(stack.supervisor.status().pid, pid, "OpenCode did not restart");
    const median = [...ms].sort((a, b) => a - b)[Math.floor(ms.length / 2)];
    t.diagnostic(`OpenCode RSS (MiB) before and after each of ${TOOL_SETS} tool sets (cap ${CAP}): ${rss.join(" ")}`);
    t.diagnostic(`request time on a new tool set (ms): median ${median}, max ${Math.max(...ms)}`);
  });
});
