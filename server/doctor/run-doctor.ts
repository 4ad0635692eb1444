// `patchbay doctor`: for each agent CLI the user has (PATH first, then Patchbay's own node_modules), a throwaway
// Patchbay (temp data folder, the scripted demo model, a throwaway app and key) and a throwaway home per client, then
// the client run headless through `launch`'s own plan (doctor's checks: checks.ts). A failed check names the request
// Patchbay refused and why, read from that Patchbay's request log, or says that none reached it.
import { spawn } from "node:child_process";
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { DoctorCheckResult, DoctorClientResult } from "../../shared/admin/doctor";
import type { RequestLogEntry } from "../../shared/log-entry";
import { CLIENTS, isLaunchable } from "../clients/registry";
import type { LaunchableClient } from "../clients/types";
import type { CreatePatchbay } from "../patchbay-types";
import { findRunningPatchbay } from "../connect/running-patchbay";
import { resolveClientBinary } from "../connect/find-binary";
import { createLaunchDir, removeLaunchDir, writeLaunchFiles } from "../connect/launch-dir";
import { adminAccess, clientSettings } from "../connect/patchbay-access";
import { DOCTOR_CLIENTS, NO_IMAGE_CHECK, doctorChecks } from "./checks";
import { readDoctorState, rememberPassed } from "./doctor-state";

/** The scripted model every check uses. */
export const DOCTOR_MODEL = "demo/echo";
/** The throwaway app's name. */
export const DOCTOR_APP = "doctor";

/** The image check's picture: a 16 × 16 red PNG (80 bytes). */
const CHECK_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAF0lEQVR4nGP4z8BAEiJN9aiGUQ1DSgMAkPn/Afnh+ngAAAAASUVORK5CYII=",
  "base64",
);

export type { DoctorCheckResult, DoctorClientResult } from "../../shared/admin/doctor";

/** What doctor needs. */
export interface DoctorOptions {
  createPatchbay: CreatePatchbay;
  /** The user's data folder (where the last passing versions are kept). */
  dataDir: string;
  env: Record<string, string | undefined>;
  /** Client ids to check (default: every one doctor knows that is installed). */
  only?: string[];
  /** Send the clients here instead of the throwaway Patchbay (to see how a wrong base URL fails). */
  baseUrl?: string;
  /** Per check (ms). */
  timeoutMs?: number;
  /** Progress lines. */
  progress?: (line: string) => void;
  /** Stops the run (the dashboard's Patchbay stopping): the running client is killed, no further check starts, and
   *  runDoctor rejects once its throwaway Patchbay has stopped. */
  signal?: AbortSignal;
}

/** Variables of the user's shell that would point a client elsewhere or at another account. */
const CLIENT_ENV = /^(ANTHROPIC_|CLAUDE_|CODEX_|COPILOT_|OPENAI_|GH_|GITHUB_|PATCHBAY_KEY$)/;

interface ProcessResult {
  code: number | null;
  output: string;
  timedOut: boolean;
}

/** Runs `command` with a bounded time, capturing stdout and stderr together. */
function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  timeoutMs: number,
  signal?: AbortSignal,
) {
  return new Promise<ProcessResult>((resolve) => {
    const child = spawn(command, args, {
      env,
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
      detached: process.platform !== "win32",
    });
    let output = "";
    let timedOut = false;
    const take = (c: Buffer) => {
      if (output.length < 200_000) output += c.toString();
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    const kill = () => {
      try {
        if (child.pid && process.platform !== "win32") process.kill(-child.pid, "SIGKILL");
        else child.kill("SIGKILL");
      } catch {}
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, timeoutMs);
    signal?.addEventListener("abort", kill, { once: true });
    child.on("error", (err) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", kill);
      resolve({ code: null, output: `${output}${err.message}`, timedOut });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", kill);
      resolve({ code, output, timedOut });
    });
  });
}

/** `1.2.3` (with any pre-release tail) from a `--version` line. */
export function versionOf(text: string): string | null {
  return /\d+\.\d+\.\d+(?:[-+][\w.]+)?/.exec(text)?.[0] ?? null;
}

/** Why a check failed, from what Patchbay logged meanwhile and what the client printed. */
export function failureDetail(
  r: ProcessResult,
  logged: readonly RequestLogEntry[],
  expect: RegExp,
  /** `--base-url`: the client talked to that server, so the throwaway Patchbay's log cannot say why. */
  elsewhere?: string,
): string {
  const refused = logged.filter((e) => e.status >= 400);
  const last = r.output.trim().split("\n").filter(Boolean).at(-1)?.slice(0, 200) ?? "";
  const how = r.timedOut ? "did not finish in time" : `exited with ${r.code}`;
  if (refused.length > 0) {
    const e = refused[0]!;
    return (
      `Patchbay refused ${e.method} ${e.endpoint}${e.modelAsked ? ` (model ${e.modelAsked})` : ""}: ${e.status}` +
      `${e.errorCode ? ` ${e.errorCode}` : ""}${e.errorMessage ? `: ${e.errorMessage}` : ""}`
    );
  }
  if (elsewhere) return `the client ${how}${last ? `: ${last}` : ""} (its requests went to ${elsewhere})`;
  if (logged.length === 0) return `no request reached Patchbay; the client ${how}${last ? `: ${last}` : ""}`;
  if (r.code !== 0 || r.timedOut) return `the client ${how}${last ? `: ${last}` : ""}`;
  return `the answer lacks ${String(expect)}${last ? `; last line: ${last}` : ""}`;
}

/**
 * Why nothing can reach `origin` (a `--base-url` the user gave), or null when it answers HTTP at all. Probed once before
 * the clients run: a client retries a refused connection for minutes (Codex: 4 request + 5 stream retries with
 * backoff), which would tell the user the same thing far later.
 */
export async function unreachable(origin: string): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return `${origin} is not a URL; the client was not run`;
  }
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  // A TCP connect, not fetch: fetch refuses ports a client would still try (the Fetch spec's "bad ports").
  const why = await new Promise<string | null>((resolve) => {
    const socket = net.connect({ host: url.hostname.replace(/^\[|\]$/g, ""), port });
    socket.setTimeout(10_000, () => {
      socket.destroy();
      resolve("no answer in 10 s");
    });
    socket.once("connect", () => {
      socket.destroy();
      resolve(null);
    });
    socket.once("error", (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
  return why === null ? null : `nothing answers at ${origin} (${why}); the client was not run`;
}

/** The clients doctor checks that are installed, with their executables. */
function installed(opts: DoctorOptions): Array<{ client: LaunchableClient; bin: string }> {
  return CLIENTS.filter(isLaunchable)
    .filter((c) => DOCTOR_CLIENTS.includes(c.id) && (!opts.only || opts.only.includes(c.id)))
    .flatMap((client) => {
      const bin = resolveClientBinary(client.bin, client.binEnv, opts.env);
      return bin ? [{ client, bin }] : [];
    });
}

/** Runs every check of every installed client. Starts and stops its own Patchbay. */
export async function runDoctor(opts: DoctorOptions): Promise<DoctorClientResult[]> {
  const found = installed(opts);
  if (found.length === 0) return [];
  const say = opts.progress ?? (() => undefined);
  const tmp = await mkdtemp(path.join(os.tmpdir(), "patchbay-doctor-"));
  const dataDir = path.join(tmp, "data");
  say("Starting a throwaway Patchbay with the demo model…");
  const pb = await opts.createPatchbay({ dataDir, port: 0, demo: true, log: () => undefined });
  try {
    await pb.start();
    opts.signal?.throwIfAborted();
    const running = await findRunningPatchbay(dataDir);
    if (!running) throw new Error("the throwaway Patchbay did not answer");
    const access = adminAccess(running.client, dataDir);
    const settings = await clientSettings(access, DOCTOR_APP, DOCTOR_MODEL);
    if (opts.baseUrl) settings.origin = opts.baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "");
    const logs = async (since: number) =>
      (await running.client.queryLogs({ query: { app: DOCTOR_APP, since, limit: 100 } })).entries;
    const down = opts.baseUrl ? await unreachable(settings.origin) : null;
    const results: DoctorClientResult[] = [];
    for (const { client, bin } of found) {
      const home = path.join(tmp, `home-${client.id}`);
      const work = path.join(tmp, `work-${client.id}`);
      await mkdir(home, { recursive: true });
      await mkdir(work, { recursive: true });
      const imagePath = path.join(work, "doctor-check.png");
      await writeFile(imagePath, CHECK_PNG);
      const base: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(opts.env).filter(([k]) => !CLIENT_ENV.test(k)));
      const env = { ...base, HOME: home, USERPROFILE: home, NO_COLOR: "1" };
      opts.signal?.throwIfAborted();
      const version = versionOf((await run(bin, ["--version"], env, work, 60_000, opts.signal)).output);
      say(`Checking ${client.name} ${version ?? "(unknown version)"} (${bin})…`);
      const checks: DoctorCheckResult[] = [];
      const planned = doctorChecks(client.id, imagePath);
      for (const check of planned) {
        if (down) {
          checks.push({ id: check.id, title: check.title, ok: false, detail: down });
          continue;
        }
        opts.signal?.throwIfAborted();
        const dir = await createLaunchDir(dataDir);
        try {
          const plan = client.launch(settings, dir);
          await writeLaunchFiles(plan.files ?? {});
          const runEnv: NodeJS.ProcessEnv = { ...env };
          for (const k of plan.unsetEnv) delete runEnv[k];
          Object.assign(runEnv, plan.env);
          const since = Date.now() - 1;
          const r = await run(bin, [...plan.args, ...check.args], runEnv, work, opts.timeoutMs ?? 180_000, opts.signal);
          opts.signal?.throwIfAborted();
          const ok = r.code === 0 && !r.timedOut && check.expect.test(r.output);
          checks.push({
            id: check.id,
            title: check.title,
            ok,
            detail: ok
              ? null
              : failureDetail(
                  r,
                  await logs(since).catch(() => []),
                  check.expect,
                  opts.baseUrl ? settings.origin : undefined,
                ),
          });
        } finally {
          await removeLaunchDir(dir);
        }
      }
      const ok = checks.every((c) => c.ok);
      if (ok && version) await rememberPassed(opts.dataDir, client.id, version);
      results.push({
        client: client.id,
        name: client.name,
        bin,
        version,
        checks,
        image: planned.some((c) => c.id === "image") ? null : NO_IMAGE_CHECK,
        ok,
        lastPassedVersion: (await readDoctorState(opts.dataDir)).clients[client.id]?.lastPassedVersion ?? null,
      });
    }
    return results;
  } finally {
    await pb.stop().catch(() => undefined);
    await rm(tmp, { recursive: true, force: true }).catch(() => undefined);
  }
}
