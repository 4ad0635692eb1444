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

export default tseslint.config(
  { ignores: ["node_modules/", "dist/", "release/", ".tsbuild/", "test-artifacts/", "renderer/dist/"] },
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
    rules: {
      "no-restricted-imports": ["error", { patterns: ["electron", "**/main/*", "**/renderer/*", "react"] }],
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
