// Copy-ready client snippets (Connect panel, tray): filled with the base URL and a model, never with a real key —
// every snippet reads the key from the PATCHBAY_KEY environment variable (or the tool's own secret store).
// Pure string building; no Node, no DOM.

/** The environment variable every snippet reads the key from. */
export const KEY_ENV = "PATCHBAY_KEY";

export interface SnippetOptions {
  /** OpenAI base URL including `/v1`, e.g. `http://127.0.0.1:4747/v1`. */
  baseUrl: string;
  /** Model id or alias the snippet asks for. */
  model: string;
  /** App name, used in comments and provider names. */
  app?: string;
  /** The model's context window in tokens when the catalog knows it (Claude Code's CLAUDE_CODE_MAX_CONTEXT_TOKENS). */
  contextTokens?: number | null;
}

export interface Snippet {
  id: string;
  label: string;
  /** Syntax name for display (`bash`, `python`, `js`, `yaml`, `toml`, `text`). */
  language: string;
  /** Where the snippet goes (file or step), shown above the code. */
  hint: string;
  code: string;
}

/** Quotes a value for a POSIX shell (single quotes). */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** JSON string literal, valid in JS, Python and TOML basic strings for ordinary ids and URLs. */
function lit(s: string): string {
  return JSON.stringify(s);
}

/**
 * The environment that points Claude Code at Patchbay (Claude Code docs, "LLM gateway configuration" and
 * "Environment variables"): `ANTHROPIC_BASE_URL` is the server root (no `/v1`), the key goes in
 * `ANTHROPIC_AUTH_TOKEN` (sent as `Authorization: Bearer`), every model tier (main, background haiku, sonnet/opus
 * subagents) maps to `model`, `CLAUDE_CODE_ATTRIBUTION_HEADER=0` drops the billing line Claude Code otherwise puts
 * first in the system prompt, telemetry, error reports and update checks are off (not all "nonessential traffic":
 * that also switches off gateway model discovery), discovery is on so `/model` lists Patchbay's models, and the gateway
 * hint headers are on (`x-claude-code-request-class`: what an app's routes go by). With `contextTokens` (the
 * model's context window, as `patchbay launch` passes it) `CLAUDE_CODE_MAX_CONTEXT_TOKENS` tells Claude Code the
 * window it cannot know for a non-Anthropic model. One `export NAME=value` line each; `root` is the server root URL.
 */
export function claudeCodeEnv(root: string, model: string, contextTokens?: number | null): string[] {
  const q = shellQuote(model);
  const context =
    contextTokens && Number.isInteger(contextTokens) && contextTokens > 0
      ? [`export CLAUDE_CODE_MAX_CONTEXT_TOKENS=${contextTokens}`]
      : [];
  return [
    `export ANTHROPIC_BASE_URL=${shellQuote(root)}`,
    `export ANTHROPIC_AUTH_TOKEN="$${KEY_ENV}"`,
    `export ANTHROPIC_MODEL=${q}`,
    `export ANTHROPIC_DEFAULT_SONNET_MODEL=${q}`,
    `export ANTHROPIC_DEFAULT_OPUS_MODEL=${q}`,
    `export ANTHROPIC_DEFAULT_HAIKU_MODEL=${q}`,
    `export ANTHROPIC_SMALL_FAST_MODEL=${q}`,
    "export CLAUDE_CODE_ATTRIBUTION_HEADER=0",
    "export DISABLE_TELEMETRY=1 DISABLE_ERROR_REPORTING=1 DISABLE_AUTOUPDATER=1",
    "export CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY=1",
    // The request-role headers an app's routes use (subagent, compaction, …), as launch and connect set them.
    "export CLAUDE_CODE_GATEWAY_HINT_HEADERS=1",
    ...context,
  ];
}

/** All snippets for one base URL and model, in display order. */
export function buildSnippets(o: SnippetOptions): Snippet[] {
  const url = o.baseUrl.replace(/\/+$/, "");
  const m = lit(o.model);
  const u = lit(url);
  const who = o.app ? ` for the "${o.app}" app` : "";
  // Anthropic clients append `/v1/messages` themselves: their base URL is the server root.
  const root = url.replace(/\/v1$/, "");
  const chatBody = `{
    "model": ${m},
    "messages": [{"role": "user", "content": "Hello!"}]
  }`;
  return [
    {
      id: "curl",
      label: "curl",
      language: "bash",
      hint: `Shell. Set ${KEY_ENV} to your key${who} first.`,
      code: [
        `curl ${shellQuote(`${url}/chat/completions`)} \\`,
        `  -H "Authorization: Bearer $${KEY_ENV}" \\`,
        `  -H 'Content-Type: application/json' \\`,
        `  -d ${shellQuote(chatBody)}`,
      ].join("\n"),
    },
    {
      id: "openai-python",
      label: "OpenAI Python",
      language: "python",
      hint: "pip install openai",
      code: [
        "import os",
        "from openai import OpenAI",
        "",
        `client = OpenAI(base_url=${u}, api_key=os.environ[${lit(KEY_ENV)}])`,
        "",
        `resp = client.chat.completions.create(model=${m}, messages=[{"role": "user", "content": "Hello!"}])`,
        "print(resp.choices[0].message.content)",
      ].join("\n"),
    },
    {
      id: "openai-js",
      label: "OpenAI JS",
      language: "js",
      hint: "npm install openai",
      code: [
        'import OpenAI from "openai";',
        "",
        `const client = new OpenAI({ baseURL: ${u}, apiKey: process.env.${KEY_ENV} });`,
        "",
        "const resp = await client.chat.completions.create({",
        `  model: ${m},`,
        '  messages: [{ role: "user", content: "Hello!" }],',
        "});",
        "console.log(resp.choices[0].message.content);",
      ].join("\n"),
    },
    {
      id: "ai-sdk-compatible",
      label: "AI SDK (compatible)",
      language: "js",
      hint: "npm install ai @ai-sdk/openai-compatible",
      code: [
        'import { createOpenAICompatible } from "@ai-sdk/openai-compatible";',
        'import { generateText } from "ai";',
        "",
        "const patchbay = createOpenAICompatible({",
        '  name: "patchbay",',
        `  baseURL: ${u},`,
        `  apiKey: process.env.${KEY_ENV},`,
        "});",
        "",
        `const { text } = await generateText({ model: patchbay(${m}), prompt: "Hello!" });`,
        "console.log(text);",
      ].join("\n"),
    },
    {
      id: "ai-sdk-responses",
      label: "AI SDK (Responses)",
      language: "js",
      hint: "npm install ai @ai-sdk/openai — Patchbay keeps no response state, so send store: false",
      code: [
        'import { createOpenAI } from "@ai-sdk/openai";',
        'import { generateText } from "ai";',
        "",
        `const patchbay = createOpenAI({ baseURL: ${u}, apiKey: process.env.${KEY_ENV} });`,
        "",
        "const { text } = await generateText({",
        `  model: patchbay.responses(${m}),`,
        '  prompt: "Hello!",',
        "  providerOptions: { openai: { store: false } },",
        "});",
        "console.log(text);",
      ].join("\n"),
    },
    {
      id: "claude-code",
      label: "Claude Code",
      language: "bash",
      hint: `Shell, then run claude. Set ${KEY_ENV} to your key${who} first; the base URL has no /v1 (Claude Code adds it).`,
      code: claudeCodeEnv(root, o.model, o.contextTokens).join("\n") + "\nclaude",
    },
    {
      id: "anthropic-python",
      label: "Anthropic Python",
      language: "python",
      hint: "pip install anthropic",
      code: [
        "import os",
        "import anthropic",
        "",
        `client = anthropic.Anthropic(base_url=${lit(root)}, api_key=os.environ[${lit(KEY_ENV)}])`,
        "",
        `msg = client.messages.create(model=${m}, max_tokens=1024, messages=[{"role": "user", "content": "Hello!"}])`,
        "print(msg.content[0].text)",
      ].join("\n"),
    },
    {
      id: "anthropic-js",
      label: "Anthropic JS",
      language: "js",
      hint: "npm install @anthropic-ai/sdk",
      code: [
        'import Anthropic from "@anthropic-ai/sdk";',
        "",
        `const client = new Anthropic({ baseURL: ${lit(root)}, apiKey: process.env.${KEY_ENV} });`,
        "",
        "const msg = await client.messages.create({",
        `  model: ${m},`,
        "  max_tokens: 1024,",
        '  messages: [{ role: "user", content: "Hello!" }],',
        "});",
        "console.log(msg.content);",
      ].join("\n"),
    },
    {
      id: "langchain-python",
      label: "LangChain Python",
      language: "python",
      hint: "pip install langchain-openai",
      code: [
        "import os",
        "from langchain_openai import ChatOpenAI",
        "",
        `llm = ChatOpenAI(model=${m}, base_url=${u}, api_key=os.environ[${lit(KEY_ENV)}])`,
        'print(llm.invoke("Hello!").content)',
      ].join("\n"),
    },
    {
      id: "langchain-js",
      label: "LangChain JS",
      language: "js",
      hint: "npm install @langchain/openai",
      code: [
        'import { ChatOpenAI } from "@langchain/openai";',
        "",
        "const llm = new ChatOpenAI({",
        `  model: ${m},`,
        `  apiKey: process.env.${KEY_ENV},`,
        `  configuration: { baseURL: ${u} },`,
        "});",
        'console.log((await llm.invoke("Hello!")).content);',
      ].join("\n"),
    },
    {
      id: "n8n",
      label: "n8n",
      language: "text",
      hint: "n8n → Credentials → New → OpenAI",
      code: [
        "Credential type: OpenAI",
        "API Key:         <your Patchbay key>",
        `Base URL:        ${url}`,
        "",
        `Then in an "OpenAI Chat Model" node pick this credential and set Model → By ID: ${o.model}`,
      ].join("\n"),
    },
    {
      id: "continue",
      label: "Continue",
      language: "yaml",
      hint: `~/.continue/config.yaml — put ${KEY_ENV}=<your key> in ~/.continue/.env`,
      code: [
        "models:",
        `  - name: Patchbay ${o.model}`,
        "    provider: openai",
        `    model: ${o.model}`,
        `    apiBase: ${url}`,
        `    apiKey: \${{ secrets.${KEY_ENV} }}`,
        "    roles: [chat, edit, apply]",
      ].join("\n"),
    },
    {
      id: "codex",
      label: "Codex",
      language: "toml",
      hint: `~/.codex/config.toml — export ${KEY_ENV}=<your key> before running codex`,
      code: [
        `model = ${m}`,
        'model_provider = "patchbay"',
        "# Codex's web_search runs in Patchbay when the app has web search on and a search backend is set (dashboard:",
        '# the app\'s Limits tab, Settings → Web search). Uncomment to stop Codex offering it: web_search = "disabled"',
        "# `patchbay connect codex` also writes a model catalog (context windows, image input) Codex reads.",
        "",
        "[model_providers.patchbay]",
        'name = "Patchbay"',
        `base_url = ${u}`,
        `env_key = ${lit(KEY_ENV)}`,
        'wire_api = "responses"',
        "supports_websockets = false",
      ].join("\n"),
    },
  ];
}
