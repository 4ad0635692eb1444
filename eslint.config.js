// Lint rules, including the layering rules (STYLE.md §1): each folder may import only what the architecture allows.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";

const nodeBuiltins = [
  "node:*",
  "fs",
  "path",
  "os",
  "child_process",
  "http",
  "https",
  "net",
  "crypto",
  "stream",
  "url",
  "util",
  "events",
];

/** What no server module may import (it runs in plain Node, also without Electron). */
const serverBase = ["electron", "**/main/*", "**/renderer/*", "react"];

/** One layering block: files under `folders` may not import `forbidden` (besides what no server module may).
 *  Flat config keeps only the last block's rule for a file, so each block repeats the server-wide patterns. */
function layer(folders, forbidden, options = {}) {
  return {
    files: folders.map((f) => (f.endsWith(".ts") ? f : `${f}/**/*.ts`)),
    ...(options.ignores ? { ignores: options.ignores } : {}),
    rules: { "no-restricted-imports": ["error", { patterns: [...new Set([...serverBase, ...forbidden])] }] },
  };
}

/** Server folders by layer, low to high; a folder imports only from lower layers (and shared/). */
const up = {
  /** Above the neutral core: everything that may not reach into it. */
  core: ["**/clients/*", "**/connect/*", "**/security/*", "**/stores/*", "**/responses-store/*", "**/demo/*"],
  /** Adapters and features above the stores. */
  features: ["**/opencode/*", "**/history/*"],
  /** The HTTP layer, the wires on it, the CLI and the composition root. */
  top: ["**/http/*", "**/wires/*", "**/cli/*", "**/cli", "**/index"],
};

/**
 * Who may import whom inside server/ (DESIGN §6), for every folder but server/opencode and server/history (their
 * blocks are opencodeLayers(), at the end of this file). Low to high:
 *   core (the neutral contract and policy; shared/ only) ← clients, security, stores, demo (core and shared/ only) ←
 *   responses-store, connect (those, plus stores/clients; the stores' retention days from history) ← OpenCode and
 *   history ← http (listeners, middleware, the model runner, the admin API; knows no wire) ← wires (each wire's
 *   routes over http; their codecs are pure: core, shared/ and the shared OpenAI pieces only) ← cli, index.ts.
 */
function wireLayers() {
  const wireFolders = ["openai-chat", "openai-responses", "anthropic-messages"];
  // Routes and their glue to the HTTP layer and stores (the Responses wire keeps each answer it sends).
  const wireRoutes = [
    "server/wires/**/wire.ts",
    "server/wires/**/*.route.ts",
    "server/wires/table.ts",
    "server/wires/openai-responses/persisting-encoder.ts",
  ];
  return [
    layer(
      ["server/core"],
      [...nodeBuiltins, "express", "@opencode-ai/*", ...up.core, ...up.features, ...up.top, "**/wires/*"],
    ),
    layer(
      ["server/clients", "server/security", "server/demo", "server/tokenizer"],
      ["express", ...up.core, ...up.features, ...up.top],
    ),
    layer(
      ["server/stores"],
      ["express", "@opencode-ai/*", ...up.core.filter((p) => p !== "**/stores/*"), ...up.features, ...up.top],
    ),
    layer(
      ["server/responses-store", "server/connect"],
      ["express", "@opencode-ai/*", "**/security/*", "**/demo/*", ...up.top],
    ),
    layer(["server/http"], ["**/wires/*", "**/cli/*", "**/cli", "**/index", "**/demo/*"]),
    // Codecs: pure translation between a wire's JSON and the neutral contract. Hashing is pure (stable short names
    // for long tool names); nothing else of Node's.
    layer(
      ["server/wires"],
      [
        ...nodeBuiltins,
        "!node:crypto",
        "express",
        "@opencode-ai/*",
        ...up.core,
        ...up.features,
        ...up.top.filter((p) => p !== "**/wires/*"),
        ...wireFolders.map((w) => `../${w}/*`),
      ],
      { ignores: wireRoutes },
    ),
    // Each wire's routes: the HTTP layer, the stored responses (Responses), their own codecs and the shared OpenAI
    // pieces; never another wire's, nor OpenCode, the stores or the CLI.
    {
      ...layer(
        ["server/wires"],
        [
          "@opencode-ai/*",
          "**/opencode/*",
          "**/history/*",
          "**/stores/*",
          "**/connect/*",
          "**/cli/*",
          "**/index",
          ...wireFolders.map((w) => `../${w}/*`),
        ],
      ),
      files: wireRoutes.filter((f) => f !== "server/wires/table.ts"),
    },
    // The small modules at server/'s root (the instance lock, runtime.json, shared types and paths) sit below http.
    layer(
      [
        "server/instance-lock.ts",
        "server/runtime-file.ts",
        "server/version.ts",
        "server/patchbay-types.ts",
        "server/opencode-user-paths.ts",
      ],
      ["express", ...up.top],
    ),
    layer(["server/cli"], ["**/http/*", "**/wires/*", "**/index", "**/demo/*"]),
  ];
}

export default tseslint.config(
  {
    ignores: [
      "node_modules/",
      "dist/",
      "release/",
      ".tsbuild/",
      "test-artifacts/",
      "renderer/dist/",
      "main/types/electron.d.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-empty": ["error", { allowEmptyCatch: true }],
    },
  },
  {
    files: ["**/*.{js,mjs,cjs}", "bin/**", "build/**", "tests/**", "server/**", "main/**"],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ["shared/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [...nodeBuiltins, "electron", "express", "react", "../server/*", "../main/*", "../renderer/*"] },
      ],
    },
  },
  {
    files: ["server/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: serverBase }] },
  },
  ...wireLayers(),
  {
    files: ["server/opencode/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [...serverBase, "express", "**/openai/*", "**/anthropic/*", "**/http/*", "**/stores/*"] },
      ],
    },
  },
  {
    files: ["renderer/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "no-restricted-imports": [
        "error",
        { patterns: [...nodeBuiltins, "electron", "express", "**/server/*", "**/main/*"] },
      ],
    },
  },
  {
    files: ["main/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: ["**/renderer/*", "**/server/*/**", "express"] }],
    },
  },
  ...opencodeLayers(),
);

/**
 * Layers of the OpenCode adapter and the history feature (server/opencode/README.md), lowest first: protocol/ (what
 * server and companion plugin share) imports none of the others; process/ (one `opencode serve`) may import
 * protocol/; session/ (one request → one session) may import protocol/ and process/; runtime/ wires them all and only
 * the composition root imports it. server/history/ is a feature on top of OpenCode: it may use protocol/ and process/,
 * never a request's session/ or the runtime, and the adapter never imports it. Each block repeats the server-wide
 * and adapter-wide patterns (flat config replaces a rule per file). Placed last: these blocks are the most specific.
 */
function opencodeLayers() {
  const outside = ["express", "**/openai/*", "**/anthropic/*", "**/http/*", "**/stores/*"];
  const adapter = {
    group: [...serverBase, ...outside],
    message: "The OpenCode adapter knows no Electron, wire, HTTP or store (DESIGN §6).",
  };
  // server/history (not shared/admin/history, the admin API's shapes).
  const history = {
    group: ["**/history", "**/history/*", "!**/shared/admin/history"],
    message: "The OpenCode adapter does not know the history feature (server/history uses it).",
  };
  const runtime = {
    group: ["**/runtime/*"],
    message: "Only the composition root imports the runtime (it wires everything).",
  };
  const session = {
    group: ["**/session/*"],
    message: "A lower layer does not know one request's session (session/ sits above it).",
  };
  const process = {
    group: ["**/process/*"],
    message: "protocol/ is shared with the companion plugin: it knows no OpenCode process.",
  };
  const block = (files, ...forbidden) => ({
    files,
    rules: { "no-restricted-imports": ["error", { patterns: [adapter, ...forbidden] }] },
  });
  return [
    block(["server/opencode/protocol/**/*.ts"], process, session, runtime, history),
    block(["server/opencode/process/**/*.ts", "server/opencode/process/**/*.mjs"], session, runtime, history),
    block(["server/opencode/session/**/*.ts"], runtime, history),
    block(["server/opencode/runtime/**/*.ts"], history),
    {
      files: ["server/history/**/*.ts"],
      rules: {
        "no-restricted-imports": [
          "error",
          {
            patterns: [
              { ...adapter, message: "History knows no Electron, wire, HTTP or store." },
              { ...session, message: "History reads stored sessions; it does not run requests (session/)." },
              runtime,
            ],
          },
        ],
      },
    },
  ];
}
