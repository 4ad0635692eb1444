// The coding agents Patchbay can launch (`patchbay launch`) and set up (`patchbay connect`), looked up by name.
import type { ConnectClientId } from "../../shared/admin/connect";
import { claudeCode } from "./claude-code";
import { codex } from "./codex";
import { openCode } from "./opencode";
import { claudeDesktop } from "./claude-desktop";
import { copilot } from "./copilot";
import type { ClientConfigFile, ClientSpec, LaunchableClient } from "./types";

/** Every client, in the order help texts list them. */
export const CLIENTS: readonly ClientSpec[] = [claudeCode, codex, openCode, copilot, claudeDesktop];

/** The client has an executable and a launch plan (`patchbay launch` can start it). */
export function isLaunchable(c: ClientSpec): c is LaunchableClient {
  return c.launch !== undefined && c.bin !== undefined && c.binEnv !== undefined;
}

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

/** Edit distance of two short names (insert, delete, substitute: 1 each). */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(
        (prev[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    prev = row;
  }
  return prev[b.length] ?? 0;
}

/** The accepted name closest to `name` (a prefix of it, or at most 2 edits away), for "Did you mean"; else null. */
export function suggestClient(name: string, filter: (c: ClientSpec) => boolean = () => true): string | null {
  const n = name.trim().toLowerCase();
  if (n === "") return null;
  let best: { name: string; d: number } | null = null;
  for (const c of CLIENTS.filter(filter))
    for (const candidate of [c.id, ...c.aliases]) {
      const d = distance(n, candidate);
      const near = d <= 2 || (n.length >= 3 && candidate.startsWith(n));
      if (near && (!best || d < best.d)) best = { name: candidate, d };
    }
  return best?.name ?? null;
}

/** `Unknown client "x". Did you mean "y"? Supported: …` */
export function unknownClientMessage(name: string, filter: (c: ClientSpec) => boolean = () => true): string {
  const guess = suggestClient(name, filter);
  return `Unknown client "${name}".${guess ? ` Did you mean "${guess}"?` : ""} Supported: ${clientNames(filter)}.`;
}
