// Turns one finished model request into its request record (request-index.ts): conversation key and title, when it
// came, the stored response it made, and the client tool results it carried.
import { redactString, redactValue } from "../stores/redact";
import type { NeutralRequest } from "../core/contract";
import { conversationKey, type Headers } from "./conversation-key";
import type { RequestIndex } from "./request-index";
import { conversationTitle } from "./session-title";

/** What the model-request runner knows of a request that used a session. */
export interface FinishedRequest {
  app: string;
  sessionId: string;
  /** When the request reached Patchbay (epoch ms). */
  receivedAt: number;
  headers: Headers;
  /** The body as the client sent it. */
  body: unknown;
  request: NeutralRequest;
  /** The stored response it created (`resp_…`), if any. */
  responseId?: string | undefined;
}

/** Results of client tool calls in the request's messages, by call id. */
export function carriedResults(request: Pick<NeutralRequest, "messages">): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of request.messages) if (m.role === "tool") out[m.toolCallId] = m.content;
  return out;
}

/** A recorder for the runner's `recordRequest` hook. Never throws; failures go to `log`. */
export function createRequestRecorder(index: RequestIndex, log: (line: string) => void) {
  return async (r: FinishedRequest): Promise<void> => {
    try {
      const prev = (r.body as { previous_response_id?: unknown } | null)?.previous_response_id;
      // A Responses chain continues the conversation of the response it names.
      const chained = typeof prev === "string" && prev ? await index.conversationOfResponse(r.app, prev) : null;
      const conversation = conversationKey({ headers: r.headers, body: r.body, request: r.request }, () => chained);
      const results = carriedResults(r.request);
      await index.add(r.app, {
        session: r.sessionId,
        receivedAt: r.receivedAt,
        conversation,
        // Records are files beside the logs: keys and Bearer tokens a user pasted are scrubbed as in logged bodies.
        conversationTitle: redactTitle(conversationTitle(r.request.messages)),
        ...(r.responseId ? { response: r.responseId } : {}),
        ...(Object.keys(results).length ? { results: redactValue(results) as typeof results } : {}),
      });
    } catch (err) {
      log(
        `[history] could not record request of session ${r.sessionId}: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  };
}

/** A title with keys and Bearer tokens scrubbed (null stays null: the request had no words of the user's own). */
function redactTitle(title: string | null): string | null {
  return title === null ? null : redactString(title);
}
