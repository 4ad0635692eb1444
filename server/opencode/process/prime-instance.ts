// Boots an OpenCode instance and runs its first-prompt set-up ahead of time. Booting alone (any directory-scoped call)
// loads the plugins, but OpenCode does more on an instance's first prompt; a `noReply` prompt (stores a user message,
// calls no model) in a throwaway session pays for it, so the user's first request of the tool set does not. Measured
// in runtime-warm: first request of a pre-warmed tool set 2.3 s with the boot alone, 1.4 s primed, 2.6 s cold.
import type { OpencodeClient } from "@opencode-ai/sdk/v2";
import { BRIDGE_AGENT } from "./home/opencode-config";
import { POOLED_SESSION_TITLE } from "../protocol/pooled-session";

/** Per-call bound, ms: the first call into a directory boots its instance (seconds on a busy machine). */
const CALL_TIMEOUT_MS = 30_000;

/**
 * Boots and primes the instance `client` is scoped to. The throwaway session carries the pool's title, so history
 * never lists it, and is deleted at the end. Throws an Error naming the step that failed (HTTP error or timeout).
 */
export async function primeInstance(client: OpencodeClient): Promise<void> {
  const signal = () => AbortSignal.timeout(CALL_TIMEOUT_MS);
  const ids = await client.tool.ids({}, { signal: signal() });
  if (ids.error !== undefined) throw new Error(`booting the instance failed: ${JSON.stringify(ids.error)}`);
  const created = await client.session.create({ title: POOLED_SESSION_TITLE }, { signal: signal() });
  const id = created.data?.id;
  if (!id) throw new Error(`creating a priming session failed: ${JSON.stringify(created.error)}`);
  try {
    const prompted = await client.session.prompt(
      { sessionID: id, agent: BRIDGE_AGENT, noReply: true, parts: [{ type: "text", text: "patchbay: priming" }] },
      { signal: signal() },
    );
    if (prompted.error !== undefined) throw new Error(`the priming prompt failed: ${JSON.stringify(prompted.error)}`);
  } finally {
    await client.session.delete({ sessionID: id }, { signal: signal() }).catch(() => {});
  }
}
