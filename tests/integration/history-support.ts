// Shared setup of the history integration files: one real `opencode serve` (through the supervisor) with a mock
// upstream in a temp data dir, session creation in bulk, timing helpers. Test-only; each test file starts its own.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { MockUpstream } from "../harness/mock-upstream";
import { createOpenCodeUser, type OpenCodeUser } from "../harness/opencode-user";
import { appDirectory } from "../../server/opencode/process/instance-pool";
import { SideChannel } from "../../server/opencode/protocol/side-channel";
import { OpenCodeSupervisor } from "../../server/opencode/process/supervisor";

/** A running OpenCode for one test file. */
export interface HistoryEnv {
  dataDir: string;
  mock: MockUpstream;
  supervisor: OpenCodeSupervisor;
  /** `<dataDir>/apps/<app>` */
  appsDir(app: string): string;
  /** `<dataDir>/apps/<app>/<toolSet>`, created on disk. */
  toolSetDir(app: string, toolSet: string): string;
  /** Diagnostic lines of the supervisor (OpenCode's output), for failure messages. */
  logs: string[];
  /** XDG_CONFIG_HOME holding the test user's `opencode/opencode.json` (mock provider), for child processes. */
  userConfigHome: string;
  stop(): Promise<void>;
}

/** Starts mock upstream + OpenCode in a fresh temp data dir and waits until OpenCode is ready. */
export async function startHistoryEnv(): Promise<HistoryEnv> {
  const mock = await new MockUpstream().start();
  let user: OpenCodeUser | null = null;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-history-"));
  const logs: string[] = [];
  const sideChannel = new SideChannel();
  user = createOpenCodeUser({ mockBaseURL: mock.baseURL });
  const supervisor = new OpenCodeSupervisor({
    dataDir,
    user: { authFile: null, configFile: user.configFile },
    sideChannel,
    log: (line) => {
      logs.push(line);
      if (logs.length > 200) logs.shift();
    },
  });
  await supervisor.start();
  await supervisor.whenReady(60_000);
  const appsDir = (app: string) => appDirectory(dataDir, app);
  return {
    dataDir,
    mock,
    supervisor,
    appsDir,
    toolSetDir(app, toolSet) {
      const dir = path.join(appsDir(app), toolSet);
      fs.mkdirSync(dir, { recursive: true });
      return dir;
    },
    logs,
    userConfigHome: path.join(user.root, "config"),
    async stop() {
      await supervisor.stop();
      await sideChannel.stop();
      await mock.stop();
      user?.cleanup();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A created session: id, title, directory, creation time (epoch ms from OpenCode). */
export interface Created {
  id: string;
  title: string;
  directory: string;
  createdAt: number;
}

/** Creates sessions through the SDK (`session.create({directory, title})`), `concurrency` at a time; the result is in
 *  creation-request order. `directoryOf(i)` and `titleOf(i)` choose each session's directory and title. */
export async function createSessions(
  env: HistoryEnv,
  count: number,
  directoryOf: (i: number) => string,
  titleOf: (i: number) => string,
  concurrency = 8,
): Promise<Created[]> {
  const client = env.supervisor.client();
  const out = new Array<Created>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const directory = directoryOf(i);
      const r = await client.session.create({ directory, title: titleOf(i) });
      if (!r.data) throw new Error(`session.create failed: ${JSON.stringify(r.error)}`);
      out[i] = { id: r.data.id, title: r.data.title, directory, createdAt: r.data.time.created };
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return out;
}

/** Times `fn` (ms, monotonic). */
export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

/** Median of a non-empty list. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}
