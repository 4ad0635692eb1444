// The shape of a hint's command, for code that names a Patchbay command in a message but does not know how this
// machine runs Patchbay (connect/patchbay-command.ts builds it: PATH lookup, the data folder).

/** Builds the command a message tells the user to run: `cli("app list")` → `patchbay --data-dir '/x' app list`. */
export type CliCommand = (args: string) => string;

/** `patchbay <args>`: for code that is not told how this machine runs Patchbay (a store opened by a test). */
export const bareCli: CliCommand = (args) => `patchbay ${args}`;
