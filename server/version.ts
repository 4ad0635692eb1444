// Patchbay's version, read once from package.json (the single source of truth).
import { readFileSync } from "node:fs";

/** Semver of this Patchbay build. */
export const PATCHBAY_VERSION: string = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version;
