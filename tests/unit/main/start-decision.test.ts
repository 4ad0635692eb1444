// `npm start`'s desktop/headless decision and its signal forwarding rule (pure parts of build/scripts/start.mjs).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import {
  decideLaunchMode,
  fallbackLine,
  findElectronBinary,
  shouldForwardSignal,
} from "../../../build/scripts/launch-mode.mjs";

const yes = () => true;
const no = () => false;
const BIN = "/repo/node_modules/electron/dist/electron";

describe("decideLaunchMode", () => {
  test("desktop: binary present and a display", () => {
    assert.deepEqual(
      decideLaunchMode({ platform: "linux", env: { DISPLAY: ":0" }, electronBinary: BIN, exists: yes }),
      { mode: "desktop", electronBinary: BIN },
    );
    assert.equal(
      decideLaunchMode({ platform: "linux", env: { WAYLAND_DISPLAY: "wayland-0" }, electronBinary: BIN, exists: yes })
        .mode,
      "desktop",
    );
    assert.equal(decideLaunchMode({ platform: "darwin", env: {}, electronBinary: BIN, exists: yes }).mode, "desktop");
    assert.equal(decideLaunchMode({ platform: "win32", env: {}, electronBinary: BIN, exists: yes }).mode, "desktop");
  });
  test("headless on a Node.js too old for the electron package: says so instead of 'download failed'", () => {
    const on = (nodeVersion: string) => {
      const d = decideLaunchMode({
        platform: "linux",
        env: { DISPLAY: ":0" },
        electronBinary: null,
        exists: yes,
        nodeVersion,
      });
      return d.mode === "headless" ? d : { mode: d.mode, reason: "" };
    };
    assert.deepEqual(on("20.20.2"), {
      mode: "headless",
      reason: "Electron needs Node.js 22.12.0 or later to install (this is Node.js 20.20.2), so npm skipped it",
    });
    assert.match(on("22.11.9").reason, /needs Node\.js 22\.12\.0/);
    assert.match(on("24.1.0").reason, /Electron binary not installed/);
    // With the binary there, the Node version does not matter (it was installed by a newer Node, say).
    assert.equal(
      decideLaunchMode({
        platform: "linux",
        env: { DISPLAY: ":0" },
        electronBinary: BIN,
        exists: yes,
        nodeVersion: "20.1.0",
      }).mode,
      "desktop",
    );
  });
  test("headless with a reason: no binary, binary missing, no display, forced", () => {
    assert.deepEqual(
      decideLaunchMode({
        platform: "linux",
        env: { DISPLAY: ":0" },
        electronBinary: null,
        exists: yes,
        nodeVersion: "22.12.0",
      }),
      {
        mode: "headless",
        reason: "Electron binary not installed (its download failed or was skipped)",
      },
    );
    assert.deepEqual(decideLaunchMode({ platform: "darwin", env: {}, electronBinary: BIN, exists: no }), {
      mode: "headless",
      reason: `Electron binary missing at ${BIN}`,
    });
    assert.deepEqual(decideLaunchMode({ platform: "linux", env: { DISPLAY: "" }, electronBinary: BIN, exists: yes }), {
      mode: "headless",
      reason: "no display (neither DISPLAY nor WAYLAND_DISPLAY is set)",
    });
    assert.equal(decideLaunchMode({ platform: "freebsd", env: {}, electronBinary: BIN, exists: yes }).mode, "headless");
    assert.deepEqual(
      decideLaunchMode({ platform: "darwin", env: { PATCHBAY_HEADLESS: "1" }, electronBinary: BIN, exists: yes }),
      {
        mode: "headless",
        reason: "PATCHBAY_HEADLESS is set",
      },
    );
    assert.equal(
      decideLaunchMode({ platform: "darwin", env: { PATCHBAY_HEADLESS: "0" }, electronBinary: BIN, exists: yes }).mode,
      "desktop",
    );
  });
  test("the fallback is one line naming the reason", () => {
    const line = fallbackLine("Electron binary not installed (its download failed or was skipped)");
    assert.equal(
      line,
      "Patchbay: Electron binary not installed (its download failed or was skipped) — starting headless server instead.",
    );
    assert.equal(line.includes("\n"), false);
  });
  test("findElectronBinary reports what this checkout has (here: no binary → null)", () => {
    const found = findElectronBinary();
    // Either the electron package's binary path (on a machine that downloaded it) or null (ELECTRON_SKIP_BINARY_DOWNLOAD).
    if (found !== null) assert.equal(existsSync(found), true);
    else assert.equal(existsSync("node_modules/electron/path.txt"), false);
  });
});

describe("shouldForwardSignal", () => {
  test("Ctrl-C in a terminal already reached the child; everything else is forwarded", () => {
    assert.equal(shouldForwardSignal("SIGINT", true), false);
    assert.equal(shouldForwardSignal("SIGINT", false), true);
    assert.equal(shouldForwardSignal("SIGTERM", true), true);
    assert.equal(shouldForwardSignal("SIGHUP", false), true);
  });
});
