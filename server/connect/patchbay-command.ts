// How a hint tells the user to call Patchbay: `patchbay …` when a `patchbay` command is on PATH (installed globally),
// else `npx patchbay …` (the form that works in any folder where Patchbay is installed as a package). Every CLI,
// connect and verify hint builds its command here.
import { findOnPath } from "./find-binary";

/** `npx patchbay <args>`, or `patchbay <args>` when `patchbay` is on `env.PATH`. */
export function patchbayCommand(args: string, env: Record<string, string | undefined> = process.env): string {
  return `${findOnPath("patchbay", env) ? "patchbay" : "npx patchbay"} ${args}`;
}
