// The coding agents Patchbay can launch (`patchbay launch`) and set up (`patchbay connect`), looked up by name.
import type { ConnectClientId } from "../../shared/admin/connect";
import { claudeCode } from "./claude-code";
import { codex } from "./codex";
import { openCode } from "./opencode";
import type { ClientConfigFile, ClientSpec } from "./types";

/** Every client, in the order help texts list them. */
export const CLIENTS: readonly ClientSpec[] = [claudeCode, codex, openCode];

/** The client called `name` (its id or an alias, any case), or undefined. */
export function findClient(name: string): ClientSpec | undefined {
  const n = name.trim().toLowerCase();
  return CLIENTS.find((c) => c.id === n || c.aliases.includes(n));
}

/** `claude (claude-code), codex, opencode`: the names accepted on the command line. */
export function clientNames(filter: (c: ClientSpec) => boolean = () => true): string {
  return CLIENTS.filter(filter)
    .map((c) => (c.aliases[0] ? `${c.aliases[0]} (${c.id})` : c.id))
    .join(", ");
}

/** A client with a config file Patchbay can write. */
export type ConnectableClient = ClientSpec & { id: ConnectClientId; config: ClientConfigFile };

/** The connectable client called `name`, or undefined (unknown, or launch-only). */
export function findConnectable(name: string): ConnectableClient | undefined {
  const c = findClient(name);
  return c?.config ? (c as ConnectableClient) : undefined;
}
