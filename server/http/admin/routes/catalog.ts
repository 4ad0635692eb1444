// Groups the backend's flat model list into the catalog the dashboard's pickers show (providers → models).
// Pure: no I/O.
import type { ModelInfo } from "../../../core/contract";
import type { ModelCatalog } from "../../../../shared/admin-api";

/** Providers sorted by name, each with its models sorted by name then id. */
export function groupCatalog(models: readonly ModelInfo[]): ModelCatalog {
  const byProvider = new Map<string, ModelCatalog["providers"][number]>();
  for (const m of models) {
    let p = byProvider.get(m.providerID);
    if (!p) {
      p = { id: m.providerID, name: m.providerName || m.providerID, npm: m.npm, models: [] };
      byProvider.set(m.providerID, p);
    }
    p.models.push({ ...m, variants: [...m.variants], capabilities: { ...m.capabilities }, limit: { ...m.limit } });
  }
  const byName = (a: { name: string; id: string }, b: { name: string; id: string }) =>
    a.name.localeCompare(b.name) || a.id.localeCompare(b.id);
  const providers = [...byProvider.values()].sort(byName);
  for (const p of providers) p.models.sort(byName);
  return { providers };
}
