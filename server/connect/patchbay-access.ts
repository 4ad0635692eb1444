// What launch/connect need from Patchbay (API origin, the client's app and key, the model catalog), and the two ways
// to get it: the CLI asks the running Patchbay's admin API; the admin server itself uses its stores. Also the shared
// policy built on it: make the app and a key on first use (a revoked key is replaced), and pick the model.
import type { AdminClient } from "../../shared/admin/client";
import { AdminApiError } from "../../shared/admin/client";
import { NO_MODELS, type PatchbayStatus } from "../../shared/status";
import { isModelAllowed } from "../../shared/apps";
import { PatchbayError } from "../core/errors";
import { keyPrefixOf } from "../stores/keys-store";
import type { AppsStore, KeysStore } from "../stores/types";
import type { ModelInfo } from "../core/contract";
import type { ClientModel, ClientSettings } from "../clients/types";
import { describeFsError } from "../stores/storage-error";
import { launchKeysPath, readLaunchKeys, saveLaunchKey } from "./launch-keys";
import { cliCommandFor } from "./patchbay-command";

/** One catalog model, as far as choosing a default goes. */
export interface AccessModel {
  id: string;
  /** Display name and provider name (`Mock Model`, `Mock upstream`). */
  name: string;
  providerName: string;
  toolCall: boolean;
  /** Accepts attachments (images). */
  attachment: boolean;
  reasoning: boolean;
  /** Context window in tokens (0 when unknown). */
  context: number;
}

/** The catalog entry's fields launch/connect use. */
function accessModel(m: {
  id: string;
  name: string;
  providerName: string;
  capabilities: { toolCall: boolean; attachment: boolean; reasoning: boolean };
  limit: { context: number };
}): AccessModel {
  return {
    id: m.id,
    name: m.name,
    providerName: m.providerName,
    toolCall: m.capabilities.toolCall,
    attachment: m.capabilities.attachment,
    reasoning: m.capabilities.reasoning,
    context: m.limit.context,
  };
}

/** Patchbay, seen by launch/connect. Methods throw PatchbayError or AdminApiError. */
export interface PatchbayAccess {
  /** The data folder (where launch-keys.json lives). */
  dataDir: string;
  /** Patchbay's API status (listener running, base URL). */
  status(): Promise<PatchbayStatus>;
  /** The app's allowlist and aliases, or null when there is no such app. */
  app(name: string): Promise<{ models: string[]; aliases: Record<string, string> } | null>;
  createApp(name: string): Promise<void>;
  /** Visible prefixes of the app's live keys. */
  keyPrefixes(app: string): Promise<string[]>;
  /** A new key of `app` (the full key). */
  createKey(app: string, label: string): Promise<string>;
  /** The app's live keys with label and creation time (epoch ms); absent where the caller cannot list them. */
  keys?(app: string): Promise<Array<{ prefix: string; label: string; createdAt: number }>>;
  /** Revokes a key of `app` by prefix; absent where the caller cannot revoke. */
  revokeKey?(app: string, prefix: string): Promise<void>;
  /** Models of connected providers (waits while OpenCode starts). */
  models(): Promise<AccessModel[]>;
}

/** How long to wait for OpenCode to finish starting before giving up on the catalog (ms). */
const CATALOG_WAIT_MS = 30_000;

/** Access through a running Patchbay's admin API (the CLI). */
export function adminAccess(client: AdminClient, dataDir: string): PatchbayAccess {
  return {
    dataDir,
    status: () => client.getStatus(),
    async app(name) {
      try {
        const a = await client.getApp({ params: { name } });
        return { models: a.models, aliases: a.aliases };
      } catch (err) {
        if (err instanceof AdminApiError && err.status === 404) return null;
        throw err;
      }
    },
    async createApp(name) {
      await client.createApp({ body: { name } });
    },
    keyPrefixes: async (app) => (await client.listKeys({ params: { name: app } })).keys.map((k) => k.prefix),
    createKey: async (app, label) => (await client.createKey({ params: { name: app }, body: { label } })).key,
    keys: async (app) => (await client.listKeys({ params: { name: app } })).keys,
    async revokeKey(app, prefix) {
      await client.revokeKey({ params: { name: app, prefix } });
    },
    async models() {
      const deadline = Date.now() + CATALOG_WAIT_MS;
      for (;;) {
        try {
          const catalog = await client.getModels();
          return catalog.providers.flatMap((p) => p.models.map(accessModel));
        } catch (err) {
          const starting = err instanceof AdminApiError && err.code === "backend_starting";
          if (!starting || Date.now() > deadline) throw err;
          await new Promise((r) => setTimeout(r, 500));
        }
      }
    },
  };
}

/** What the admin server passes to {@link storeAccess}. */
export interface StoreAccessDeps {
  apps: AppsStore;
  keys: KeysStore;
  listModels(): Promise<ModelInfo[]>;
  status(): PatchbayStatus;
}

/** Access from inside the admin server (its own stores). */
export function storeAccess(s: StoreAccessDeps): PatchbayAccess {
  return {
    dataDir: s.status().dataDir,
    status: async () => s.status(),
    app: async (name) => {
      const a = s.apps.get(name);
      return a ? { models: a.models, aliases: a.aliases } : null;
    },
    async createApp(name) {
      await s.apps.create(name, {});
    },
    keyPrefixes: async (app) => s.keys.list(app).map((k) => k.prefix),
    createKey: async (app, label) => (await s.keys.create(app, label)).key,
    keys: async (app) => s.keys.list(app),
    revokeKey: (app, prefix) => s.keys.revoke(app, prefix),
    models: async () => (await s.listModels()).map(accessModel),
  };
}

/** Patchbay's API origin (no `/v1`), or PatchbayError when its API listener is stopped. */
export function apiOrigin(status: PatchbayStatus): string {
  if (!status.api.running || !status.api.baseUrl)
    throw new PatchbayError(
      "api_stopped",
      `Patchbay is running but its API is stopped${status.api.error ? ` (${status.api.error})` : ""}. ` +
        "Start it from the tray or the dashboard's Overview page.",
    );
  const url = new URL(status.api.baseUrl);
  // A LAN-exposed listener binds 0.0.0.0 / ::; this machine reaches it on loopback.
  if (url.hostname === "0.0.0.0") url.hostname = "127.0.0.1";
  if (url.hostname === "[::]") url.hostname = "[::1]";
  return url.origin;
}

/** Label of the keys launch makes (connect's: connect-key.ts). */
export const LAUNCH_KEY_LABEL = "patchbay launch";
/** A launch key younger than this may belong to a launch running in parallel: never revoked as an orphan (ms). */
const ORPHAN_AFTER_MS = 60_000;

/**
 * The app named `app` (created on first use) and a live key of it: the saved one unless it was revoked since. A new
 * key replaces launch keys nobody can use any more (launch-keys.json lost or damaged them): those are revoked, so
 * each run never leaves one more valid key behind. When the new key cannot be saved it is revoked again and the
 * error says why (else every run would mint another).
 */
export async function ensureAppKey(
  access: PatchbayAccess,
  app: string,
  now: () => number = Date.now,
): Promise<{ key: string; created: boolean }> {
  if (!(await access.app(app))) await access.createApp(app);
  const saved = (await readLaunchKeys(access.dataDir))[app];
  if (saved && (await access.keyPrefixes(app)).includes(keyPrefixOf(saved))) return { key: saved, created: false };
  const key = await access.createKey(app, LAUNCH_KEY_LABEL);
  try {
    await saveLaunchKey(access.dataDir, app, key);
  } catch (err) {
    await access.revokeKey?.(app, keyPrefixOf(key)).catch(() => undefined);
    throw new PatchbayError(
      "storage_error",
      `Could not save the key of app "${app}" in ${launchKeysPath(access.dataDir)} (${describeFsError(err)}), so it ` +
        "was revoked again. Fix the file or its folder and try again.",
    );
  }
  if (access.keys && access.revokeKey) {
    const orphans = (await access.keys(app)).filter(
      (k) => k.label === LAUNCH_KEY_LABEL && k.prefix !== keyPrefixOf(key) && now() - k.createdAt > ORPHAN_AFTER_MS,
    );
    for (const k of orphans) await access.revokeKey(app, k.prefix).catch(() => undefined);
  }
  return { key, created: true };
}

/** Alias names used as defaults when the app defines them. */
const DEFAULT_ALIAS = "default";
const SMALL_ALIASES = ["small", "haiku", "fast"];

/**
 * The model and the small model for `app`: `asked` if given (it must be an allowed catalog model or an alias of the
 * app), else the app's `default` alias, else the first allowed model that can call tools (else the first allowed).
 * The small model is the app's `small`/`haiku`/`fast` alias if any, else the same model. `contextWindow` is the
 * model's (or its alias target's) context window from the catalog, null when unknown.
 * Throws PatchbayError `model_not_found` with what to do when there is none.
 */
export async function chooseModels(
  access: PatchbayAccess,
  app: string,
  asked: string | undefined,
): Promise<{ model: string; smallModel: string; contextWindow: number | null; models: ClientModel[] }> {
  const info = (await access.app(app)) ?? { models: [], aliases: {} };
  const catalog = await access.models();
  const allowed = catalog.filter((m) => isModelAllowed(info.models, m.id));
  const small = SMALL_ALIASES.find((a) => Object.hasOwn(info.aliases, a));
  const pick = (model: string) => {
    const target = (Object.hasOwn(info.aliases, model) ? info.aliases[model] : undefined) ?? model;
    const context = catalog.find((m) => m.id === target.split("#")[0])?.context ?? 0;
    return {
      model,
      smallModel: small ?? model,
      contextWindow: context > 0 ? context : null,
      models: clientModels(model, info.aliases, allowed, catalog),
    };
  };
  if (asked !== undefined) {
    const base = asked.split("#")[0] ?? asked;
    if (!Object.hasOwn(info.aliases, asked) && !allowed.some((m) => m.id === base)) {
      // The app's aliases first: they are the names a user gave the models they mean to use.
      const names = [...Object.keys(info.aliases), ...allowed.map((m) => m.id)];
      const some = names.slice(0, 6);
      throw new PatchbayError(
        "model_not_found",
        `App "${app}" has no model "${asked}". ` +
          (some.length
            ? `Available: ${some.join(", ")}${names.length > some.length ? ", …" : ""} (see the dashboard's Models).`
            : NO_MODELS.text),
      );
    }
    return pick(asked);
  }
  if (Object.hasOwn(info.aliases, DEFAULT_ALIAS)) return pick(DEFAULT_ALIAS);
  const first = allowed.find((m) => m.toolCall) ?? allowed[0];
  if (!first)
    throw new PatchbayError(
      "model_not_found",
      info.models.length > 0
        ? `App "${app}" allows ${info.models.join(", ")}, but no connected provider has such a model. ` +
            `Allow more with: ${cliCommandFor(access.dataDir)(`app models ${app} all`)}`
        : NO_MODELS.text,
    );
  return pick(first.id);
}

/**
 * The models a client may offer, chosen one first: the app's aliases (with their target's capabilities; an alias
 * whose target no provider offers is left out), then every allowed catalog model.
 */
export function clientModels(
  chosen: string,
  aliases: Record<string, string>,
  allowed: readonly AccessModel[],
  catalog: readonly AccessModel[],
): ClientModel[] {
  const of = (id: string, m: AccessModel, name: string): ClientModel => ({
    id,
    name,
    description: `${m.name} (${m.providerName}) through Patchbay`,
    contextWindow: m.context > 0 ? m.context : null,
    image: m.attachment,
    reasoning: m.reasoning,
  });
  const out: ClientModel[] = [];
  for (const [alias, target] of Object.entries(aliases)) {
    const m = catalog.find((c) => c.id === target.split("#")[0]);
    if (m) out.push(of(alias, m, `${alias} (${m.name})`));
  }
  for (const m of allowed) if (!out.some((o) => o.id === m.id)) out.push(of(m.id, m, m.name));
  const at = out.findIndex((o) => o.id === chosen);
  if (at > 0) out.unshift(...out.splice(at, 1));
  return out;
}

/** Everything a client needs to talk to Patchbay as `app`; the key from `ensureKey` (default: launch's,
 *  {@link ensureAppKey}; connect passes its own, connect-key.ts). */
export async function clientSettings(
  access: PatchbayAccess,
  app: string,
  model: string | undefined,
  ensureKey: () => Promise<{ key: string; created: boolean }> = () => ensureAppKey(access, app),
): Promise<ClientSettings & { keyCreated: boolean }> {
  const origin = apiOrigin(await access.status());
  const chosen = await chooseModels(access, app, model);
  const { key, created } = await ensureKey();
  return { origin, key, ...chosen, keyCreated: created };
}
