// `connect`'s check: one real request in the client's own wire (Anthropic Messages for Claude Code, Responses for
// Codex) with the settings read back from the client's config file, turned into OK or what failed and how to fix it.
import type { ConnectVerifyResult } from "../../shared/admin/connect";
import type { ClientSpec, WrittenSettings } from "../clients/types";
import type { CliCommand } from "../core/cli-command";
import { patchbayCommand } from "./patchbay-command";

/** How long the verify request may take (ms): the first request may wait for a model's cold start. */
export const VERIFY_TIMEOUT_MS = 90_000;

/** The request body for the wire. */
/** `text` as a URL, or null (URL.parse is newer than the Node versions Patchbay supports). */
function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/** `text` with what may be a secret hidden: a user name or password (`//…@`) and a query (`?…`), parsed or not. */
function redactedUrl(text: string): string {
  return text.replace(/\/\/[^/?#\s]*@/, "//…@").replace(/\?[^#\s]*/, "?…");
}

/** The path each wire's client posts to (the client adds it to the base URL). */
const ENDPOINT_PATHS: Record<ClientSpec["wire"], string> = {
  "anthropic-messages": "/v1/messages",
  "openai-responses": "/v1/responses",
  "openai-chat": "/v1/chat/completions",
};

/** The check's prompt: its session in the app's history is titled by it, so it says what it was. */
const CHECK_PROMPT = "Patchbay connect check: reply with the word pong.";

function body(wire: ClientSpec["wire"], model: string): unknown {
  if (wire === "anthropic-messages")
    return { model, max_tokens: 16, messages: [{ role: "user", content: CHECK_PROMPT }] };
  if (wire === "openai-responses") return { model, input: CHECK_PROMPT, max_output_tokens: 16 };
  return { model, messages: [{ role: "user", content: CHECK_PROMPT }], max_tokens: 16 };
}

/**
 * Headers the client itself sends: the key as Bearer (OpenAI wires); on the Messages wire the version header and the
 * key as the written auth scheme says (Claude Desktop's `bearer` / `x-api-key`), else both (Claude Code).
 */
function headers(
  wire: ClientSpec["wire"],
  key: string,
  scheme?: WrittenSettings["authScheme"],
): Record<string, string> {
  const h: Record<string, string> = { "content-type": "application/json" };
  if (wire !== "anthropic-messages" || scheme !== "x-api-key") h.authorization = `Bearer ${key}`;
  if (wire === "anthropic-messages") {
    if (scheme !== "bearer") h["x-api-key"] = key;
    h["anthropic-version"] = "2023-06-01";
  }
  return h;
}

/** `error.code` and `error.message` of an OpenAI or Anthropic error body. */
function errorOf(json: unknown): { code: string | null; message: string | null } {
  const e = (json as { error?: { code?: unknown; type?: unknown; message?: unknown } } | null)?.error;
  const code = typeof e?.code === "string" ? e.code : typeof e?.type === "string" ? e.type : null;
  return { code, message: typeof e?.message === "string" ? e.message : null };
}

/** The answer's text (first characters), when the body is a successful answer of the wire. */
function answerText(wire: ClientSpec["wire"], json: unknown): string | null {
  const j = json as Record<string, unknown> | null;
  if (!j) return null;
  if (wire === "anthropic-messages" && j.type === "message" && Array.isArray(j.content))
    return (j.content as { type?: string; text?: string }[])
      .filter((c) => c.type === "text")
      .map((c) => c.text ?? "")
      .join("");
  if (wire === "openai-responses" && j.object === "response" && Array.isArray(j.output))
    return (j.output as { type?: string; content?: { type?: string; text?: string }[] }[])
      .flatMap((o) => (o.type === "message" ? (o.content ?? []) : []))
      .filter((c) => c.type === "output_text")
      .map((c) => c.text ?? "")
      .join("");
  if (wire === "openai-chat" && Array.isArray(j.choices))
    return String((j.choices[0] as { message?: { content?: string } } | undefined)?.message?.content ?? "");
  return null;
}

/**
 * Sends the request `settings` describe and explains the outcome. `connectCommand` is what the user runs to set the
 * client up again (`patchbay connect codex`); `file` is the config file the settings come from (named when its
 * key is refused). Never throws.
 */
export async function verifyClient(
  client: ClientSpec & { id: ConnectVerifyResult["client"] },
  settings: WrittenSettings,
  connectCommand: string,
  fetchImpl: typeof fetch = fetch,
  timeoutMs = VERIFY_TIMEOUT_MS,
  file: string | null = null,
  /** How hints name a Patchbay command (the data folder included). */
  cli: CliCommand = (args) => patchbayCommand(args),
  /** Where this data folder's Patchbay answers now (null: none runs); asked only when the check failed. */
  runningOrigin?: () => Promise<string | null>,
): Promise<ConnectVerifyResult> {
  const r = await verifyAt(client, settings, connectCommand, fetchImpl, timeoutMs, file, cli);
  if (r.ok || !runningOrigin) return r;
  // Whatever answered (nothing, another server, another Patchbay), the fix is the same when ours runs elsewhere.
  const now = await runningOrigin().catch(() => null);
  const written = parseUrl(settings.url)?.origin;
  if (!now || !written || written === "null" || now === written) return r;
  return {
    ...r,
    hint:
      `Patchbay runs at ${now} now, not at ${written}: run \`${connectCommand}\` again to point it there. A ` +
      "fixed port keeps the address across restarts (the default 4747, or `--port N`; `--port 0` picks a new one each start).",
  };
}

/** {@link verifyClient} without the look at where Patchbay runs now. */
async function verifyAt(
  client: ClientSpec & { id: ConnectVerifyResult["client"] },
  settings: WrittenSettings,
  connectCommand: string,
  fetchImpl: typeof fetch,
  timeoutMs: number,
  file: string | null,
  cli: CliCommand,
): Promise<ConnectVerifyResult> {
  const url = parseUrl(settings.url);
  // A user name or password in the URL is never echoed (it may be a secret).
  const shown = redactedUrl(settings.url);
  const request = `POST ${shown}`;
  const result = (ok: boolean, status: number | null, message: string, hint: string | null): ConnectVerifyResult => ({
    client: client.id,
    ok,
    request,
    status,
    message,
    hint,
  });
  const where = file ? `The base URL in ${file}` : "The base URL";
  const rewrite = (what = "") => `Run \`${connectCommand}\` to write Patchbay's address${what}.`;
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:"))
    return result(
      false,
      null,
      `${where} leads to ${JSON.stringify(shown.slice(0, 200))}, which is no http(s) URL.`,
      rewrite(),
    );
  if (url.username || url.password)
    return result(false, null, `${where} carries a user name or password; Patchbay's address has none.`, rewrite());
  let res: Response;
  try {
    res = await fetchImpl(settings.url, {
      method: "POST",
      headers: headers(client.wire, settings.key, settings.authScheme),
      body: JSON.stringify(body(client.wire, settings.model)),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: "error",
    });
  } catch (err) {
    const reason = (err as Error).name === "TimeoutError" ? `no answer within ${timeoutMs / 1000} s` : "no answer";
    const message = `${request}: ${reason} (${((err as Error).cause as Error | undefined)?.message ?? (err as Error).message}).`;
    return result(
      false,
      null,
      message,
      `Is Patchbay running? Start it with \`${cli("serve")}\` (add \`--demo\` to try it without ` +
        `any login; or open the desktop app), then run \`${connectCommand}\` again.`,
    );
  }
  const text = await res.text().catch(() => "");
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {}
  if (res.ok) {
    const answer = answerText(client.wire, json);
    if (answer === null)
      return result(
        false,
        res.status,
        `${request} answered ${res.status} but not in the ${client.name} wire format.`,
        "Update Patchbay.",
      );
    return result(
      true,
      res.status,
      `${client.name} settings work: ${settings.model} answered "${answer.trim().slice(0, 60)}".`,
      null,
    );
  }
  const { code, message } = errorOf(json);
  const said = message ? `: ${message.replace(/[.\s]+$/, "")}` : "";
  // The server's own advice ("create a key …") would compete with the fix named here: its first sentence only.
  const refused = message ? `: ${message.split(/(?<=\.)\s/)[0]!.replace(/\.$/, "")}` : "";
  if (res.status === 401)
    return result(
      false,
      401,
      file
        ? `The key in ${file} is not accepted (revoked?): run \`${connectCommand}\` again${refused ? ` (Patchbay said${refused})` : ""}.`
        : `Patchbay refused the key${said}.`,
      file ? null : `The key may have been revoked; run \`${connectCommand}\` to write a new one.`,
    );
  if (
    res.status === 404 &&
    (code === "model_not_found" || code === "not_found_error") &&
    message?.includes(settings.model)
  )
    return result(
      false,
      404,
      `Model "${settings.model}" is not available${said}.`,
      `Pick another model: \`${connectCommand} --model MODEL\`.`,
    );
  if (res.status === 404) {
    // The client appends its own path; anything else in front of it (a `/v1` too many, a query) is the mistake.
    const expected = ENDPOINT_PATHS[client.wire];
    return url.pathname === expected && url.search === ""
      ? result(
          false,
          404,
          `This Patchbay does not serve ${expected}${said}.`,
          `Update Patchbay to a version that supports ${client.name}.`,
        )
      : result(
          false,
          404,
          `${where} leads to ${url.pathname}${url.search ? "?…" : ""}, not ${expected}${said}.`,
          rewrite(client.wire === "anthropic-messages" ? " (the server root, without /v1)" : " (ending in /v1)"),
        );
  }
  if (res.status === 403)
    return result(
      false,
      403,
      `The app may not use "${settings.model}"${said}.`,
      `Allow it in the dashboard, or pick another: \`${connectCommand} --model MODEL\`.`,
    );
  if (res.status === 503)
    return result(
      false,
      503,
      `Patchbay cannot answer yet${said}.`,
      "Wait until OpenCode is ready (see the dashboard), then verify again.",
    );
  return result(
    false,
    res.status,
    `${request} failed with HTTP ${res.status}${said}.`,
    "See the request log in the dashboard for details.",
  );
}
