// Test fixture that owns a whole Patchbay: the mock upstream, an isolated "user" OpenCode setup, a temp data dir and
// an in-process createPatchbay with its real `opencode serve`. One per test file or group (tests/harness/shared-patchbay.ts).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import OpenAI from "openai";
import { createAdminClient, type AdminClient } from "../../shared/admin/client";
import { createPatchbay, type Patchbay, type PatchbayDeps, type PatchbayUrls } from "../../server/index";
import { MockUpstream } from "./mock-upstream";
import { createOpenCodeUser, type OpenCodeUser } from "./opencode-user";

/** Options of {@link startPatchbayFixture}. */
export interface FixtureOptions {
  /** Also start the built-in demo provider. */
  demo?: boolean;
  /** Keep Patchbay's diagnostic log lines (default: only kept in memory, printed when PATCHBAY_TEST_VERBOSE=1). */
  verbose?: boolean;
  /** Extra user OpenCode config (e.g. agents/MCP that must not leak). */
  extraUserConfig?: Record<string, unknown>;
  /** Extra provider blocks for the user's OpenCode config (enabled next to `mock`). */
  extraProviders?: Record<string, unknown>;
  /** Seconds to wait for OpenCode to be ready (default 60). */
  readyTimeoutS?: number;
  /** Environment locating coding agents' config files for the admin connect rows (tests pass a temp HOME). */
  clientEnv?: Record<string, string | undefined>;
  /** OpenCode runtime knobs passed to createPatchbay (recycle/reap timings, session pool size). */
  runtime?: PatchbayDeps["runtime"];
  /** Reuse this data dir (a restart of the same Patchbay); it is still removed by `stop()`. */
  dataDir?: string;
  /** Web search/fetch server tools: the search endpoint and which addresses web fetch may reach (tests: loopback). */
  serverTools?: Pick<PatchbayDeps, "searchUrl" | "webFetchAllowAddress">;
  /** Patchbay's commit hold for streams (ms; default production's 1 s, which compat cases about early headers rely on). */
  commitAfterMs?: number;
  /** A user with no provider logged in: OpenCode offers no model at all (issue 16 item 12's first-hour case). */
  noModels?: boolean;
}

/** A running Patchbay under test. */
export interface PatchbayFixture {
  pb: Patchbay;
  urls: PatchbayUrls;
  /** `http://127.0.0.1:<port>/v1`. */
  apiBase: string;
  dataDir: string;
  mock: MockUpstream;
  user: OpenCodeUser;
  /** Typed admin API client authenticated with the admin token (Bearer). */
  admin: AdminClient;
  /** Log lines Patchbay wrote. */
  logLines: string[];
  /** Creates an app (if missing) and a key for it; returns the full key. */
  createKey(app: string, init?: { models?: string[] }): Promise<string>;
  /** The official OpenAI client for `key` (no retries, so tests see each status). */
  openai(key: string): OpenAI;
  /** fetch against the API with `key` as Bearer. */
  api(pathname: string, init?: RequestInit & { key?: string | null }): Promise<Response>;
  stop(): Promise<void>;
}

/** Starts mock upstream + Patchbay (+ OpenCode) and waits until OpenCode is ready. */
export async function startPatchbayFixture(opts: FixtureOptions = {}): Promise<PatchbayFixture> {
  const mock = await new MockUpstream().start();
  const user = createOpenCodeUser({
    mockBaseURL: mock.baseURL,
    ...(opts.extraUserConfig || opts.noModels
      ? {
          extraConfig: {
            ...opts.extraUserConfig,
            // No provider enabled is what OpenCode has with no login (built-in providers included).
            ...(opts.noModels ? { enabled_providers: ["no-provider-logged-in"], provider: {} } : {}),
          },
        }
      : {}),
    ...(opts.extraProviders ? { extraProviders: opts.extraProviders } : {}),
  });
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "pb-data-"));
  const logLines: string[] = [];
  const pb = await createPatchbay({
    dataDir,
    port: 0,
    host: "127.0.0.1",
    demo: opts.demo ?? false,
    ...(opts.clientEnv ? { clientEnv: opts.clientEnv } : {}),
    ...(opts.runtime ? { runtime: opts.runtime } : {}),
    ...(opts.commitAfterMs !== undefined ? { commitAfterMs: opts.commitAfterMs } : {}),
    ...opts.serverTools,
    userOpenCode: { authFile: fs.existsSync(user.authFile) ? user.authFile : null, configFile: user.configFile },
    log: (line) => {
      logLines.push(line);
      if (opts.verbose || process.env.PATCHBAY_TEST_VERBOSE) process.stderr.write(`[pb] ${line}\n`);
    },
  });
  const urls = await pb.start();
  const deadline = Date.now() + (opts.readyTimeoutS ?? 60) * 1000;
  while (pb.status().opencode.state !== "ready") {
    const st = pb.status().opencode;
    if (st.state === "failed" || Date.now() > deadline) {
      await pb.stop();
      throw new Error(
        `OpenCode did not become ready: ${st.state} ${st.reason ?? ""}\n${logLines.slice(-30).join("\n")}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const apiBase = urls.openaiUrl;
  if (!apiBase) throw new Error(`OpenAI listener did not start: ${pb.status().api.error}`);
  const authFetch: typeof fetch = (input, init) =>
    fetch(input, {
      ...init,
      headers: { ...(init?.headers as Record<string, string>), authorization: `Bearer ${urls.adminToken}` },
    });
  const admin = createAdminClient(authFetch, urls.adminUrl);

  const fixture: PatchbayFixture = {
    pb,
    urls,
    apiBase,
    dataDir,
    mock,
    user,
    admin,
    logLines,
    async createKey(app, init) {
      const apps = await admin.listApps();
      if (!apps.apps.some((a: { name: string }) => a.name === app))
        await admin.createApp({ body: { name: app, ...(init?.models ? { models: init.models } : {}) } });
      const created = await admin.createKey({ params: { name: app }, body: { label: "test" } });
      return created.key;
    },
    openai(key) {
      return new OpenAI({ apiKey: key, baseURL: apiBase, maxRetries: 0, timeout: 120_000 });
    },
    api(pathname, init = {}) {
      const { key, ...rest } = init;
      const headers: Record<string, string> = { ...(rest.headers as Record<string, string>) };
      if (key) headers.authorization = `Bearer ${key}`;
      if (rest.body !== undefined && !headers["content-type"]) headers["content-type"] = "application/json";
      const base = apiBase.replace(/\/v1$/, "");
      return fetch(base + pathname, { ...rest, headers });
    },
    async stop() {
      await pb.stop();
      await mock.stop();
      user.cleanup();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return fixture;
}
