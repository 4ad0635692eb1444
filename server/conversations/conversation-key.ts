// Which conversation a request belongs to, from what clients already send: Claude Code's `x-claude-code-session-id`
// header, Codex's session/thread id headers, a Responses `previous_response_id` chain, else the conversation's opening
// (system text and first user message), which every later turn of a chat repeats. Pure; no I/O.
import crypto from "node:crypto";
import type { NeutralRequest } from "../core/contract";

/** Request headers as Node gives them (lower-case names). */
export type Headers = Record<string, string | string[] | undefined>;

/** Header names of client session ids, most specific first, with the key prefix each one gets. */
const SESSION_HEADERS: readonly (readonly [string, string])[] = [
  ["x-claude-code-session-id", "claude-code"],
  ["session-id", "codex"],
  ["session_id", "codex"],
  ["thread-id", "codex"],
  ["thread_id", "codex"],
  ["conversation_id", "codex"],
];

/** Longest id kept from a header (longer ones are hashed, so a client cannot bloat the index). */
const MAX_ID = 100;

function header(headers: Headers, name: string): string | null {
  const v = headers[name];
  const s = Array.isArray(v) ? v[0] : v;
  const t = s?.trim();
  return t ? t : null;
}

function digest(value: unknown): string {
  return crypto.createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 24);
}

/** What {@link conversationKey} reads of one request. */
export interface ConversationInput {
  headers: Headers;
  /** The request body as the client sent it (only `previous_response_id` is read). */
  body: unknown;
  request: Pick<NeutralRequest, "system" | "messages">;
}

/**
 * The request's conversation key (`claude-code:<id>`, `codex:<id>`, `prefix:<hash>`, or the key of the response it
 * continues). `conversationOfResponse` maps a stored response id to the key its request got (null when unknown: the
 * chain then starts at that response, `response:<id>`).
 */
export function conversationKey(
  input: ConversationInput,
  conversationOfResponse: (responseId: string) => string | null,
): string {
  for (const [name, prefix] of SESSION_HEADERS) {
    const id = header(input.headers, name);
    if (id) return `${prefix}:${id.length <= MAX_ID ? id : digest(id)}`;
  }
  const body = input.body as { previous_response_id?: unknown } | null | undefined;
  const prev = typeof body === "object" && body !== null ? body.previous_response_id : undefined;
  if (typeof prev === "string" && prev) return conversationOfResponse(prev) ?? `response:${digest(prev)}`;
  const first = input.request.messages.find((m) => m.role === "user") ?? null;
  return `prefix:${digest({ system: input.request.system, first })}`;
}
