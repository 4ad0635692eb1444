// In-memory stand-in for the OpenCode calls of the history service (OpenCodeHistoryPort): sessions per directory,
// v2-style opaque anchor cursors (newest first by creation, configurable order among ties), status, delete, and
// messages with OpenCode's "cannot encode" failure. Test-only.
import path from "node:path";
import { PatchbayError } from "../../../server/core/errors";
import {
  InvalidOpenCodeCursorError,
  UnreadableMessagesError,
  type OpenCodeHistoryPort,
  type RawMessage,
  type RawSession,
} from "../../../server/history/opencode-port";

export interface FakeSession extends RawSession {
  messages: RawMessage[];
  /** Message ids OpenCode cannot encode (structured-output bug). */
  unreadable: Set<string>;
}

/** Counts of calls, for cost assertions. */
export interface CallCounts {
  list: number;
  status: number;
  get: number;
  delete: number;
  messages: number;
  message: number;
}

export class FakeOpenCode implements OpenCodeHistoryPort {
  readonly sessions = new Map<string, FakeSession>();
  readonly busy = new Set<string>();
  readonly calls: CallCounts = { list: 0, status: 0, get: 0, delete: 0, messages: 0, message: 0 };
  /** How ties in creation time are ordered by the fake's list (OpenCode's own tie order is an implementation detail). */
  tieOrder: "id-asc" | "id-desc" = "id-asc";
  /** Artificial latency of every call, ms. */
  latencyMs = 0;
  /** Called before each delete (tests use it to change state mid-sweep). */
  onDelete: ((id: string) => void) | null = null;
  /** Makes delete throw (simulates OpenCode failing). */
  failDeletes = false;
  /** Makes listing throw (simulates OpenCode down). */
  failLists = false;
  private seq = 0;

  /** Adds a session; ids sort by creation order like OpenCode's. */
  add(directory: string, createdAt: number, init: Partial<FakeSession> = {}): FakeSession {
    const id = init.id ?? `ses_${String(++this.seq).padStart(8, "0")}x${Math.random().toString(36).slice(2, 8)}`;
    const s: FakeSession = {
      id,
      title: init.title ?? `session ${this.seq}`,
      directory,
      createdAt,
      updatedAt: init.updatedAt ?? createdAt,
      model: init.model ?? null,
      tokens: init.tokens ?? { input: 0, output: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0 },
      cost: init.cost ?? 0,
      messages: init.messages ?? [],
      unreadable: init.unreadable ?? new Set(),
    };
    this.sessions.set(id, s);
    return s;
  }

  private async tick(): Promise<void> {
    if (this.latencyMs > 0) await new Promise((r) => setTimeout(r, this.latencyMs));
  }

  private order(a: FakeSession, b: FakeSession): number {
    if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt;
    const byId = a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    return this.tieOrder === "id-asc" ? byId : -byId;
  }

  async listSessions(
    directory: string,
    opts: { limit: number; cursor?: string; search?: string; order?: "asc" | "desc" },
  ) {
    if (this.failLists) throw new PatchbayError("backend_unavailable", "OpenCode is not running.");
    this.calls.list++;
    await this.tick();
    const dir = opts.order === "asc" ? -1 : 1;
    const order = (a: FakeSession, b: FakeSession) => dir * this.order(a, b);
    let all = [...this.sessions.values()].filter((s) => s.directory === directory).sort(order);
    if (opts.search) {
      // Like OpenCode: SQL `title LIKE '%search%'`, where `%` and `_` are wildcards (ASCII case-insensitive).
      const like = opts.search
        .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
        .replace(/%/g, ".*")
        .replace(/_/g, ".");
      const re = new RegExp(like, "is");
      all = all.filter((s) => re.test(s.title));
    }
    if (opts.cursor) {
      let anchor: { id: string; time: number; dir: string };
      try {
        anchor = JSON.parse(Buffer.from(opts.cursor, "base64url").toString());
      } catch {
        throw new InvalidOpenCodeCursorError();
      }
      if (anchor.dir !== directory) throw new InvalidOpenCodeCursorError();
      const probe = { createdAt: anchor.time, id: anchor.id } as FakeSession;
      all = all.filter((s) => order(s, probe) > 0);
    }
    const items = all.slice(0, opts.limit).map(strip);
    const last = items.at(-1);
    const next =
      items.length < opts.limit || !last
        ? null
        : Buffer.from(JSON.stringify({ id: last.id, time: last.createdAt, dir: directory })).toString("base64url");
    return { items, next };
  }

  async busySessions(directory: string) {
    this.calls.status++;
    await this.tick();
    return new Set([...this.busy].filter((id) => this.sessions.get(id)?.directory === directory));
  }

  async getSession(id: string) {
    this.calls.get++;
    await this.tick();
    const s = this.sessions.get(id);
    return s ? strip(s) : null;
  }

  async deleteSession(id: string) {
    this.calls.delete++;
    this.onDelete?.(id);
    await this.tick();
    if (this.failDeletes) throw new Error("connection refused");
    return this.sessions.delete(id) ? ("deleted" as const) : ("missing" as const);
  }

  async messages(id: string, _directory: string, opts: { limit: number; before?: string }) {
    this.calls.messages++;
    await this.tick();
    const s = this.sessions.get(id);
    if (!s) throw new Error("no such session");
    let end = s.messages.length;
    if (opts.before) end = s.messages.findIndex((m) => m.info.id === opts.before);
    const start = Math.max(0, end - opts.limit);
    const items = s.messages.slice(start, end);
    if (items.some((m) => s.unreadable.has(m.info.id)))
      throw new UnreadableMessagesError("Expected OutputFormatJsonSchema");
    return { items, next: start > 0 ? (items[0]?.info.id ?? null) : null };
  }

  async message(id: string, _directory: string, messageId: string) {
    this.calls.message++;
    await this.tick();
    const s = this.sessions.get(id);
    const m = s?.messages.find((x) => x.info.id === messageId);
    if (!m) return null;
    if (s?.unreadable.has(messageId)) throw new UnreadableMessagesError("Expected OutputFormatJsonSchema");
    return m;
  }
}

function strip(s: FakeSession): RawSession {
  return {
    id: s.id,
    title: s.title,
    directory: s.directory,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    model: s.model,
    tokens: s.tokens,
    cost: s.cost,
  };
}

/** App directories over a fixed map (no disk). */
export function fakeDirectories(root: string, tree: Record<string, string[]>) {
  return {
    async list(app: string) {
      return (tree[app] ?? []).map((t) => path.join(root, app, t)).sort();
    },
    owns(app: string, directory: string) {
      const rel = path.relative(path.join(root, app), directory);
      return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
    },
  };
}

/** A user message with one text part. */
export function userMessage(id: string, text: string, created = 1): RawMessage {
  return { info: { id, role: "user", time: { created } }, parts: [{ id: `${id}-p`, type: "text", text }] };
}

/** An assistant message answering `parentID` with one text part. */
export function assistantMessage(id: string, parentID: string, text: string, created = 2): RawMessage {
  return {
    info: {
      id,
      role: "assistant",
      parentID,
      providerID: "mock",
      modelID: "mock-model",
      time: { created, completed: created + 1 },
      finish: "stop",
    },
    parts: [
      { id: `${id}-s`, type: "step-start" },
      { id: `${id}-p`, type: "text", text },
    ],
  };
}
