// Admission of one model request: everything that can refuse it before the model is asked — the app's tool limit,
// its concurrency gate, the model (resolved once, here), the model's media support and remote images.
import type { App } from "../../../shared/apps";
import type { ModelInfo, NeutralRequest } from "../../core/contract";
import { PatchbayError } from "../../core/errors";
import { assertModelAcceptsMedia } from "../../core/media-check";
import { assertNeutralInvariants } from "../../core/neutral-invariants";
import { modelsForApp } from "../../core/model-resolver";
import { resolveChain } from "../../routing/chain";
import type { ChainEntry } from "../../routing/fallback";
import { routeError, type RoutedRequest } from "../../routing/roles";
import type { ModelRequestDeps } from "./types";

/** An admitted request: the resolved model, the request with images inlined, and the gate's release. */
export interface Admitted {
  model: ModelInfo;
  /** OpenCode variant chosen by the alias or the `provider/model#variant` id. */
  variant?: string;
  /** `provider/model[#variant]` for the log. */
  resolvedId: string;
  request: NeutralRequest;
  /** The alias's target, then its fallbacks, in order; models no provider offers are missing entries
   *  (routing/chain.ts). One entry when the model has no fallbacks. */
  chain: ChainEntry[];
  /** True when the request's model is an alias with fallbacks (the chain's rules apply). */
  chained: boolean;
  /** True when the model came from an alias or a route: the answer names what served (`x-patchbay-served-model`). */
  indirect: boolean;
  /** Frees the app's concurrency slot; call exactly once. */
  release: () => void;
}

/**
 * Admits `request` for `app`. Throws PatchbayError: 400 `invalid_request_error` (a broken neutral invariant, a request
 * the backend cannot carry, too many tools, media the model
 * cannot read, remote images refused), 429 `rate_limited` (over the app's concurrency; the slot is not taken),
 * 404/403 from model resolution (for a routed request, naming the route and its model), or what the image fetcher
 * throws. On a throw after the slot was taken, the slot is released.
 */
export async function admitRequest(
  app: App,
  request: NeutralRequest,
  deps: ModelRequestDeps,
  signal: AbortSignal,
  /** The route of the request's role: its target is resolved instead of `request.model`. */
  routed?: RoutedRequest | null,
): Promise<Admitted> {
  assertNeutralInvariants(request);
  deps.backend.check?.(request);
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
    const asked = routed?.target ?? request.model;
    let resolved;
    try {
      resolved = resolveChain(app, asked, catalog, deps.cli);
    } catch (err) {
      throw routed ? routeError(app, routed, request.model, err, deps.cli) : err;
    }
    const { first } = resolved;
    assertModelAcceptsMedia(request, first.info, modelsForApp(app, catalog).models);
    const inlined = await deps.inlineImages(request, app.limits.remoteImages, signal);
    const variant = first.target.variant;
    return {
      model: first.info,
      ...(variant ? { variant } : {}),
      resolvedId: variant ? `${first.id}#${variant}` : first.id,
      request: inlined,
      chain: resolved.entries,
      chained: resolved.chained,
      indirect: Boolean(routed) || first.alias !== null || resolved.chained,
      release,
    };
  } catch (err) {
    release();
    throw err;
  }
}
