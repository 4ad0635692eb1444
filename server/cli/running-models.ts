// The model list of the Patchbay running on the CLI's data folder (the CLI has no OpenCode of its own), for the
// commands that check a model name before saving it (app alias, route, fallback, allowlist patterns).
import type { ModelInfo } from "../core/contract";
import type { CliContext } from "./context";

/**
 * The models the running Patchbay lists, or why there is no list: no Patchbay runs on this data folder, or it could
 * not list them (OpenCode not up yet). Never throws. The admin client is loaded here, on first use: most commands
 * never need it.
 */
export async function runningModels(ctx: CliContext): Promise<{ models: ModelInfo[] } | { why: string }> {
  const { findRunningPatchbay } = await import("../connect/running-patchbay");
  const running = await findRunningPatchbay(ctx.dataDir()).catch(() => null);
  if (!running) return { why: "no Patchbay is running on this data folder" };
  try {
    const catalog = await running.client.getModels();
    return { models: catalog.providers.flatMap((p) => p.models) as ModelInfo[] };
  } catch (err) {
    return {
      why: `the running Patchbay could not list its models (${err instanceof Error ? err.message : String(err)})`,
    };
  }
}
