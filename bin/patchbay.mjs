#!/usr/bin/env node
// The `patchbay` command (package.json "bin"; `npm run patchbay -- …` in the repo, `node bin/patchbay.mjs …`, or the
// `patchbay` shim `install-cli` writes). Runs the CLI compiled ahead of time into dist/cli/ (build/scripts/build-cli.mjs)
// and rebuilds it first when any source it was built from changed, so an edit or a git pull never runs stale code.
// Where it cannot build (no esbuild, a read-only folder), it runs the TypeScript sources through tsx as before;
// PATCHBAY_CLI_TSX=1 forces that (the benchmark's baseline). Must stay small: it runs before every command.
import { pathToFileURL } from "node:url";

/** The CLI module (server/cli.ts's exports), compiled or from source. */
async function loadCli() {
  const debug = process.env.PATCHBAY_DEBUG === "1";
  if (process.env.PATCHBAY_CLI_TSX !== "1") {
    try {
      const { freshCliBuild } = await import("../build/scripts/cli-build-state.mjs");
      const fresh = await freshCliBuild();
      let entry = fresh.entry;
      if (entry === null) {
        if (debug || process.stderr.isTTY) process.stderr.write(`patchbay: compiling the CLI (${fresh.reason})…\n`);
        const { buildCli } = await import("../build/scripts/build-cli.mjs");
        entry = (await buildCli({ quiet: true })).entry;
      }
      return await import(pathToFileURL(entry).href);
    } catch (err) {
      if (debug) process.stderr.write(`patchbay: running the sources through tsx (${err?.message ?? err})\n`);
    }
  }
  const { register } = await import("tsx/esm/api");
  register();
  return import("../server/cli.ts");
}

const { main } = await loadCli();
process.exitCode = await main(process.argv);
