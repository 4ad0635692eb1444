// Loopback side channel that serves each Patchbay session's request data (the companion spec) to the plugin.
// Owns only the registry and its HTTP listener; it never builds specs and never talks to OpenCode.
import fs from "node:fs";
import http from "node:http";
import crypto from "node:crypto";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { assertJsonDepth } from "../../core/json-depth";
import { pidAlive } from "../../pid-alive";

/** Depth allowed in a client value inside a spec (the bridge's bound, see spec.ts). */
const MAX_JSON_DEPTH = 256;
import type { CompanionSpec } from "./companion-plugin";
import { WARM_UP_PATH, warmUpAnswer } from "./warm-up-model";

/** Where the plugin reaches the side channel (passed to `opencode serve` as env, never on a command line). */
export interface SideChannelEndpoint {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Sent by the plugin as `x-patchbay-token`. */
  token: string;
}

/** Levels the spec adds around a client value (messages[i].parts[j].state.input, params.options.response_format.json_schema.schema). */
const SPEC_WRAPPING_DEPTH = 8;

/** Request bodies read at most, bytes: a hello is a few hundred; a warm-up call (its request is Patchbay's own
 *  priming prompt) a few thousand. The rest of a longer body is drained unread. */
const HELLO_MAX_BYTES = 64 * 1024;
const WARM_UP_MAX_BYTES = 1024 * 1024;

/** Header the plugin sends the token in. */
export const SIDE_CHANNEL_TOKEN_HEADER = "x-patchbay-token";

/**
 * Registry of request specs by OpenCode session id, served at `GET /spec/:sessionID` on 127.0.0.1 with a random
 * token; also the upstream of the hidden warm-up model (`POST /warm-up/v1/chat/completions`, warm-up-model.ts), with
 * the same token. Unknown sessions get 404 so the plugin fails closed. `start()` is idempotent; `stop()` closes the listener.
 */
export class SideChannel {
  private readonly specs = new Map<string, string>();
  /** Instance directory → pids of the OpenCode processes whose companion plugin announced itself there, newest last
   *  (a recycle's replacement boots instances while the current process still serves them: both must count). */
  private readonly announced = new Map<string, number[]>();
  /** Whether a pid names a live process: announcements of exited processes are dropped, never live ones. */
  private readonly alive: (pid: number) => boolean;
  private readonly secret = crypto.randomBytes(24).toString("hex");
  private server: http.Server | null = null;
  private starting: Promise<SideChannelEndpoint> | null = null;
  private endpointValue: SideChannelEndpoint | null = null;

  /** `alive` (tests) replaces the process-table check. */
  constructor(opts: { alive?: (pid: number) => boolean } = {}) {
    this.alive = opts.alive ?? pidAlive;
  }

  /** Starts listening on a random loopback port (once); resolves to the endpoint. */
  start(): Promise<SideChannelEndpoint> {
    if (this.endpointValue) return Promise.resolve(this.endpointValue);
    if (!this.starting) {
      this.starting = new Promise<SideChannelEndpoint>((resolve, reject) => {
        const server = http.createServer((req, res) => this.handle(req, res));
        server.keepAliveTimeout = 5000;
        server.once("error", reject);
        server.listen(0, "127.0.0.1", () => {
          const { port } = server.address() as AddressInfo;
          this.server = server;
          this.endpointValue = { url: `http://127.0.0.1:${port}`, token: this.secret };
          resolve(this.endpointValue);
        });
      }).finally(() => {
        this.starting = null;
      });
    }
    return this.starting;
  }

  /** `http://127.0.0.1:<port>`; "" before `start()` resolved. */
  get url(): string {
    return this.endpointValue?.url ?? "";
  }

  /** The random token the plugin must send (fixed for the lifetime of this object). */
  get token(): string {
    return this.secret;
  }

  /** The endpoint, or null before `start()` resolved. */
  endpoint(): SideChannelEndpoint | null {
    return this.endpointValue;
  }

  /**
   * Makes `spec` available to the plugin for `sessionID` (serialised once, now). Throws PatchbayError 400 naming the
   * field when the client's values in it nest too deeply to serialise (planBridgeRequest refuses those first).
   */
  register(sessionID: string, spec: CompanionSpec): void {
    // The history wraps a tool call's arguments in message → parts → part → state → input.
    assertJsonDepth(spec.messages, "messages", "the conversation history", MAX_JSON_DEPTH + SPEC_WRAPPING_DEPTH);
    assertJsonDepth(spec.params, "response_format", "the generation parameters", MAX_JSON_DEPTH + SPEC_WRAPPING_DEPTH);
    this.specs.set(sessionID, JSON.stringify(spec));
  }

  /** Forgets a session; the plugin then fails closed for it. */
  unregister(sessionID: string): void {
    this.specs.delete(sessionID);
  }

  /** True when the companion plugin of OpenCode process `pid` announced itself for instance `directory`. */
  pluginLoaded(directory: string, pid: number): boolean {
    return this.announced.get(realpath(directory))?.includes(pid) ?? false;
  }

  /** Number of registered sessions (diagnostics, leak tests). */
  size(): number {
    return this.specs.size;
  }

  /** Closes the listener. Registered specs are kept (a restart of the listener would change the port anyway). */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.endpointValue = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const send = (status: number, body: string) => {
      res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
      res.end(body);
    };
    const given = req.headers[SIDE_CHANNEL_TOKEN_HEADER];
    if (typeof given !== "string" || !safeEqual(given, this.secret)) return send(401, '{"error":"bad token"}');
    if (req.method === "POST" && req.url === "/hello")
      return readBody(req, HELLO_MAX_BYTES, (t) => this.hello(t, send));
    if (req.url?.startsWith(`${WARM_UP_PATH}/`)) {
      return readBody(req, WARM_UP_MAX_BYTES, (text) => {
        const answer = warmUpAnswer(req.method ?? "", req.url ?? "", safeJson(text));
        res.writeHead(answer.status, { "content-type": answer.contentType, "cache-control": "no-store" });
        res.end(answer.body);
      });
    }
    const match = /^\/spec\/([^/?#]+)$/.exec(req.url ?? "");
    if (req.method !== "GET" || !match?.[1]) return send(404, '{"error":"not found"}');
    const spec = this.specs.get(decodeURIComponent(match[1]));
    if (spec === undefined) return send(404, '{"error":"unknown session"}');
    send(200, spec);
  }

  /** Records a plugin's announcement (`text`: the hello's body). */
  private hello(text: string, send: (status: number, body: string) => void): void {
    const hello = Hello.safeParse(safeJson(text));
    if (!hello.success) return send(400, '{"error":"bad hello"}');
    const dir = realpath(hello.data.directory);
    // Every live process keeps its announcement (the current one, a replacement, spares of postponed recycles:
    // a fixed "last 3" once dropped the current process and failed its requests, issue 21 §4.1). Exited ones
    // are dropped here, which also bounds the list by the number of live OpenCode processes.
    const pids = (this.announced.get(dir) ?? []).filter((p) => p !== hello.data.pid && this.alive(p));
    this.announced.set(dir, [...pids, hello.data.pid]);
    send(200, '{"ok":true}');
  }
}

/** Reads `req`'s body as UTF-8 (its first `maxBytes`; the rest is drained) and calls `then` with it at its end. */
function readBody(req: http.IncomingMessage, maxBytes: number, then: (text: string) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on("data", (c: Buffer) => {
    size += c.length;
    if (size <= maxBytes) chunks.push(c);
  });
  req.on("end", () => then(Buffer.concat(chunks).toString("utf8")));
}

const Hello = z.object({ v: z.literal(1), directory: z.string().min(1), pid: z.number().int() });

function realpath(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}
