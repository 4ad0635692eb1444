// In-memory fakes of the stores and runtime that the admin app depends on, plus a helper that starts the admin app on
// 127.0.0.1:0 and sends raw HTTP requests (so tests control Host, Origin and Cookie exactly).
import http from "node:http";
import { mkdtempSync, writeFileSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { App, type AppPatch } from "../../../shared/apps";
import type { CreatedKey, KeyInfo } from "../../../shared/keys";
import { Settings, type SettingsPatch } from "../../../shared/settings";
import type { RequestLogEntry } from "../../../shared/log-entry";
import { entryBelongsTo, type AppNamed, type LogOwner } from "../../../shared/log-filter";
import type { PatchbayStatus } from "../../../shared/status";
import type { ModelInfo } from "../../../server/core/contract";
import { PatchbayError } from "../../../server/core/errors";
import type { DesktopHost } from "../../../server/patchbay-types";
import type {
  AppsStore,
  DailyUsage,
  KeysStore,
  LogPage,
  LogQuery,
  RequestLog,
  SettingsStore,
} from "../../../server/stores/types";
import { createAdminApp } from "../../../server/http/admin/admin-app";
import type { AdminApp, AdminAppOptions, AdminServices } from "../../../server/http/admin/services";
import { bareCli } from "../../../server/core/cli-command";

export class FakeSettings implements SettingsStore {
  value: Settings = Settings.parse({});
  patches: SettingsPatch[] = [];
  get(): Settings {
    return this.value;
  }
  async update(patch: SettingsPatch): Promise<Settings> {
    this.patches.push(patch);
    this.value = Settings.parse({ ...this.value, ...patch });
    return this.value;
  }
  onChange(): () => void {
    return () => {};
  }
}

export class FakeApps implements AppsStore {
  apps = new Map<string, App>();
  patches: { name: string; patch: AppPatch }[] = [];
  list(): App[] {
    return [...this.apps.values()];
  }
  get(name: string): App | undefined {
    return this.apps.get(name);
  }
  /** Apps made so far (ids are never reused, as real ones are random). */
  private made = 0;
  async create(name: string, init: AppPatch = {}): Promise<App> {
    if (this.apps.has(name))
      throw new PatchbayError("app_exists", `An app named '${name}' already exists.`, { param: "name" });
    const app = App.parse({ id: `app_${++this.made}`, name, createdAt: 1_700_000_000_000, ...init });
    this.apps.set(name, app);
    return app;
  }
  async update(name: string, patch: AppPatch): Promise<App> {
    const cur = this.apps.get(name);
    if (!cur) throw new PatchbayError("app_not_found", `No app '${name}'.`);
    this.patches.push({ name, patch });
    const next = App.parse({
      ...cur,
      ...(patch.models ? { models: patch.models } : {}),
      ...(patch.aliases ? { aliases: patch.aliases } : {}),
      ...(patch.fallbacks ? { fallbacks: patch.fallbacks } : {}),
      limits: { ...cur.limits, ...patch.limits },
      history: { ...cur.history, ...patch.history },
    });
    this.apps.set(name, next);
    return next;
  }
  async delete(name: string, id?: string): Promise<void> {
    const app = this.apps.get(name);
    if (!app || (id !== undefined && app.id !== id)) throw new PatchbayError("app_not_found", `No app '${name}'.`);
    this.apps.delete(name);
  }
  onChange(): () => void {
    return () => {};
  }
}

export class FakeKeys implements KeysStore {
  keys: (KeyInfo & { key: string })[] = [];
  revokedAll: string[] = [];
  private n = 0;
  async create(app: string, label = ""): Promise<CreatedKey> {
    this.n += 1;
    const key = `pb-${app}-${this.n}${"s3cr3t".repeat(4)}`;
    const info: KeyInfo = {
      prefix: key.slice(3, 15),
      app,
      label,
      createdAt: 1_700_000_000_000 + this.n,
      lastUsedAt: null,
    };
    this.keys.push({ ...info, key });
    return { ...info, key };
  }
  list(app: string): KeyInfo[] {
    return this.keys.filter((k) => k.app === app).map(({ key: _key, ...info }) => info);
  }
  async revoke(app: string, prefix: string): Promise<void> {
    const i = this.keys.findIndex((k) => k.app === app && k.prefix === prefix);
    if (i < 0) throw new PatchbayError("key_not_found", `No key '${prefix}' for app '${app}'.`);
    this.keys.splice(i, 1);
  }
  async revokeAll(app: string): Promise<void> {
    this.revokedAll.push(app);
    this.keys = this.keys.filter((k) => k.app !== app);
  }
  verify(): null {
    return null;
  }
}

export class FakeRequestLog implements RequestLog {
  entries: RequestLogEntry[] = [];
  queries: LogQuery[] = [];
  usageCalls: { app: LogOwner; days: number }[] = [];
  listeners = new Set<(e: RequestLogEntry) => void>();
  error: string | null = null;
  append(entry: RequestLogEntry): void {
    this.entries.push(entry);
    for (const l of this.listeners) l(entry);
  }
  query(q: LogQuery, appNamed: AppNamed): LogPage {
    this.queries.push(q);
    const owner = q.app ? appNamed(q.app) : undefined;
    const list = this.entries.filter((e) => !q.app || (owner !== undefined && entryBelongsTo(e, owner))).reverse();
    return { entries: list.slice(0, q.limit ?? 50), nextCursor: null };
  }
  recent(n: number): RequestLogEntry[] {
    return n <= 0 ? [] : this.entries.slice(-n);
  }
  subscribe(listener: (e: RequestLogEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  usage(app: LogOwner, days: number): DailyUsage[] {
    this.usageCalls.push({ app, days });
    return [
      {
        day: "2025-01-01",
        requests: 3,
        errors: 1,
        inputTokens: 10,
        outputTokens: 20,
        cachedTokens: 0,
        reasoningTokens: 5,
      },
    ];
  }
  totals() {
    return { requests: this.entries.length, errors: 0, requestsToday: 0, errorsToday: 0 };
  }
  lastError(): string | null {
    return this.error;
  }
  async close(): Promise<void> {}
}

export class FakeDesktop implements DesktopHost {
  launchAtLogin = false;
  opened = 0;
  async openDataFolder(): Promise<void> {
    this.opened += 1;
  }
  async getLaunchAtLogin(): Promise<boolean> {
    return this.launchAtLogin;
  }
  async setLaunchAtLogin(enabled: boolean): Promise<void> {
    this.launchAtLogin = enabled;
  }
}

export { logEntry } from "../../harness/builders";

export const MODELS: ModelInfo[] = [
  {
    id: "mock/zeta",
    providerID: "mock",
    modelID: "zeta",
    name: "Zeta",
    providerName: "Mock",
    variants: ["low", "high"],
    capabilities: { toolCall: true, attachment: false, reasoning: true, temperature: true },
    limit: { context: 128000, output: 8192 },
    npm: "@ai-sdk/openai-compatible",
    created: 0,
  },
  {
    id: "anthropic/claude",
    providerID: "anthropic",
    modelID: "claude",
    name: "Claude",
    providerName: "Anthropic",
    variants: [],
    capabilities: { toolCall: true, attachment: true, reasoning: true, temperature: true },
    limit: { context: 200000, output: 64000 },
    npm: "@ai-sdk/anthropic",
    created: 1,
  },
  {
    id: "mock/alpha",
    providerID: "mock",
    modelID: "alpha",
    name: "Alpha",
    providerName: "Mock",
    variants: [],
    capabilities: { toolCall: false, attachment: false, reasoning: false, temperature: true },
    limit: { context: 8000, output: 1000 },
    npm: "@ai-sdk/openai-compatible",
    created: 0,
  },
];

export function fakeStatus(): PatchbayStatus {
  return {
    version: "0.1.0",
    startedAt: 1_700_000_000_000,
    uptimeMs: 1000,
    api: {
      running: true,
      host: "127.0.0.1",
      port: 4747,
      baseUrl: "http://127.0.0.1:4747/v1",
      error: null,
      lanExposure: false,
      pinned: false,
      portPicked: false,
    },
    opencode: { state: "ready", reason: null, version: "1.18.33", url: "http://127.0.0.1:4096", pid: 42, restarts: 0 },
    dataDir: "/tmp/patchbay-data",
    demo: false,
    notices: [],
    totals: { requests: 0, errors: 0, requestsToday: 0, errorsToday: 0 },
    apps: [],
  };
}

/** Fake services plus call records. */
export interface Fakes {
  settings: FakeSettings;
  apps: FakeApps;
  keys: FakeKeys;
  requestLog: FakeRequestLog;
  desktop: FakeDesktop | undefined;
  calls: string[];
  statusListeners: Set<(s: PatchbayStatus) => void>;
  /** Replace to make listModels fail. */
  listModels: () => Promise<ModelInfo[]>;
  logLines: string[];
}

export interface StartedAdmin {
  port: number;
  origin: string;
  host: string;
  token: string;
  admin: AdminApp;
  fakes: Fakes;
  staticDir: string;
  /** Sends a request; `auth: "bearer"` (default) adds the token, `"none"` adds nothing. */
  request(method: string, p: string, o?: RequestOptions): Promise<RawResponse>;
  close(): Promise<void>;
}

export interface RequestOptions {
  auth?: "bearer" | "none";
  headers?: Record<string, string>;
  /** Object → JSON with content-type; string → sent as is. */
  body?: unknown;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json(): unknown;
}

/** Sends one HTTP request to 127.0.0.1:port with exactly the given headers (Host defaults to 127.0.0.1:port). */
export function rawRequest(
  port: number,
  method: string,
  p: string,
  headers: Record<string, string>,
  body?: string,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path: p, headers, setHost: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) as unknown });
      });
    });
    req.setTimeout(5000, () => req.destroy(new Error("request timed out")));
    req.on("error", reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** Starts the admin app with fakes on 127.0.0.1:0. */
export async function startAdmin(
  o: {
    desktop?: boolean;
    options?: AdminAppOptions;
    withStatic?: boolean;
    history?: AdminServices["history"];
    doctor?: AdminServices["doctor"];
    /** Replaces {@link fakeStatus}. */
    status?: () => PatchbayStatus;
  } = {},
): Promise<StartedAdmin> {
  const staticDir = mkdtempSync(path.join(tmpdir(), "pb-admin-static-"));
  if (o.withStatic !== false) {
    mkdirSync(path.join(staticDir, "assets"));
    writeFileSync(path.join(staticDir, "index.html"), "<!doctype html><title>Patchbay</title><div id=root></div>");
    writeFileSync(path.join(staticDir, "assets", "app.js"), "console.log('app')");
  }
  const fakes: Fakes = {
    settings: new FakeSettings(),
    apps: new FakeApps(),
    keys: new FakeKeys(),
    requestLog: new FakeRequestLog(),
    desktop: o.desktop ? new FakeDesktop() : undefined,
    calls: [],
    statusListeners: new Set(),
    listModels: async () => MODELS,
    logLines: [],
  };
  let origin = "";
  const token = "admin-token-for-tests-0123456789abcdef";
  const services: AdminServices = {
    settings: fakes.settings,
    apps: fakes.apps,
    keys: fakes.keys,
    requestLog: fakes.requestLog,
    cli: bareCli,
    listModels: () => fakes.listModels(),
    status: o.status ?? fakeStatus,
    onStatus: (l) => {
      fakes.statusListeners.add(l);
      return () => fakes.statusListeners.delete(l);
    },
    startApi: async () => {
      fakes.calls.push("startApi");
    },
    stopApi: async () => {
      fakes.calls.push("stopApi");
    },
    ...(fakes.desktop ? { desktop: fakes.desktop } : {}),
    adminToken: token,
    adminOrigin: () => origin,
    staticDir,
    log: (line) => fakes.logLines.push(line),
    ...(o.history ? { history: o.history } : {}),
    ...(o.doctor ? { doctor: o.doctor } : {}),
  };
  const admin = createAdminApp(services, o.options);
  const server = http.createServer(admin.handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  const host = `127.0.0.1:${port}`;
  return {
    port,
    origin,
    host,
    token,
    admin,
    fakes,
    staticDir,
    request(method, p, ro = {}) {
      const headers: Record<string, string> = { host, ...(ro.headers ?? {}) };
      if ((ro.auth ?? "bearer") === "bearer" && !headers.authorization) headers.authorization = `Bearer ${token}`;
      let body: string | undefined;
      if (ro.body !== undefined) {
        body = typeof ro.body === "string" ? ro.body : JSON.stringify(ro.body);
        if (typeof ro.body !== "string" && !headers["content-type"]) headers["content-type"] = "application/json";
        headers["content-length"] = String(Buffer.byteLength(body));
      }
      return rawRequest(port, method, p, headers, body);
    },
    async close() {
      admin.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(staticDir, { recursive: true, force: true });
    },
  };
}

/** `{error:{code,message,field}}` of a response, asserting the shape loosely. */
export function errorOf(res: RawResponse): { code: string; message: string; field?: string } {
  const body = res.json() as { error: { code: string; message: string; field?: string } };
  return body.error;
}
