// A throwaway "Patchbay" process for the orphan test: starts a supervised `opencode serve` in a temp data dir, prints
// `{"opencodePid":…,"dataDir":…}` on one line once ready, then idles until killed. Test-only.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SideChannel } from "../../server/opencode/protocol/side-channel";
import { OpenCodeSupervisor } from "../../server/opencode/process/supervisor";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-orphan-"));
const sideChannel = new SideChannel();
const supervisor = new OpenCodeSupervisor({
  dataDir,
  user: { authFile: null, configFile: null },
  sideChannel,
  log: () => {},
});
await supervisor.start();
const s = supervisor.status();
process.stdout.write(JSON.stringify({ state: s.state, opencodePid: s.pid, dataDir }) + "\n");
setInterval(() => {}, 60_000);
