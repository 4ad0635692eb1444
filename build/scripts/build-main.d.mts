// Types of build-main.mjs (the Electron main bundle build).

/** The repository root. */
export const ROOT: string;

/** esbuild plugin mapping each own module's import.meta.{url,dirname,filename} to its source location. */
export function importMetaShimPlugin(root?: string): { name: string; setup(build: unknown): void };

/** JS source of the run-time helper `__patchbaySourcePath(rel)` the shimmed modules call (prefers app.asar.unpacked). */
export function shimBanner(bundleToRoot: string): string;

/** Bundles main/ + server/ + shared/ into `<outdir>/main.cjs` and copies the icons; returns the bundle path. */
export function buildMain(opts?: { outdir?: string; quiet?: boolean }): Promise<string>;
