// Maps OpenCode's error shapes (APIError, ProviderAuthError, retry statuses, …) to neutral ModelErrors with the right
// status and a clear message that never leaks credentials (pure). Status rules: the backend brief / DESIGN §3.
import type { ModelError } from "../../core/contract";

/** Text the companion plugin throws when OpenCode tries a second model call (see protocol/companion-plugin.ts). */
export const SINGLE_STEP_REFUSAL = "patchbay: refusing a second model call for a single-step request";
/** Prefix of the plugin's fail-closed error (no spec for a bridge session). */
export const FAIL_CLOSED_PREFIX = "patchbay: no request data";

/** An OpenCode error object as it appears in `session.error` and `AssistantMessage.error`. */
export interface OpenCodeErrorShape {
  name?: unknown;
  data?: unknown;
}

/** How 429s read when only their message is known (retry statuses). Providers word them freely: "slow down",
 *  "throttled", "tokens per min (TPM)"; OpenCode rewrites some to "Too Many Requests". */
const RATE_LIMIT_TEXT =
  /rate.?limit|too.?many.?requests|too many|\b429\b|quota|resource.?exhausted|usage limit|free usage exceeded|slow(?:ing)?\s*down|throttl|(?:requests|tokens) per (?:second|minute|min|hour|day)|\b[RT]P[MD]\b/i;

/** How an exhausted quota or credit balance reads (OpenAI `insufficient_quota`, "exceeded your current quota",
 *  "credit balance is too low", "billing"): retrying later does not help, unlike a rate limit. */
const QUOTA_TEXT = /insufficient.?quota|exceeded your current quota|credit balance|out of credits|billing/i;

/** How a context-window overflow reads when the provider sends no `context_length_exceeded` code. */
const CONTEXT_TEXT = /context.?length|maximum context|context window|prompt is too long|too many (?:input )?tokens/i;

/** The AI SDK's UnsupportedFunctionalityError text; group 1 names what was refused. */
const UNSUPPORTED_TEXT = /'([^']{1,200})' functionality not supported/i;

/** Replaces things that look like credentials (API keys, bearer tokens, long opaque tokens) with `[redacted]`. */
export function redactSecrets(text: string): string {
  return text
    .replace(/Bearer\s+[^\s"',]+/gi, "Bearer [redacted]")
    .replace(/\b(?:sk|pk|rk|ak|key|api|token)[-_][A-Za-z0-9_\-*.]{6,}/gi, "[redacted]")
    .replace(/\b[A-Za-z0-9_-]{32,}\b/g, "[redacted]");
}

/**
 * The neutral error for an OpenCode error object, or null when it is not an error for the client: the plugin's
 * single-step refusal (the first step's output stands), content filter / output length (reported as finish reasons).
 */
export function mapOpenCodeError(error: OpenCodeErrorShape): ModelError | null {
  const name = typeof error.name === "string" ? error.name : "UnknownError";
  const data = isRecord(error.data) ? error.data : {};
  const message = firstLine(typeof data.message === "string" ? data.message : name);
  switch (name) {
    case "APIError":
      return mapApiError(data, message);
    case "ProviderAuthError":
      return {
        code: "upstream_auth_error",
        status: 502,
        message: `The provider rejected the login: ${redactSecrets(message)}. Log in again in OpenCode.`,
      };
    case "ContextOverflowError":
      return {
        code: "upstream_bad_request",
        status: 400,
        message: `The conversation is too long for this model: ${redactSecrets(message)}`,
        kind: "context_length",
      };
    case "ContentFilterError":
    case "MessageOutputLengthError":
      return null;
    case "StructuredOutputError":
      return {
        code: "upstream_error",
        status: 502,
        message:
          "The model did not produce the structured output requested by response_format (it answered with something else).",
      };
    case "MessageAbortedError":
      return { code: "upstream_error", status: 502, message: "The OpenCode run was aborted before it finished." };
    default: {
      if (message.includes(SINGLE_STEP_REFUSAL)) return null;
      if (message.includes(FAIL_CLOSED_PREFIX)) {
        return {
          code: "backend_unavailable",
          status: 503,
          message: "Patchbay's companion plugin could not read this request's data; nothing was sent to the model.",
        };
      }
      if (/^Model not found/i.test(message))
        return { code: "model_not_found", status: 404, message: redactSecrets(message) };
      // The AI SDK's UnsupportedFunctionalityError ("'file part media type text/x-foo' functionality not supported."):
      // the provider's converter refused a part of the client's request before calling the provider. The client's
      // input, not a provider failure: 400.
      const unsupported = UNSUPPORTED_TEXT.exec(message);
      if (unsupported) {
        const what = unsupported[1] ?? "this input";
        return {
          code: "invalid_request_error",
          status: 400,
          message: `This model's provider cannot take ${what}. ${
            /media type|file part/i.test(what)
              ? "Send images, PDF documents (application/pdf) or text files (text/*), or another model."
              : "Remove it from the request, or use another model."
          }`,
        };
      }
      return { code: "upstream_error", status: 502, message: `OpenCode failed: ${redactSecrets(message)}` };
    }
  }
}

/**
 * The error for a `session.status {type:"retry"}`: OpenCode would silently retry (up to 5× over ~1 min). The retry
 * status carries only the upstream message and the next attempt time (opencode 1.18.33 records the APIError with its
 * statusCode on the message only after the last retry, and no event or plugin hook carries it earlier), so 429 is
 * recognised by its text ({@link RATE_LIMIT_TEXT}) and `retryAfter` is derived from `next` (OpenCode honours the
 * upstream's retry-after header there). A 429 worded otherwise becomes a 502.
 */
export function mapRetryStatus(message: string, next: number | undefined, receivedAt: number): ModelError {
  const clean = redactSecrets(firstLine(message));
  if (RATE_LIMIT_TEXT.test(message)) {
    const err: ModelError = {
      code: "upstream_rate_limited",
      status: 429,
      message: `The provider is rate limiting requests: ${clean}`,
    };
    if (QUOTA_TEXT.test(message)) err.kind = "quota";
    if (next !== undefined && receivedAt > 0 && next > receivedAt)
      err.retryAfter = Math.max(1, Math.ceil((next - receivedAt) / 1000));
    return err;
  }
  if (/cannot connect|unable to connect|socket|econnrefused|fetch failed|timed? ?out/i.test(message)) {
    return { code: "upstream_error", status: 502, message: `Could not reach the provider: ${clean}` };
  }
  return { code: "upstream_error", status: 502, message: `The provider returned an error: ${clean}` };
}

function mapApiError(data: Record<string, unknown>, fallback: string): ModelError {
  const status = typeof data.statusCode === "number" ? data.statusCode : undefined;
  const message = redactSecrets(upstreamMessage(data) ?? fallback);
  if (status === 401 || status === 403) {
    return {
      code: "upstream_auth_error",
      status: 502,
      message: `The provider rejected the credentials (HTTP ${status}): ${message}`,
    };
  }
  if (status === 429) {
    const err: ModelError = {
      code: "upstream_rate_limited",
      status: 429,
      message: `The provider is rate limiting requests: ${message}`,
    };
    if (QUOTA_TEXT.test(message) || upstreamErrorField(data, "code") === "insufficient_quota") err.kind = "quota";
    const retryAfter = retryAfterOf(data.responseHeaders);
    if (retryAfter !== undefined) err.retryAfter = retryAfter;
    return err;
  }
  if (status === 400 || status === 413 || status === 422) {
    const param = upstreamErrorField(data, "param");
    const overflow = upstreamErrorField(data, "code") === "context_length_exceeded" || CONTEXT_TEXT.test(message);
    const kind = overflow ? { kind: "context_length" as const } : {};
    return { code: "upstream_bad_request", status: 400, message, ...(param ? { param } : {}), ...kind };
  }
  if (status !== undefined)
    return { code: "upstream_error", status: 502, message: `The provider answered HTTP ${status}: ${message}` };
  return { code: "upstream_error", status: 502, message: `Could not reach the provider: ${message}` };
}

/** `error.param` (the field the upstream named) or `error.code` (e.g. `context_length_exceeded`,
 *  `insufficient_quota`) of an OpenAI-style upstream body, else null. */
function upstreamErrorField(data: Record<string, unknown>, field: "param" | "code"): string | null {
  if (typeof data.responseBody !== "string") return null;
  try {
    const body: unknown = JSON.parse(data.responseBody);
    const e = isRecord(body) ? body.error : undefined;
    return isRecord(e) && typeof e[field] === "string" ? e[field] : null;
  } catch {
    return null;
  }
}

/** The upstream's own error message: `error.message` of an OpenAI-style body, else OpenCode's message. */
function upstreamMessage(data: Record<string, unknown>): string | undefined {
  if (typeof data.responseBody === "string") {
    try {
      const body: unknown = JSON.parse(data.responseBody);
      if (isRecord(body)) {
        const e = body.error;
        if (isRecord(e) && typeof e.message === "string") return e.message;
        if (typeof e === "string") return e;
        if (typeof body.message === "string") return body.message;
      }
    } catch {}
  }
  return typeof data.message === "string" ? firstLine(data.message) : undefined;
}

function retryAfterOf(headers: unknown): number | undefined {
  if (!isRecord(headers)) return undefined;
  const get = (k: string) => Object.entries(headers).find(([h]) => h.toLowerCase() === k)?.[1];
  const ms = Number.parseFloat(String(get("retry-after-ms") ?? ""));
  if (Number.isFinite(ms) && ms >= 0) return Math.max(1, Math.ceil(ms / 1000));
  const raw = get("retry-after");
  if (raw === undefined) return undefined;
  const secs = Number.parseFloat(String(raw));
  if (Number.isFinite(secs) && secs >= 0) return Math.max(1, Math.ceil(secs));
  return undefined; // an HTTP date would need a clock; the client then gets no Retry-After
}

function firstLine(s: string): string {
  return (s.split("\n")[0] ?? s).replace(/^Error:\s*/, "").trim();
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}
