// Builders of neutral-contract values for tests (server/core/contract.ts): a request and a catalog entry with plain
// defaults, so each test spells out only what it is about. Pure; no I/O.
import type { ModelInfo, NeutralRequest } from "../../server/core/contract";

/** A neutral request with sensible defaults (`mock/mock-model`, one user message "Hello", streaming with usage). */
export function neutralRequest(p: Partial<NeutralRequest> = {}): NeutralRequest {
  return {
    model: "mock/mock-model",
    system: [],
    messages: [{ role: "user", content: [{ type: "text", text: "Hello" }] }],
    tools: [],
    toolChoice: "auto",
    generation: {},
    responseFormat: { type: "text" },
    stream: true,
    includeUsage: true,
    warnings: [],
    ...p,
  };
}

/** A catalog entry for `provider/model` `id`: tool calls and temperature on, no attachments, no reasoning, no
 *  variants, context 1000 / output 100 tokens; `over` replaces any field. */
export function modelInfo(id: string, over: Partial<ModelInfo> = {}): ModelInfo {
  const [providerID = "", modelID = ""] = id.split("/");
  return {
    id,
    providerID,
    modelID,
    name: id,
    providerName: providerID,
    variants: [],
    capabilities: { toolCall: true, attachment: false, reasoning: false, temperature: true },
    limit: { context: 1000, output: 100 },
    npm: null,
    created: 0,
    ...over,
  };
}
