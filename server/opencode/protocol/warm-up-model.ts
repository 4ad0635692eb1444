// The warm-up model: a hidden OpenCode provider whose upstream is Patchbay's own side channel, so priming an instance
// can run one whole model call (OpenCode's prompt loop, its per-directory services, the AI SDK stream, the
// openai-compatible provider) without spending a byte of the user's subscription. Measured with `npm run bench --
// --idle`: the first request after an early-wake probe went from ≈ 0.5 s (a `noReply` priming prompt, which never
// reaches a model) to about a warm request's first token. Never offered to clients (mapProviders drops it).
import type http from "node:http";

/** Provider id of the warm-up model in Patchbay's OpenCode config; hidden from every model list. */
export const WARM_UP_PROVIDER_ID = "patchbay-warm-up";
/** Model id of the warm-up model. */
export const WARM_UP_MODEL_ID = "warm-up";
/** Path prefix the side channel answers the warm-up model's calls under (OpenAI base URL `<side channel>/warm-up/v1`). */
export const WARM_UP_PATH = "/warm-up/v1";
/** Request bodies read at most (a priming prompt is a few hundred bytes; the rest is drained unread). */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The provider block for `provider["patchbay-warm-up"]` in Patchbay's opencode.json. The URL and token come from the
 * environment Patchbay gives `opencode serve` (`{env:…}` is OpenCode's config substitution), so the file holds no
 * secret and stays valid across side-channel restarts.
 */
export function warmUpProviderConfig(): Record<string, unknown> {
  return {
    npm: "@ai-sdk/openai-compatible",
    name: "Patchbay warm-up (internal)",
    options: {
      baseURL: `{env:PATCHBAY_SIDE_CHANNEL_URL}${WARM_UP_PATH}`,
      apiKey: "patchbay-warm-up",
      headers: { "x-patchbay-token": "{env:PATCHBAY_SIDE_CHANNEL_TOKEN}" },
    },
    models: {
      [WARM_UP_MODEL_ID]: {
        name: "Patchbay warm-up (internal)",
        tool_call: true,
        attachment: false,
        reasoning: false,
        temperature: true,
        limit: { context: 8192, output: 16 },
      },
    },
  };
}

/**
 * Answers one warm-up call (`POST <WARM_UP_PATH>/chat/completions`, already authenticated): the body is drained and
 * ignored, the answer is the two-word reply "ok" as an OpenAI chat completion: an SSE stream of chunks (role and
 * content, then `finish_reason: "stop"` with usage, then `[DONE]`) when the body asks `"stream": true`, else one
 * `chat.completion` object. Anything else under the prefix is a 404 in OpenAI's error envelope.
 */
export function answerWarmUp(req: http.IncomingMessage, res: http.ServerResponse): void {
  if (req.method !== "POST" || req.url !== `${WARM_UP_PATH}/chat/completions`) {
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { message: "not found", type: "invalid_request_error" } }));
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  req.on("data", (c: Buffer) => {
    size += c.length;
    if (size <= MAX_BODY_BYTES) chunks.push(c);
  });
  req.on("end", () => {
    const stream = wantsStream(Buffer.concat(chunks).toString("utf8"));
    const id = `chatcmpl-warm-up-${Date.now()}`;
    const created = Math.floor(Date.now() / 1000);
    const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
    if (!stream) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id,
          object: "chat.completion",
          created,
          model: WARM_UP_MODEL_ID,
          choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }],
          usage,
        }),
      );
      return;
    }
    const chunk = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) =>
      `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: WARM_UP_MODEL_ID, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.end(chunk({ role: "assistant", content: "ok" }, null) + chunk({}, "stop", { usage }) + "data: [DONE]\n\n");
  });
}

/** `"stream": true` in the body (a body that is not JSON is answered as not streamed). */
function wantsStream(body: string): boolean {
  try {
    return (JSON.parse(body) as { stream?: unknown }).stream === true;
  } catch {
    return false;
  }
}
