// The bundle's run-time source locator (build-main.mjs shimBanner): source paths relative to the app root, preferring
// app.asar.unpacked in a packaged app when the file was unpacked there.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { shimBanner } from "../../../build/scripts/build-main.mjs";

let tmp: string;
before(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "pb-shim-"));
});
after(() => rmSync(tmp, { recursive: true, force: true }));

/** Evaluates the banner as the bundle would, with the bundle living in `bundleDir`. */
function locator(bundleDir: string): (rel: string) => string {
  const make = new Function("require", "__dirname", `${shimBanner("../..")}\nreturn __patchbaySourcePath;`) as (
    r: NodeJS.Require,
    d: string,
  ) => (rel: string) => string;
  return make(createRequire(import.meta.url), bundleDir);
}

test("development checkout: <repo>/dist/main → <repo>/<rel>", () => {
  const find = locator(path.join(tmp, "repo", "dist", "main"));
  assert.equal(find("server/opencode/supervisor.ts"), path.join(tmp, "repo", "server/opencode/supervisor.ts"));
});

test("packaged app: unpacked files come from app.asar.unpacked, the rest from app.asar", () => {
  const resources = path.join(tmp, "Patchbay", "resources");
  mkdirSync(path.join(resources, "app.asar.unpacked", "server", "opencode"), { recursive: true });
  writeFileSync(path.join(resources, "app.asar.unpacked", "server", "opencode", "supervisor.ts"), "");
  const find = locator(path.join(resources, "app.asar", "dist", "main"));
  assert.equal(
    find("server/opencode/supervisor.ts"),
    path.join(resources, "app.asar.unpacked", "server/opencode/supervisor.ts"),
  );
  assert.equal(find("server/index.ts"), path.join(resources, "app.asar", "server/index.ts"));
  // A folder merely named like an asar elsewhere in the path is left alone.
  const other = locator(path.join(tmp, "my.app.asarx", "dist", "main"));
  assert.equal(other("server/index.ts"), path.join(tmp, "my.app.asarx", "server/index.ts"));
});
