// Apps store (apps.json): one record per client program, validated by shared/apps.ts, persisted through JsonFileStore.
// Must not touch keys: deleting an app's keys is the caller's job (server/http/admin/routes/app-delete.ts,
// server/cli/app-delete.ts).
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { App, AppName, AppPatch, newAppDataKey } from "../../shared/apps";
import { PatchbayError } from "../core/errors";
import { checkRouting } from "../routing/validate";
import { JsonFileStore } from "./json-file";
import { ensureDataDir, STORE_FILES, storePath, type StoreOptions } from "./store-paths";
import type { AppsStore, StoreLifecycle } from "./types";
import { parseInput, presentFields } from "./validation";
import { bareCli, type CliCommand } from "../core/cli-command";

/** Format version of apps.json. */
export const APPS_VERSION = 1;

const AppsFile = z.object({ apps: z.array(App).default([]) });
type AppsFile = z.infer<typeof AppsFile>;

/** The apps store as its factory returns it. */
export interface AppsStoreHandle extends AppsStore, StoreLifecycle {
  /** Re-reads apps.json now instead of within the usual ~1 s (after a change known to come from elsewhere). */
  refresh(): void;
  /** True while apps.json on disk does not parse (then `list`/`get` show the last good version, or nothing). */
  isInvalid(): boolean;
}

/**
 * Opens `<dataDir>/apps.json`. `create` gives each app a random id. Errors: `app_exists` (409),
 * `app_not_found` (404), `invalid_request_error` (bad name, pattern or limit; `param` names the field),
 * `storage_error`. Changes by other processes (the CLI) are seen within ~1 s.
 */
export async function createAppsStore(options: StoreOptions): Promise<AppsStoreHandle> {
  await ensureDataDir(options.dataDir);
  const clock = options.clock ?? Date.now;
  const cli = options.cli ?? bareCli;
  const file = await JsonFileStore.open<AppsFile>({
    file: storePath(options.dataDir, STORE_FILES.apps),
    schema: AppsFile,
    version: APPS_VERSION,
    defaults: () => ({ apps: [] }),
    mode: 0o600,
    watch: options.watch,
    clock,
    writeFile: options.writeFile,
    onNotice: options.onNotice,
    onInvalid: options.onInvalid,
  });

  return {
    list: () => file.get().apps,
    get: (name) => file.get().apps.find((a) => a.name === name),
    async create(name, init) {
      const validName = parseInput(AppName, name, "name");
      const patch = parsePatch(init ?? {});
      const after = await file.update((draft) => {
        if (draft.apps.some((a) => a.name === validName)) {
          throw new PatchbayError("app_exists", `An app named "${validName}" already exists.`, { param: "name" });
        }
        const id = randomUUID();
        const base = App.parse({ id, name: validName, createdAt: clock(), dataKey: newAppDataKey(validName, id) });
        draft.apps.push(applyPatch(base, init ?? {}, patch, cli));
      });
      return mustFind(after, validName);
    },
    async update(name, patch) {
      const parsed = parsePatch(patch);
      const after = await file.update((draft) => {
        const index = draft.apps.findIndex((a) => a.name === name);
        const app = draft.apps[index];
        if (!app) throw notFound(name);
        draft.apps[index] = applyPatch(app, patch, parsed, cli);
      });
      return mustFind(after, name);
    },
    async delete(name, id) {
      await file.update((draft) => {
        // With `id`: only that app; one made since under the same name is another app.
        if (!draft.apps.some((a) => a.name === name && (id === undefined || a.id === id))) throw notFound(name);
        draft.apps = draft.apps.filter((a) => a.name !== name);
      });
    },
    onChange(listener) {
      return file.onChange(() => listener());
    },
    notices: () => file.notices(),
    refresh: () => file.refresh(),
    isInvalid: () => file.isInvalid,
    close: () => file.close(),
  };
}

function parsePatch(raw: unknown): AppPatch {
  return parseInput(AppPatch.strict(), raw);
}

/** Merges only the fields present in `raw` (see presentFields), nested limits/history field by field. */
function applyPatch(app: App, raw: unknown, parsed: AppPatch, cli: CliCommand): App {
  const top = presentFields(raw, parsed);
  const rawObj = (raw ?? {}) as Record<string, unknown>;
  const next: App = { ...app };
  if (top.models) next.models = [...new Set(top.models)];
  if (top.aliases) next.aliases = { ...top.aliases };
  if (top.limits) next.limits = { ...app.limits, ...presentFields(rawObj.limits, top.limits) };
  if (top.history) next.history = { ...app.history, ...presentFields(rawObj.history, top.history) };
  if (top.storeResponses !== undefined) next.storeResponses = top.storeResponses;
  if (top.webSearch !== undefined) next.webSearch = top.webSearch;
  if (top.routes) next.routes = { ...top.routes };
  if (top.fallbacks) next.fallbacks = { ...top.fallbacks };
  if (top.budgets) next.budgets = [...top.budgets];
  // A removed alias takes its fallback chain with it.
  if (top.aliases && !top.fallbacks)
    next.fallbacks = Object.fromEntries(Object.entries(next.fallbacks).filter(([a]) => Object.hasOwn(next.aliases, a)));
  const result = parseInput(App, next);
  checkRouting(result, app, cli);
  return result;
}

function notFound(name: string): PatchbayError {
  return new PatchbayError("app_not_found", `No app named "${name}".`);
}

function mustFind(data: AppsFile, name: string): App {
  const app = data.apps.find((a) => a.name === name);
  if (!app) throw notFound(name);
  return app;
}
