// The warm-up model: a hidden OpenCode provider whose upstream is Patchbay's own side channel, so priming an instance
// can run one whole model call (OpenCode's prompt loop, its per-directory services, the AI SDK stream, the
// openai-compatible provider) without spending a byte of the user's subscription. Measured with `npm run bench --
// --idle`: the first request after an early-wake probe went from ≈ 0.5 s (a `noReply` priming prompt, which never
// reaches a model) to 75–88 ms, 1.3–1.7 × a warm request's first token. Never offered to clients (mapProviders drops it).

/** Provider id of the warm-up model in Patchbay's OpenCode config; hidden from every model list. */
export const WARM_UP_PROVIDER_ID = "patchbay-warm-up";
/** Model id of the warm-up model. */
export const WARM_UP_MODEL_ID = "warm-up";
/** Path prefix the side channel answers the warm-up model's calls under (OpenAI base URL `<side channel>/warm-up/v1`). */
export const WARM_UP_PATH = "/warm-up/v1";

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

/** An answer of the warm-up upstream: HTTP status, content type and the whole body. */
export interface WarmUpAnswer {
  status: number;
  contentType: string;
  body: string;
}

/**
 * The answer to one warm-up call (pure; the side channel authenticates, reads the body and writes the answer).
 * `POST <WARM_UP_PATH>/chat/completions` gets the reply "ok" as an OpenAI chat completion: an SSE stream of chunks
 * (role and content, then `finish_reason: "stop"` with usage, then `[DONE]`) when `request` (the parsed body, null
 * when it was not JSON) asks `"stream": true`, else one `chat.completion` object. Anything else is a 404 in OpenAI's
 * error envelope.
 */
export function warmUpAnswer(method: string, url: string, request: unknown): WarmUpAnswer {
  if (method !== "POST" || url !== `${WARM_UP_PATH}/chat/completions`) {
    const error = { message: "not found", type: "invalid_request_error" };
    return { status: 404, contentType: "application/json", body: JSON.stringify({ error }) };
  }
  const id = `chatcmpl-warm-up-${Date.now()}`;
  const created = Math.floor(Date.now() / 1000);
  const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
  if ((request as { stream?: unknown } | null)?.stream !== true) {
    const choices = [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }];
    const completion = { id, object: "chat.completion", created, model: WARM_UP_MODEL_ID, choices, usage };
    return { status: 200, contentType: "application/json", body: JSON.stringify(completion) };
  }
  const chunk = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) =>
    `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: WARM_UP_MODEL_ID, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
  const body = chunk({ role: "assistant", content: "ok" }, null) + chunk({}, "stop", { usage }) + "data: [DONE]\n\n";
  return { status: 200, contentType: "text/event-stream", body };
}
