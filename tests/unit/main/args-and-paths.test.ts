// Desktop command-line flags and the packaged OpenCode binary location.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseShellArgs } from "../../../main/args";
import { desktopDataDir, sessionDataDir } from "../../../main/data-dir";
import { opencodeOsName, packagedOpencodeBinary, resolveOpencodeBinary } from "../../../main/opencode-binary";

describe("parseShellArgs", () => {
  test("known flags anywhere, unknown (Chromium) switches ignored", () => {
    assert.deepEqual(parseShellArgs(["/opt/Patchbay/patchbay", "--no-sandbox", "--hidden"]), {
      hidden: true,
      demo: false,
      dataDir: null,
      port: null,
    });
    assert.deepEqual(parseShellArgs(["electron", "/repo", "--demo", "--port", "0", "--data-dir=/tmp/d"]), {
      hidden: false,
      demo: true,
      dataDir: "/tmp/d",
      port: 0,
    });
  });
  test("invalid values are ignored, never fatal", () => {
    assert.equal(parseShellArgs(["x", "--port", "99999"]).port, null);
    assert.equal(parseShellArgs(["x", "--port", "abc"]).port, null);
    assert.equal(parseShellArgs(["x", "--data-dir", "--demo"]).dataDir, null);
    assert.equal(parseShellArgs(["x", "--data-dir", "--demo"]).demo, true);
  });
});

describe("packaged opencode binary", () => {
  test("layout <resources>/opencode/<os>-<arch>/opencode[.exe], os named like opencode-ai's packages", () => {
    assert.equal(opencodeOsName("win32"), "windows");
    assert.equal(opencodeOsName("darwin"), "darwin");
    assert.equal(
      packagedOpencodeBinary({ resourcesPath: "/opt/Patchbay/resources", platform: "linux", arch: "x64" }),
      "/opt/Patchbay/resources/opencode/linux-x64/opencode",
    );
    assert.equal(
      packagedOpencodeBinary({
        resourcesPath: "/Applications/Patchbay.app/Contents/Resources",
        platform: "darwin",
        arch: "arm64",
      }),
      "/Applications/Patchbay.app/Contents/Resources/opencode/darwin-arm64/opencode",
    );
    assert.equal(
      packagedOpencodeBinary({
        resourcesPath: "C:\\Program Files\\Patchbay\\resources",
        platform: "win32",
        arch: "x64",
      }),
      "C:\\Program Files\\Patchbay\\resources\\opencode\\windows-x64\\opencode.exe",
    );
  });
  test("only a packaged app overrides the server's default; PATCHBAY_OPENCODE_BIN always wins", () => {
    const base = { resourcesPath: "/r", platform: "linux" as const, arch: "x64" };
    assert.equal(resolveOpencodeBinary({ ...base, isPackaged: false, env: {} }), undefined);
    assert.equal(resolveOpencodeBinary({ ...base, isPackaged: true, env: {} }), "/r/opencode/linux-x64/opencode");
    assert.equal(
      resolveOpencodeBinary({ ...base, isPackaged: true, env: { PATCHBAY_OPENCODE_BIN: "/x/opencode" } }),
      undefined,
    );
  });
});

describe("desktop data dir", () => {
  test("PATCHBAY_DATA_DIR (like the CLI), else the OS default; Chromium's session data in a subfolder", () => {
    assert.equal(desktopDataDir({ PATCHBAY_DATA_DIR: "/srv/pb" }, "/home/u/.local/share/Patchbay"), "/srv/pb");
    assert.equal(
      desktopDataDir({ PATCHBAY_DATA_DIR: "  " }, "/home/u/.local/share/Patchbay"),
      "/home/u/.local/share/Patchbay",
    );
    assert.equal(desktopDataDir({}, "/home/u/.local/share/Patchbay"), "/home/u/.local/share/Patchbay");
    assert.equal(sessionDataDir("/d"), "/d/electron");
  });
});
