// The built-in demo upstream for `serve --demo`: a tiny OpenAI-compatible `/v1/chat/completions` server on 127.0.0.1
// that answers with a friendly scripted reply, so a newcomer without any OpenCode login gets an answer end to end.
// It never calls a real model and never listens beyond loopback.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";

/** A running demo upstream. `url` is the OpenAI base URL (`http://127.0.0.1:<port>/v1`). */
export interface DemoUpstream {
  url: string;
  stop(): Promise<void>;
}

/** Provider id Patchbay registers the demo under (`demo/echo`). */
export const DEMO_PROVIDER_ID = "demo";

/** The OpenCode provider block for the demo upstream at `baseURL` (register it as `provider.demo`). */
export function demoProviderConfig(baseURL: string): Record<string, unknown> {
  return {
    npm: "@ai-sdk/openai-compatible",
    name: "Patchbay demo",
    options: { baseURL, apiKey: "patchbay-demo" },
    models: {
      echo: {
        name: "Demo echo (no real AI)",
        tool_call: true,
        // Images in: the echo says what it got (`patchbay doctor`'s image check: a client's image reaches the model).
        attachment: true,
        reasoning: false,
        temperature: true,
        modalities: { input: ["text", "image"], output: ["text"] },
        // Claude Code gets this as CLAUDE_CODE_MAX_CONTEXT_TOKENS (connect/launch): its own system prompt and tools
        // take ~25k tokens, so a small window made it compact around every turn. The echo has no real limit.
        limit: { context: 200000, output: 4096 },
      },
    },
  };
}

const ContentPart = z
  .object({
    type: z.string(),
    text: z.string().optional(),
    image_url: z.union([z.string(), z.object({ url: z.string() }).passthrough()]).optional(),
  })
  .passthrough();
const Message = z
  .object({
    role: z.string(),
    content: z.union([z.string(), z.array(ContentPart), z.null()]).optional(),
    tool_call_id: z.string().optional(),
  })
  .passthrough();
const Tool = z.object({ type: z.string(), function: z.object({ name: z.string() }).passthrough() }).passthrough();
const ChatBody = z
  .object({
    model: z.string().default("echo"),
    messages: z.array(Message).default([]),
    tools: z.array(Tool).optional(),
    stream: z.boolean().optional(),
  })
  .passthrough();
type ChatBody = z.infer<typeof ChatBody>;

/** Starts the demo upstream on a random loopback port (or `port`). */
export async function startDemoUpstream(opts: { port?: number } = {}): Promise<DemoUpstream> {
  const server = http.createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The scripted answer (pure): a tool call when the user asks for one by name ("use the Bash tool", "use get_time"),
 *  a description of the images in the last message when it has any (a user message, or the one a client's tool
 *  result became), else a friendly echo of what the user typed. Agents' own context blocks (`<system-reminder>…`) are
 *  not what the user typed, so they neither trigger tools nor are echoed. */
export function demoReply(body: ChatBody): {
  text: string | null;
  toolCall: { name: string; arguments: string } | null;
} {
  const last = body.messages.at(-1);
  const images = last?.role === "user" ? imagesOf(last.content) : [];
  if (images.length > 0) {
    return {
      text: `I see ${images.length === 1 ? "an image" : `${images.length} images`}: ${images.join(", ")}. (I'm Patchbay's demo model, so I cannot say what is in it.)`,
      toolCall: null,
    };
  }
  if (last?.role === "tool") {
    return {
      text: `The tool answered: ${textOf(last.content).slice(0, 500)}. (I'm Patchbay's demo model, so that's all I can do with it.)`,
      toolCall: null,
    };
  }
  const lastUser = [...body.messages].reverse().find((m) => m.role === "user");
  const said = typedText(textOf(lastUser?.content));
  const tool = (body.tools ?? []).find((t) => asksFor(said, t.function.name));
  if (tool) {
    const args = harmlessArguments(tool, absolutePathIn(said));
    return { text: null, toolCall: { name: tool.function.name, arguments: JSON.stringify(args) } };
  }
  const echo = said ? `You said: "${said.slice(0, 500)}".` : "You did not say anything yet.";
  return {
    text: `Hi! I'm Patchbay's demo model: no real AI is involved. ${echo} Log in to a provider with OpenCode (opencode auth login, or npx --no-install opencode auth login in the Patchbay folder) and restart Patchbay to use real models.`,
    toolCall: null,
  };
}

/** The user's own words: without the context blocks coding agents add (`<system-reminder>`, `<environment_context>`,
 *  …), trimmed. */
function typedText(text: string): string {
  return text
    .replace(/<([a-z_-]+)>[\s\S]*?<\/\1>/gi, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** True when `said` asks for tool `name` in so many words: "use [the] <name> [tool]" (case-insensitive, whole word). */
function asksFor(said: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`\\buse (the )?${escaped}(?![\\w-])`, "i").test(said);
}

/** The images of a message's content, each as "<media type>, <bytes> bytes" (a data URL) or "<url>". */
function imagesOf(content: z.infer<typeof Message>["content"]): string[] {
  if (!Array.isArray(content)) return [];
  return content.flatMap((part) => {
    if (part.type !== "image_url" || part.image_url === undefined) return [];
    const url = typeof part.image_url === "string" ? part.image_url : part.image_url.url;
    const data = /^data:([^;,]+)(?:;[^,]*)?;base64,(.*)$/s.exec(url);
    if (!data) return [url.slice(0, 200)];
    return [`${data[1]}, ${Math.floor((data[2]!.replace(/=+$/, "").length * 3) / 4)} bytes`];
  });
}

/** The first absolute path the user typed ("use the Read tool on /tmp/x.png", or `C:\…` on Windows), for a tool's
 *  path argument. */
function absolutePathIn(said: string): string | undefined {
  return /(?:^|\s)((?:\/|[A-Za-z]:\\)[^\s"'`]+)/.exec(said)?.[1]?.replace(/[.,;:!?)]+$/, "");
}

/** Arguments that satisfy the tool's required properties with harmless values, so an agent can actually run the call:
 *  a command echoes, a path names the absolute path the user typed (else README.md), other strings say "demo",
 *  numbers are 1, booleans false, arrays hold one such value. */
function harmlessArguments(tool: z.infer<typeof Tool>, userPath?: string): Record<string, unknown> {
  const schema = (tool.function as { parameters?: unknown }).parameters;
  const props = isObject(schema) && isObject(schema.properties) ? schema.properties : {};
  const required = isObject(schema) && Array.isArray(schema.required) ? schema.required : [];
  const args: Record<string, unknown> = {};
  for (const key of required) {
    if (typeof key !== "string") continue;
    args[key] = harmlessValue(key, props[key], userPath);
  }
  return args;
}

function harmlessValue(key: string, prop: unknown, userPath?: string): unknown {
  const type = isObject(prop) ? prop.type : undefined;
  const word = /command|cmd/i.test(key) ? "echo demo" : /path|file/i.test(key) ? (userPath ?? "README.md") : "demo";
  if (type === "array") return /command|cmd/i.test(key) ? ["echo", "demo"] : [word];
  if (type === "number" || type === "integer") return 1;
  if (type === "boolean") return false;
  if (type === "object") return {};
  return word;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const path = new URL(req.url ?? "/", "http://x").pathname;
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const send = (status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  if (req.method === "GET" && path.endsWith("/models"))
    return send(200, { object: "list", data: [{ id: "echo", object: "model", owned_by: "patchbay" }] });
  if (req.method !== "POST" || !path.endsWith("/chat/completions"))
    return send(404, { error: { message: `No route ${path}`, type: "invalid_request_error" } });
  let json: unknown;
  try {
    json = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    return send(400, { error: { message: "Body is not JSON", type: "invalid_request_error" } });
  }
  const parsed = ChatBody.safeParse(json);
  if (!parsed.success) return send(400, { error: { message: parsed.error.message, type: "invalid_request_error" } });
  const body = parsed.data;
  const reply = demoReply(body);
  const id = `chatcmpl-demo-${Date.now().toString(36)}`;
  const created = Math.floor(Date.now() / 1000);
  const promptTokens = Math.ceil(JSON.stringify(body.messages).length / 4);
  const completionTokens = Math.ceil((reply.text ?? reply.toolCall?.arguments ?? "").length / 4);
  const usage = {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
  const toolCalls = reply.toolCall
    ? // Unique per call, as a provider's ids are: clients pair results by id across a whole conversation.
      [{ id: `call_demo_${crypto.randomBytes(8).toString("hex")}`, type: "function", function: reply.toolCall }]
    : undefined;
  const finish = toolCalls ? "tool_calls" : "stop";
  if (!body.stream) {
    return send(200, {
      id,
      object: "chat.completion",
      created,
      model: body.model,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: reply.text, ...(toolCalls ? { tool_calls: toolCalls } : {}) },
          finish_reason: finish,
        },
      ],
      usage,
    });
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const chunk = (delta: Record<string, unknown>, finish_reason: string | null = null) =>
    res.write(
      `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: body.model, choices: [{ index: 0, delta, finish_reason }] })}\n\n`,
    );
  chunk({ role: "assistant", content: "" });
  for (const word of (reply.text ?? "").match(/\S+\s*/g) ?? []) {
    chunk({ content: word });
    await new Promise((r) => setTimeout(r, 15)); // a visible stream, still well under a second
  }
  if (toolCalls) chunk({ tool_calls: toolCalls.map((c, index) => ({ index, ...c })) });
  chunk({}, finish);
  res.write(
    `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: body.model, choices: [], usage })}\n\n`,
  );
  res.end("data: [DONE]\n\n");
}

function textOf(content: z.infer<typeof Message>["content"]): string {
  if (typeof content === "string") return content;
  return (content ?? []).map((p) => p.text ?? "").join("");
}
