// Launch at login: the Linux XDG autostart entry against a temp HOME, the desktop-entry quoting rules, and the
// macOS/Windows login item calls.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile, mkdir, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {
  autostartEntry,
  autostartFile,
  createLaunchAtLogin,
  HIDDEN_ARG,
  launchCommand,
  quoteExecArg,
  XdgAutostart,
} from "../../../main/launch-at-login";

let home: string;
before(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), "pb-autostart-"));
});
after(async () => {
  await rm(home, { recursive: true, force: true });
});

const noLoginItems = {
  getLoginItem: () => {
    throw new Error("login items must not be used on Linux");
  },
  setLoginItem: () => {
    throw new Error("login items must not be used on Linux");
  },
};

describe("Linux: XDG autostart entry", () => {
  test("enable writes ~/.config/autostart/patchbay.desktop starting hidden; disable removes it", async () => {
    const lal = createLaunchAtLogin({
      platform: "linux",
      loginItems: noLoginItems,
      command: ["/opt/Patchbay/patchbay"],
      env: { HOME: home },
    });
    const file = path.join(home, ".config", "autostart", "patchbay.desktop");
    assert.equal(await lal.isEnabled(), false);
    await lal.setEnabled(true);
    assert.equal(await lal.isEnabled(), true);
    const text = await readFile(file, "utf8");
    assert.match(text, /^\[Desktop Entry\]\n/);
    assert.match(text, /^Type=Application$/m);
    assert.match(text, /^Exec=\/opt\/Patchbay\/patchbay --hidden$/m);
    assert.match(text, /^X-GNOME-Autostart-enabled=true$/m);
    assert.equal((await stat(file)).mode & 0o777, 0o644);
    await lal.setEnabled(true); // idempotent
    await lal.setEnabled(false);
    assert.equal(await lal.isEnabled(), false);
    await lal.setEnabled(false); // idempotent, no ENOENT
  });

  test("XDG_CONFIG_HOME wins when absolute; a relative one is ignored per the spec", () => {
    assert.equal(autostartFile({ HOME: "/home/u", XDG_CONFIG_HOME: "/cfg" }), "/cfg/autostart/patchbay.desktop");
    assert.equal(
      autostartFile({ HOME: "/home/u", XDG_CONFIG_HOME: "rel" }),
      "/home/u/.config/autostart/patchbay.desktop",
    );
    assert.throws(() => autostartFile({}), /neither XDG_CONFIG_HOME nor HOME/);
  });

  test("an entry disabled by the desktop environment counts as off", async () => {
    const file = path.join(home, "de", "autostart", "patchbay.desktop");
    await mkdir(path.dirname(file), { recursive: true });
    const x = new XdgAutostart(file, ["/bin/patchbay"]);
    await writeFile(
      file,
      autostartEntry(["/bin/patchbay"]).replace("X-GNOME-Autostart-enabled=true", "X-GNOME-Autostart-enabled=false"),
    );
    assert.equal(await x.isEnabled(), false);
    await writeFile(file, autostartEntry(["/bin/patchbay"]) + "Hidden=true\n");
    assert.equal(await x.isEnabled(), false);
  });

  test("Exec quoting: spaces, quotes, $ and backslashes, % field codes", () => {
    assert.equal(quoteExecArg("/usr/bin/patchbay"), "/usr/bin/patchbay");
    assert.equal(quoteExecArg("/home/u/My Apps/Patchbay.AppImage"), '"/home/u/My Apps/Patchbay.AppImage"');
    assert.equal(quoteExecArg('a"b'), '"a\\\\"b"'); // quote escaped with \, then the string escape doubles the \
    assert.equal(quoteExecArg("$HOME"), '"\\\\$HOME"');
    assert.equal(quoteExecArg("C:\\x"), '"C:\\\\\\\\x"');
    assert.equal(quoteExecArg("100%"), "100%%");
    assert.equal(quoteExecArg(""), '""');
    assert.throws(() => quoteExecArg("a\nb"), /line break/);
    assert.match(autostartEntry(["/a b/electron", "/repo"]), /^Exec="\/a b\/electron" \/repo$/m);
  });

  test("the autostart command: AppImage file, installed binary, or electron + app dir in development", () => {
    assert.deepEqual(
      launchCommand({
        isPackaged: true,
        execPath: "/tmp/.mount_x/patchbay",
        appPath: "/x",
        env: { APPIMAGE: "/home/u/Patchbay.AppImage" },
      }),
      ["/home/u/Patchbay.AppImage"],
    );
    assert.deepEqual(launchCommand({ isPackaged: true, execPath: "/opt/Patchbay/patchbay", appPath: "/x", env: {} }), [
      "/opt/Patchbay/patchbay",
    ]);
    assert.deepEqual(
      launchCommand({
        isPackaged: false,
        execPath: "/repo/node_modules/electron/dist/electron",
        appPath: "/repo",
        env: {},
      }),
      ["/repo/node_modules/electron/dist/electron", "/repo"],
    );
  });
});

describe("macOS / Windows: login item settings", () => {
  for (const platform of ["darwin", "win32"] as const) {
    test(`${platform}: set/get go through the login item API with --hidden`, async () => {
      const calls: unknown[] = [];
      let open = false;
      const lal = createLaunchAtLogin({
        platform,
        loginItems: {
          getLoginItem: (args) => {
            calls.push(["get", args]);
            return { openAtLogin: open };
          },
          setLoginItem: (s) => {
            calls.push(["set", s]);
            open = s.openAtLogin;
          },
        },
        command: [],
        env: { HOME: home },
      });
      assert.equal(await lal.isEnabled(), false);
      await lal.setEnabled(true);
      assert.equal(await lal.isEnabled(), true);
      assert.deepEqual(calls, [
        ["get", [HIDDEN_ARG]],
        ["set", { openAtLogin: true, args: [HIDDEN_ARG] }],
        ["get", [HIDDEN_ARG]],
      ]);
    });
  }
});
