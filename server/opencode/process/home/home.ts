// Prepares Patchbay's own OpenCode home inside `<dataDir>/opencode/` (HOME + XDG dirs, pre-seeded config dir,
// linked auth.json, generated opencode.json, companion plugin copy). Never writes to the user's own OpenCode files.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildOpenCodeConfig } from "./opencode-config";
import { readUserProviderSections } from "./user-config";

/** The pinned @opencode-ai/plugin version the config dir is pre-seeded with (matches opencode-ai 1.18.33). */
export const PINNED_PLUGIN_VERSION = "1.18.33";

/** Default location of the companion plugin source shipped with Patchbay. */
export const COMPANION_PLUGIN_SOURCE = fileURLToPath(new URL("../../protocol/companion-plugin.ts", import.meta.url));

/** Options of {@link prepareOpenCodeHome}. */
export interface OpenCodeHomeOptions {
  /** Patchbay's data folder; the home goes to `<dataDir>/opencode/`. */
  dataDir: string;
  /** The user's OpenCode files (auth.json is linked, never copied; only provider sections of the config are taken). */
  user: { authFile: string | null; configFile: string | null };
  /** Provider blocks Patchbay adds (e.g. the demo provider). */
  extraProviders?: Record<string, unknown>;
  /** Companion plugin source to copy into the home (default: the one shipped next to this module). */
  pluginSource?: string;
}

/** Paths of a prepared home plus what the child's environment needs. */
export interface OpenCodeHome {
  root: string;
  /** HOME, XDG_* and XDG_RUNTIME_DIR for the child. */
  env: Record<string, string>;
  /** `$XDG_CONFIG_HOME/opencode` */
  configDir: string;
  /** The generated `opencode.json`. */
  configFile: string;
  /** The companion plugin copy loaded through `plugin: ["file://…"]`. */
  pluginFile: string;
  /** Working directory of the child and the directory of the default (tool-less) instance. */
  workDir: string;
  /** Provider API-key variables the user's provider sections reference (`{env:NAME}`). */
  envRefs: string[];
  /** Problems the UI should show (corrupt user config, auth link failure). */
  notices: string[];
}

/**
 * Creates/refreshes the home. Idempotent; called before every start of `opencode serve` so that changes to the
 * user's providers or a newly created auth.json are picked up on restart. Throws only on unwritable data dirs.
 */
export function prepareOpenCodeHome(opts: OpenCodeHomeOptions): OpenCodeHome {
  const root = path.join(opts.dataDir, "opencode");
  const dirs = {
    HOME: path.join(root, "home"),
    XDG_CONFIG_HOME: path.join(root, "config"),
    XDG_DATA_HOME: path.join(root, "data"),
    XDG_CACHE_HOME: path.join(root, "cache"),
    XDG_STATE_HOME: path.join(root, "state"),
    XDG_RUNTIME_DIR: path.join(root, "run"),
  };
  for (const d of Object.values(dirs)) fs.mkdirSync(d, { recursive: true, mode: 0o700 });
  const configDir = path.join(dirs.XDG_CONFIG_HOME, "opencode");
  const dataDir = path.join(dirs.XDG_DATA_HOME, "opencode");
  const workDir = path.join(root, "work");
  const pluginDir = path.join(root, "patchbay");
  for (const d of [configDir, dataDir, workDir, pluginDir, path.join(configDir, "node_modules")])
    fs.mkdirSync(d, { recursive: true });

  // Pre-seed so OpenCode does not npm-install @opencode-ai/plugin at startup (no network needed, DESIGN §3).
  writeIfChanged(
    path.join(configDir, "package.json"),
    JSON.stringify({ dependencies: { "@opencode-ai/plugin": PINNED_PLUGIN_VERSION } }, null, 2) + "\n",
  );
  writeIfChanged(
    path.join(configDir, "package-lock.json"),
    JSON.stringify(
      { lockfileVersion: 3, packages: { "": { dependencies: { "@opencode-ai/plugin": PINNED_PLUGIN_VERSION } } } },
      null,
      2,
    ) + "\n",
  );

  // Outside the config dir: OpenCode auto-loads `<config>/plugin(s)/`, which would load it twice.
  const pluginFile = path.join(pluginDir, "companion.ts");
  writeIfChanged(pluginFile, fs.readFileSync(opts.pluginSource ?? COMPANION_PLUGIN_SOURCE, "utf8"));

  const notices: string[] = [];
  const link = linkAuth(path.join(dataDir, "auth.json"), opts.user.authFile);
  if (link) notices.push(link);

  const read = readUserProviderSections(opts.user.configFile);
  notices.push(...read.notices);
  const configFile = path.join(configDir, "opencode.json");
  const config = buildOpenCodeConfig({ user: read.sections, extraProviders: opts.extraProviders, pluginFile });
  writeIfChanged(configFile, JSON.stringify(config, null, 2) + "\n");

  return { root, env: dirs, configDir, configFile, pluginFile, workDir, envRefs: read.sections.envRefs, notices };
}

/** Links `linkPath` → the user's auth.json (reads and OAuth refreshes go through the link). Returns a notice or null. */
function linkAuth(linkPath: string, target: string | null): string | null {
  let current: string | null = null;
  try {
    current = fs.readlinkSync(linkPath);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EINVAL") {
      // A regular file is in the way (not ours: we never copy). Keep it aside rather than delete credentials.
      fs.renameSync(linkPath, `${linkPath}.replaced-${Date.now()}`);
    }
  }
  const wanted = target && fs.existsSync(target) ? path.resolve(target) : null;
  if (current === wanted) return null;
  if (current !== null) fs.rmSync(linkPath, { force: true });
  if (!wanted) return null; // no logins: OpenCode starts with none (env API keys still work)
  try {
    fs.symlinkSync(wanted, linkPath, "file");
    return null;
  } catch (err) {
    return `Could not link your OpenCode logins (${wanted}): ${(err as Error).message}. Only API keys from the environment are available.`;
  }
}

function writeIfChanged(file: string, content: string): void {
  try {
    if (fs.readFileSync(file, "utf8") === content) return;
  } catch {}
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, content, { mode: 0o600 });
  fs.renameSync(tmp, file);
}
