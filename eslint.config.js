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
  // Inside server/ (DESIGN §6): core/ is the neutral contract and policy and knows only shared/; the wire codecs
  // (openai/, anthropic/) are pure and know only core/ and shared/; the OpenCode adapter knows no wire, no HTTP, no
  // stores. Flat config replaces a rule per file, so each block repeats the server-wide patterns.
  {
    files: ["server/core/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            ...serverBase,
            ...nodeBuiltins,
            "**/openai/*",
            "**/anthropic/*",
            "**/opencode/*",
            "**/http/*",
            "**/stores/*",
            "express",
          ],
        },
      ],
    },
  },
  {
    files: ["server/wires/**/*.ts"],
    ignores: ["server/wires/**/wire.ts", "server/wires/**/*.route.ts", "server/wires/table.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            ...serverBase,
            ...nodeBuiltins,
            // Hashing is pure (stable short names for long tool names); nothing else of Node's.
            "!node:crypto",
            "express",
            "@opencode-ai/*",
            "**/opencode/*",
            "**/http/*",
            "**/stores/*",
            "**/security/*",
          ],
        },
      ],
    },
  },
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
