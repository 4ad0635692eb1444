// The shape of a hint's command, for code that names a Patchbay command in a message but does not know how this
// machine runs Patchbay (connect/patchbay-command.ts builds it: PATH lookup, the data folder).

/** Builds the command a message tells the user to run: `cli("app list")` → `patchbay --data-dir '/x' app list`. */
export type CliCommand = (args: string) => string;

/** `patchbay <args>`: for messages to API clients (they may be on another machine: no local path or data folder in
 *  what they are told), and for code not told how this machine runs Patchbay (a store opened by a test). */
export const bareCli: CliCommand = (args) => `patchbay ${args}`;
