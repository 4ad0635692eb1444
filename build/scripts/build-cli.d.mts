// Types of build-cli.mjs (the compiled `patchbay` CLI in dist/cli/).
import type { Metafile } from "esbuild";

export const ROOT: string;
export const CLI_DIST: string;
export function buildCli(opts?: { quiet?: boolean; distDir?: string }): Promise<{ entry: string; metafile: Metafile }>;
