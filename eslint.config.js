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
);
