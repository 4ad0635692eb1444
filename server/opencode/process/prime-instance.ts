// Boots an OpenCode instance and runs its first-prompt set-up ahead of time. Booting alone (any directory-scoped call)
// loads the plugins, but OpenCode does more on an instance's first prompt and a process's first model call (its
// per-directory services, the AI SDK stream, the provider's code paths). One prompt on Patchbay's hidden warm-up
// model (warm-up-model.ts: answered by Patchbay itself, never upstream) in a throwaway session pays for all of it, so
// the user's first request of the tool set does not. Measured (`npm run bench -- --idle`, 2 cores): the first token
// after an early-wake probe ≈ 0.5 s with a `noReply` priming prompt (it stores a message and calls no model),
// 75–88 ms (1.3–1.7 × a warm request's) with the warm-up call. Earlier, in runtime-warm: first request of a
// pre-warmed tool set 2.3 s with the boot alone, 1.4 s primed, 2.6 s cold.
import type { OpencodeClient } from "@opencode-ai/sdk/v2";
import { BRIDGE_AGENT } from "./home/opencode-config";
import { POOLED_SESSION_TITLE } from "../protocol/pooled-session";
import type { CompanionSpec } from "../protocol/companion-plugin";
import { WARM_UP_MODEL_ID, WARM_UP_PROVIDER_ID } from "../protocol/warm-up-model";

/** Per-call bound, ms: the first call into a directory boots its instance (seconds on a busy machine). */
const CALL_TIMEOUT_MS = 30_000;

/** Where the priming session's spec is served to the companion plugin (the SideChannel). */
export interface PrimingSpecs {
  register(sessionID: string, spec: CompanionSpec): void;
  unregister(sessionID: string): void;
}

/** The priming call's request: a one-line system prompt, no history, defaults, one model call at most. */
const PRIMING_SPEC: CompanionSpec = {
  v: 1,
  system: ["Patchbay warm-up: answer ok."],
  messages: [],
  params: { temperature: null, topP: null, topK: null, options: {}, dropOptions: [] },
  singleStep: true,
};

/**
 * Boots and primes the instance `client` is scoped to: one prompt on the warm-up model in a throwaway session. The
 * session carries the pool's title, so history never lists it, and is deleted at the end; its spec is served through
 * `specs` meanwhile (the companion plugin fails closed without one). Throws an Error naming the step that failed
 * (HTTP error, timeout, or the model call's error).
 */
export async function primeInstance(client: OpencodeClient, specs: PrimingSpecs): Promise<void> {
  const signal = () => AbortSignal.timeout(CALL_TIMEOUT_MS);
  const ids = await client.tool.ids({}, { signal: signal() });
  if (ids.error !== undefined) throw new Error(`booting the instance failed: ${JSON.stringify(ids.error)}`);
  const created = await client.session.create({ title: POOLED_SESSION_TITLE }, { signal: signal() });
  const id = created.data?.id;
  if (!id) throw new Error(`creating a priming session failed: ${JSON.stringify(created.error)}`);
  specs.register(id, PRIMING_SPEC);
  try {
    const prompted = await client.session.prompt(
      {
        sessionID: id,
        agent: BRIDGE_AGENT,
        model: { providerID: WARM_UP_PROVIDER_ID, modelID: WARM_UP_MODEL_ID },
        parts: [{ type: "text", text: "patchbay: priming" }],
      },
      { signal: signal() },
    );
    if (prompted.error !== undefined) throw new Error(`the priming prompt failed: ${JSON.stringify(prompted.error)}`);
    const failed = prompted.data?.info.role === "assistant" ? prompted.data.info.error : undefined;
    if (failed) throw new Error(`the warm-up model call failed: ${JSON.stringify(failed)}`);
  } finally {
    specs.unregister(id);
    await client.session.delete({ sessionID: id }, { signal: signal() }).catch(() => {});
  }
}
