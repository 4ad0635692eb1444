// What every CLI command gets: output streams, environment, the resolved data folder, and the stores it opens.
// Must not parse arguments (commander does) or print anything itself.
import type { Command } from "commander";
import type { CreatePatchbay } from "../patchbay-types";
import { createAppsStore, type AppsStoreHandle } from "../stores/apps-store";
import { PatchbayError } from "../core/errors";
import { createKeysStore } from "../stores/keys-store";
import type { KeysStore, StoreLifecycle } from "../stores/types";

/** The process surface the CLI touches; tests pass their own. */
export interface CliIO {
  /** Writes to stdout (text includes its newline). */
  out(text: string): void;
  /** Writes to stderr. */
  err(text: string): void;
  env: Record<string, string | undefined>;
  /** stdout is a terminal (decides whether hints are printed next to script-friendly output). */
  stdoutIsTTY: boolean;
  /** Ends the process with `code` once stdout and stderr are flushed (used by `serve`); returns at once. */
  exit(code: number): void;
  /** Registers a handler for SIGINT/SIGTERM (used by `serve`). */
  onSignal(signal: "SIGINT" | "SIGTERM", handler: () => void): void;
  /** Opens a URL with the OS's opener (`dashboard --open`); rejects when it cannot. Absent: never opens. */
  openUrl?(url: string): Promise<void>;
}

/** Apps and keys opened for one command (no file watching: the process lives for one command). */
export interface CliStores {
  apps: AppsStoreHandle;
  keys: KeysStore & StoreLifecycle;
  close(): Promise<void>;
}

export type { CreatePatchbay };

export interface CliContext {
  io: CliIO;
  /** Loads createPatchbay; default: imports server/index.ts on demand (only `serve` needs the server). */
  loadCreatePatchbay(): Promise<CreatePatchbay>;
  /** The data folder: `--data-dir`, else PATCHBAY_DATA_DIR, else the OS's per-user app-data folder. */
  dataDir(): string;
  /** Opens the apps and keys stores of the data folder; prints their notices (e.g. a corrupt file set aside). */
  openStores(): Promise<CliStores>;
}

/** A command group (`app`, `key`, `serve`, …): adds its commands to the program. See commands/index.ts. */
export type CommandRegistrar = (program: Command, ctx: CliContext) => void;

/** Opens the stores for `dataDir`, reporting notices on stderr. */
export async function openCliStores(dataDir: string, io: CliIO): Promise<CliStores> {
  // `keep`: a file that does not parse stays where it is (a running server may hold its last good version).
  const opened = await createAppsStore({ dataDir, watch: false, onInvalid: "keep" });
  // A broken apps.json leaves no apps in memory: never answer "No app named …" or "No apps yet" from that.
  const unreadable = (): never => {
    throw new PatchbayError(
      "storage_error",
      "apps.json is not valid (see the notice above), so Patchbay cannot tell which apps exist. Fix the file or " +
        "move it away (Patchbay then starts with no apps); nothing was changed.",
    );
  };
  const apps: AppsStoreHandle = {
    ...opened,
    list: () => (opened.isInvalid() ? unreadable() : opened.list()),
    get: (name) => (opened.isInvalid() ? unreadable() : opened.get(name)),
  };
  const keys = await createKeysStore({ dataDir, apps, watch: false, onInvalid: "keep" });
  for (const notice of [...apps.notices(), ...keys.notices()]) io.err(`patchbay: notice: ${notice}\n`);
  return {
    apps,
    keys,
    async close() {
      await keys.close();
      await apps.close();
    },
  };
}

/** Runs `fn` with freshly opened stores and always closes them. */
export async function withStores<R>(ctx: CliContext, fn: (stores: CliStores) => Promise<R>): Promise<R> {
  const stores = await ctx.openStores();
  try {
    return await fn(stores);
  } finally {
    await stores.close();
  }
}
