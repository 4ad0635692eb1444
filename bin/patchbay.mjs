#!/usr/bin/env node
// The `patchbay` command (package.json "bin"; `npx patchbay …` in the repo, or `node bin/patchbay.mjs …`).
// Registers tsx so the TypeScript server runs without a build step, then hands over to server/cli.ts.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../server/cli.ts");
process.exitCode = await main(process.argv);
