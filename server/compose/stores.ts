// The stores of one Patchbay, opened together from its data folder and closed together: settings, apps, keys, the
// request log, stored responses, budget use and rate-limit cooldowns. They live as long as the Patchbay does.
import { createBudgetGuard, type BudgetGuard } from "../budgets/budget-guard";
import { openBudgetUsage, type BudgetUsageStore } from "../budgets/usage-store";
import { ResponseStore } from "../responses-store/response-store";
import { Cooldowns } from "../routing/cooldowns";
import { createAppsStore } from "../stores/apps-store";
import { createKeysStore } from "../stores/keys-store";
import { createRequestLog } from "../stores/request-log";
import { createSettingsStore } from "../stores/settings-store";
import type { CliCommand } from "../core/cli-command";

/** The open stores; {@link PatchbayStores.close} flushes and closes them all (never throws). */
export interface PatchbayStores {
  settings: Awaited<ReturnType<typeof createSettingsStore>>;
  apps: Awaited<ReturnType<typeof createAppsStore>>;
  keys: Awaited<ReturnType<typeof createKeysStore>>;
  requestLog: Awaited<ReturnType<typeof createRequestLog>>;
  responses: ResponseStore;
  budgetUsage: BudgetUsageStore;
  budgets: BudgetGuard;
  cooldowns: Cooldowns;
  close(): Promise<void>;
}

/** What {@link openStores} needs. */
export interface StoresOptions {
  dataDir: string;
  now: () => number;
  log: (line: string) => void;
  /** A store's notice (e.g. apps.json hand-edited into an invalid state), for the log and the dashboard. */
  onNotice: (message: string) => void;
  /** Secrets known by value, removed from every request log entry wherever they appear (read on each write). */
  secrets: () => string[];
  /** How the apps store's refusals (dashboard, CLI) name a Patchbay command (connect/patchbay-command.ts). */
  cli: CliCommand;
}

/** Opens every store of `dataDir`. Throws PatchbayError `storage_error` when one cannot be read or created. */
export async function openStores(o: StoresOptions): Promise<PatchbayStores> {
  const { dataDir, now, log, onNotice } = o;
  const settings = await createSettingsStore({ dataDir, onNotice });
  const apps = await createAppsStore({ dataDir, onNotice, cli: o.cli });
  const keys = await createKeysStore({ dataDir, apps, onNotice });
  const requestLog = await createRequestLog({ dataDir, now, secrets: o.secrets });
  const responses = new ResponseStore({ dataDir, log });
  const budgetUsage = await openBudgetUsage({ dataDir, clock: now });
  return {
    settings,
    apps,
    keys,
    requestLog,
    responses,
    budgetUsage,
    // Its 429 goes to API clients, maybe over the LAN: the command by name, no local path.
    budgets: createBudgetGuard(budgetUsage),
    cooldowns: new Cooldowns(now),
    async close() {
      await Promise.allSettled([
        requestLog.close(),
        budgetUsage.close(),
        keys.close(),
        settings.close(),
        apps.close(),
        responses.flush(),
      ]);
    },
  };
}
