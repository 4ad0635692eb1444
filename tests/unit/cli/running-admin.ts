// Shared by the CLI tests of commands that ask the running Patchbay (dashboard, models): the CLI run in-process with
// captured output, and a real admin app announced in a temp data folder's runtime.json.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { main } from "../../../server/cli";
import type { CliIO } from "../../../server/cli/context";
import { writeRuntimeFile } from "../../../server/runtime-file";
import { startAdmin, type StartedAdmin } from "../admin/fakes";

/** What one in-process CLI run printed and returned; `opened`: URLs handed to the browser opener. */
export interface CliRun {
  code: number;
  out: string;
  err: string;
  opened: string[];
}

/** Runs `patchbay <args>` in this process (no TTY, empty PATH); `opener` stands in for the OS browser opener. */
export async function runCli(args: string[], opener?: (url: string) => Promise<void>): Promise<CliRun> {
  const r: CliRun = { code: -1, out: "", err: "", opened: [] };
  const io: CliIO = {
    out: (t) => void (r.out += t),
    err: (t) => void (r.err += t),
    env: { PATH: "" },
    stdoutIsTTY: false,
    exit: () => undefined,
    onSignal: () => undefined,
    openUrl: async (url) => {
      r.opened.push(url);
      await opener?.(url);
    },
  };
  r.code = await main(["node", "patchbay", ...args], io);
  return r;
}

/** A real admin app (fakes behind it) plus a data folder whose runtime.json points at it; `close()` removes both. */
export interface RunningAdmin {
  s: StartedAdmin;
  dir: string;
  close(): Promise<void>;
}

/** Starts the admin app and writes runtime.json into a new temp folder named after `prefix`. */
export async function startRunningAdmin(
  prefix: string,
  opts: Parameters<typeof startAdmin>[0] = {},
): Promise<RunningAdmin> {
  const s = await startAdmin(opts);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  await writeRuntimeFile(dir, {
    pid: process.pid,
    adminUrl: s.origin,
    adminToken: s.token,
    openaiUrl: null,
    startedAt: Date.now(),
  });
  return {
    s,
    dir,
    close: async () => {
      await s.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
