// Finds an app's tool-set directories (the instance directories its sessions are filed under) and decides whether a
// session's directory belongs to an app. Reads the app's folder only; never creates or removes anything.
import fs from "node:fs";
import path from "node:path";

/** The folders of one app. */
export interface AppDirectories {
  /** Absolute tool-set directories (existing subfolders of the app's folder), sorted by name; [] when none. */
  list(app: string): Promise<string[]>;
  /** True when `directory` is strictly inside the app's folder (also through a symlinked data dir). */
  owns(app: string, directory: string): boolean;
}

function inside(root: string, dir: string): boolean {
  const rel = path.relative(root, dir);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
}

function realpathOr(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

/** Directories under `appsDir(app)` (e.g. `<dataDir>/apps/<app>`), one per tool set. */
export function createAppDirectories(appsDir: (app: string) => string): AppDirectories {
  return {
    async list(app) {
      const root = appsDir(app);
      let entries: fs.Dirent[];
      try {
        entries = await fs.promises.readdir(root, { withFileTypes: true });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
        throw err;
      }
      return entries
        .filter((e) => e.isDirectory())
        .map((e) => path.join(root, e.name))
        .sort();
    },
    owns(app, directory) {
      const root = path.resolve(appsDir(app));
      const dir = path.resolve(directory);
      return inside(root, dir) || inside(realpathOr(root), realpathOr(dir));
    },
  };
}
