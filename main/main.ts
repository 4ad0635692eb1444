// Electron entry (bundled by build/scripts/build-main.mjs into dist/main/main.cjs): binds real Electron and
// createPatchbay to the shell. No logic here beyond paths; see shell.ts.
import path from "node:path";
import * as electron from "electron";
import envPaths from "env-paths";
import { createPatchbay } from "../server/index";
import { desktopDataDir, sessionDataDir } from "./data-dir";
import { createElectronPorts } from "./electron-ports";
import { launchCommand } from "./launch-at-login";
import { resolveOpencodeBinary } from "./opencode-binary";
import { runShell } from "./shell";

const { app } = electron;

// userData = Patchbay's data folder, the same one the CLI uses (so `patchbay key create` while the app runs works),
// for development and packaged runs alike. Must precede requestSingleInstanceLock, which keeps its lock there.
const dataDir = desktopDataDir(process.env, envPaths("Patchbay", { suffix: "" }).data);
app.setPath("userData", dataDir);
app.setPath("sessionData", sessionDataDir(dataDir));

const log = (line: string) => process.stderr.write(`[patchbay] ${line}\n`);

runShell({
  ports: createElectronPorts(electron, process.env),
  createPatchbay,
  argv: process.argv,
  env: process.env,
  // The bundle's folder: build-main.mjs copies tray/ and icon.png next to main.cjs.
  assetsDir: __dirname,
  launchCommand: launchCommand({
    isPackaged: app.isPackaged,
    execPath: process.execPath,
    appPath: app.getAppPath(),
    env: process.env,
  }),
  rendererDir: path.join(__dirname, "..", "renderer"),
  opencodeBinary: resolveOpencodeBinary({
    isPackaged: app.isPackaged,
    resourcesPath: process.resourcesPath,
    platform: process.platform,
    arch: process.arch,
    env: process.env,
  }),
  onSignal: (signal, handler) => process.on(signal, handler),
  log,
});
