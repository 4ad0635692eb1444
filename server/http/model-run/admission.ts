// Admission of one model request: everything that can refuse it before the model is asked — the app's tool limit,
// its concurrency gate, the model (resolved once, here), the model's media support and remote images.
import type { App } from "../../../shared/apps";
import type { ModelInfo, NeutralRequest } from "../../core/contract";
import { PatchbayError } from "../../core/errors";
import { assertModelAcceptsMedia } from "../../core/media-check";
import { assertNeutralInvariants } from "../../core/neutral-invariants";
import { modelsForApp, resolveModel } from "../../core/model-resolver";
import { resolveFallbacks, toTarget } from "../../routing/chain";
import type { ChainTarget } from "../../routing/fallback";
import type { ModelRequestDeps } from "./types";

/** An admitted request: the resolved model, the request with images inlined, and the gate's release. */
export interface Admitted {
  model: ModelInfo;
  /** OpenCode variant chosen by the alias or the `provider/model#variant` id. */
  variant?: string;
  /** `provider/model[#variant]` for the log. */
  resolvedId: string;
  request: NeutralRequest;
  /** The resolved model first, then the alias's fallbacks (routing/chain.ts). */
  chain: ChainTarget[];
  /** Fallbacks no connected provider offers (left out of `chain`). */
  unavailableFallbacks: string[];
  /** Frees the app's concurrency slot; call exactly once. */
  release: () => void;
}

/**
 * Admits `request` for `app`. Throws PatchbayError: 400 `invalid_request_error` (a broken neutral invariant, too many tools, media the model
 * cannot read, remote images refused), 429 `rate_limited` (over the app's concurrency; the slot is not taken),
 * 404/403 from model resolution, or what the image fetcher throws. On a throw after the slot was taken, the slot is
 * released.
 */
export async function admitRequest(
  app: App,
  request: NeutralRequest,
  deps: ModelRequestDeps,
  signal: AbortSignal,
  /** The model to resolve instead of `request.model` (the route of the request's role). */
  routed?: string | null,
): Promise<Admitted> {
  assertNeutralInvariants(request);
  if (request.tools.length > app.limits.maxTools) {
    throw new PatchbayError(
      "invalid_request_error",
      `This request declares ${request.tools.length} tools; the app '${app.name}' allows at most ${app.limits.maxTools}.`,
      { param: "tools" },
    );
  }
  // Over the limit → 429 before any work (model list, image fetches).
  const release = deps.gate.acquire(app.name, app.limits.concurrency);
  try {
    const catalog = await deps.catalog();
    const asked = routed ?? request.model;
    const resolved = resolveModel(app, asked, catalog);
    const fallbacks = resolveFallbacks(app, asked, catalog);
    assertModelAcceptsMedia(request, resolved.info, modelsForApp(app, catalog).models);
    const inlined = await deps.inlineImages(request, app.limits.remoteImages, signal);
    const variant = resolved.target.variant;
    return {
      model: resolved.info,
      ...(variant ? { variant } : {}),
      resolvedId: variant ? `${resolved.id}#${variant}` : resolved.id,
      request: inlined,
      chain: [toTarget(resolved), ...fallbacks.targets],
      unavailableFallbacks: fallbacks.unavailable,
      release,
    };
  } catch (err) {
    release();
    throw err;
  }
}
