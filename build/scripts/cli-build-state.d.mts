// Types of cli-build-state.mjs (is the compiled CLI fresh?).

export const MANIFEST_VERSION: number;
export function freshCliBuild(opts?: {
  root?: string;
  distDir?: string;
}): Promise<{ entry: string } | { entry: null; reason: string }>;
