// `patchbay app web-search <app> [on|off]`: shows and switches an app's web search, names the backend that serves it
// (a running Patchbay's own — its --search-url — else PATCHBAY_SEARCH_URL, else the setting) or says none is
// configured; bad input is a usage error.
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { main } from "../../../server/cli";
import type { CliIO } from "../../../server/cli/context";
import { fakeStatus } from "../admin/fakes";
import { startRunningAdmin } from "./running-admin";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-cli-web-"));
after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

async function cli(
  args: string[],
  env: Record<string, string> = {},
  dir = dataDir,
): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const io: CliIO = {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    env,
    stdoutIsTTY: false,
    exit: (code) => {
      throw new Error(`exit ${code} was not expected here`);
    },
    onSignal: () => undefined,
  };
  const code = await main(["node", "patchbay", "--data-dir", dir, ...args], io);
  return { code, out, err };
}

describe("patchbay app web-search", () => {
  test("on by default; off and on again; the backend is named", async () => {
    assert.equal((await cli(["app", "create", "cc"])).code, 0);
    const shown = await cli(["app", "web-search", "cc"]);
    assert.equal(shown.code, 0);
    assert.match(shown.out, /Web search is on for app "cc": no search backend is configured yet/);
    assert.match(shown.out, /no Patchbay is running on this data folder/);
    const off = await cli(["app", "web-search", "cc", "off"]);
    assert.match(off.out, /Web search is off for app "cc"/);
    assert.match((await cli(["app", "web-search", "cc"])).out, /is off/);
    const on = await cli(["app", "web-search", "cc", "ON"], { PATCHBAY_SEARCH_URL: "http://127.0.0.1:8888" });
    assert.match(
      on.out,
      /is on for app "cc": queries go to the SearXNG-compatible endpoint http:\/\/127\.0\.0\.1:8888/,
    );
    assert.match((await cli(["app", "web-search", "cc"])).out, /is on/);
  });

  test("bad state and unknown app are errors with one line", async () => {
    const bad = await cli(["app", "web-search", "cc", "maybe"]);
    assert.notEqual(bad.code, 0);
    assert.match(bad.err, /Use "on" or "off"/);
    const missing = await cli(["app", "web-search", "nope", "on"]);
    assert.notEqual(missing.code, 0);
    assert.match(missing.err, /No app named "nope"/);
  });

  test("with a Patchbay running on the data folder, its own backend (e.g. its --search-url) is named", async () => {
    const flagged = await startRunningAdmin("pb-cli-web-running-", {
      status: () => ({ ...fakeStatus(), search: { url: "http://127.0.0.1:9999", from: "--search-url" } }),
    });
    try {
      assert.equal((await cli(["app", "create", "cc"], {}, flagged.dir)).code, 0);
      // This shell's PATCHBAY_SEARCH_URL is not what the running server uses: the server's answer wins.
      const shown = await cli(
        ["app", "web-search", "cc"],
        { PATCHBAY_SEARCH_URL: "http://127.0.0.1:8888" },
        flagged.dir,
      );
      assert.equal(shown.code, 0, shown.err);
      assert.match(
        shown.out,
        /queries go to the SearXNG-compatible endpoint http:\/\/127\.0\.0\.1:9999 \(the running Patchbay's, from --search-url\)/,
      );
      assert.doesNotMatch(shown.out, /8888/);
    } finally {
      await flagged.close();
    }
    const none = await startRunningAdmin("pb-cli-web-running-", {
      status: () => ({ ...fakeStatus(), search: { url: null, from: "settings" } }),
    });
    try {
      assert.equal((await cli(["app", "create", "cc"], {}, none.dir)).code, 0);
      const shown = await cli(["app", "web-search", "cc"], {}, none.dir);
      assert.match(shown.out, /the running Patchbay has no search backend/);
    } finally {
      await none.close();
    }
  });
});
