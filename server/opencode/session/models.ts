// Maps OpenCode's connected providers (`GET /config/providers`) to neutral ModelInfo (pure).
import type { Model, Provider } from "@opencode-ai/sdk/v2";
import type { ModelInfo } from "../../core/contract";
import { WARM_UP_PROVIDER_ID } from "../protocol/warm-up-model";

/** Every model of every connected provider, sorted by id; Patchbay's hidden warm-up model is never one. */
export function mapProviders(providers: readonly Provider[]): ModelInfo[] {
  const out: ModelInfo[] = [];
  for (const p of providers) {
    if (p.id === WARM_UP_PROVIDER_ID) continue;
    for (const [modelID, m] of Object.entries(p.models ?? {})) out.push(mapModel(p, modelID, m));
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function mapModel(p: Provider, modelID: string, m: Model): ModelInfo {
  const released = Date.parse(m.release_date ?? "");
  return {
    id: `${p.id}/${modelID}`,
    providerID: p.id,
    modelID,
    name: m.name || modelID,
    providerName: p.name || p.id,
    variants: Object.keys(m.variants ?? {}),
    capabilities: {
      toolCall: !!m.capabilities?.toolcall,
      attachment: !!m.capabilities?.attachment,
      reasoning: !!m.capabilities?.reasoning,
      temperature: !!m.capabilities?.temperature,
    },
    limit: { context: m.limit?.context ?? 0, output: m.limit?.output ?? 0 },
    npm: m.api?.npm || null,
    created: Number.isFinite(released) ? Math.floor(released / 1000) : 0,
  };
}
