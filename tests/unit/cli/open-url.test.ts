// `dashboard --open`'s browser opener (server/cli/open-url.ts) pointed at stand-in `xdg-open` scripts on PATH: a
// failing opener, a missing one and no desktop session are each reported with why; a working one gets the URL.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { browserOpener, openWithOs } from "../../../server/cli/open-url";

const URL_ = "http://127.0.0.1:1/login?token=abc&x=1";
let dir: string;

/** A folder holding an `xdg-open` that records its argument in `opened.txt` and exits with `code`. */
function fakeOpener(name: string, code: number): string {
  const bin = path.join(dir, name);
  fs.mkdirSync(bin);
  fs.writeFileSync(path.join(bin, "xdg-open"), `#!/bin/sh\nprintf '%s' "$1" > "${bin}/opened.txt"\nexit ${code}\n`, {
    mode: 0o755,
  });
  return bin;
}

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-open-url-"));
});
after(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

test("an opener that fails is reported with its exit code", async () => {
  const bin = fakeOpener("failing", 3);
  await assert.rejects(openWithOs(URL_, "linux", { PATH: bin, DISPLAY: ":0" }), /^Error: xdg-open exited with 3$/);
  assert.equal(fs.readFileSync(path.join(bin, "opened.txt"), "utf8"), URL_, "it was asked");
});

test("a working opener gets the URL", async () => {
  const bin = fakeOpener("working", 0);
  await openWithOs(URL_, "linux", { PATH: bin, WAYLAND_DISPLAY: "wayland-0" });
  assert.equal(fs.readFileSync(path.join(bin, "opened.txt"), "utf8"), URL_);
});

test("no opener on PATH: the spawn error names it", async () => {
  await assert.rejects(
    openWithOs(URL_, "linux", { PATH: path.join(dir, "empty"), DISPLAY: ":0" }),
    /xdg-open: .*ENOENT/,
  );
});

test("no desktop session: not even tried, and the reason says so", async () => {
  const bin = fakeOpener("unused", 0);
  await assert.rejects(
    openWithOs(URL_, "linux", { PATH: bin }),
    /no desktop session here: DISPLAY and WAYLAND_DISPLAY/,
  );
  assert.equal(fs.existsSync(path.join(bin, "opened.txt")), false);
  // BROWSER is xdg-open's own way to a browser without a desktop.
  assert.deepEqual(browserOpener(URL_, "linux", { BROWSER: "w3m" }), { cmd: "xdg-open", args: [URL_] });
  assert.deepEqual(browserOpener(URL_, "darwin", {}), { cmd: "open", args: [URL_] });
  assert.deepEqual(browserOpener(URL_, "win32", {}), {
    cmd: "cmd",
    args: ["/c", "start", '""', "http://127.0.0.1:1/login?token=abc^&x=1"],
  });
});
