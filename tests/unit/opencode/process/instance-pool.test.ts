// InstancePool: directories per (app, tool set), toolset files, LRU disposal that never touches busy instances.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { InstancePool, appDirectory } from "../../../../server/opencode/process/instance-pool";

function setup(maxLive: number) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-pool-"));
  const disposed: string[] = [];
  const pool = new InstancePool({ dataDir, maxLive, dispose: async (d) => void disposed.push(d) });
  return { dataDir, disposed, pool, cleanup: () => fs.rmSync(dataDir, { recursive: true, force: true }) };
}
const tools = (name: string) => [{ name, description: "", parameters: { type: "object" } }];
const tick = () => new Promise((r) => setTimeout(r, 5));

describe("InstancePool", () => {
  test("writes <dataDir>/apps/<app>/<hash>/.patchbay/toolset.json and reports cold then warm", async () => {
    const { dataDir, pool, cleanup } = setup(6);
    const a = await pool.acquire("my-app", tools("t1"), "h1");
    assert.equal(a.directory, path.join(dataDir, "apps", "my-app", "h1"));
    assert.equal(a.cold, true);
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(a.directory, ".patchbay", "toolset.json"), "utf8")), {
      tools: tools("t1"),
    });
    a.release();
    const b = await pool.acquire("my-app", tools("t1"), "h1");
    assert.equal(b.cold, false);
    b.release();
    cleanup();
  });

  test("disposes the least recently used idle instance above the cap", async () => {
    const { pool, disposed, cleanup } = setup(2);
    for (const h of ["h1", "h2"]) (await pool.acquire("a", tools(h), h)).release();
    (await pool.acquire("a", tools("h1"), "h1")).release(); // h1 is now more recent than h2
    (await pool.acquire("a", tools("h3"), "h3")).release();
    await tick();
    assert.deepEqual(
      disposed.map((d) => path.basename(d)),
      ["h2"],
    );
    assert.deepEqual(
      pool.liveDirectories().map((d) => path.basename(d)),
      ["h1", "h3"],
    );
    cleanup();
  });

  test("never disposes an instance with a running request; disposes it once released", async () => {
    const { pool, disposed, cleanup } = setup(1);
    const busy = await pool.acquire("a", tools("h1"), "h1");
    (await pool.acquire("a", tools("h2"), "h2")).release();
    await tick();
    assert.deepEqual(
      disposed.map((d) => path.basename(d)),
      ["h2"],
      "the idle one goes, not the busy one",
    );
    const again = await pool.acquire("a", tools("h3"), "h3");
    await tick();
    assert.equal(disposed.includes(busy.directory), false);
    busy.release();
    await tick();
    assert.ok(disposed.includes(busy.directory));
    again.release();
    cleanup();
  });

  test("app names that are not path-safe cannot escape the apps folder", () => {
    const base = path.join("/d", "apps");
    for (const bad of ["../etc", "a/b", "..", "x\\y"]) {
      const dir = appDirectory("/d", bad);
      assert.equal(path.dirname(dir), base, bad);
      assert.doesNotMatch(path.basename(dir), /^\.\.?$/);
    }
    assert.equal(appDirectory("/d", "ok-app"), path.join(base, "ok-app"));
  });
});
