// Loads the compat cases (tests/fixtures/compat-cases.jsonl, a copy of the shared client-compatibility cases) and
// substitutes their placeholders. Test-only; reads nothing outside the repo.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures");

/** The request of a case: method, path, headers and JSON body (null for GET/OPTIONS). */
export const CaseRequest = z.object({
  method: z.enum(["GET", "POST", "OPTIONS"]),
  path: z.string().startsWith("/"),
  headers: z.record(z.string(), z.string()),
  body: z.unknown(),
});
export type CaseRequest = z.infer<typeof CaseRequest>;

/** One case: an id, the clients it comes from, a request and prose assertions (`expect`). */
export const CompatCase = z.object({
  id: z.string().regex(/^[A-Z0-9-]+$/),
  client: z.string(),
  request: CaseRequest,
  expect: z.array(z.string()).min(1),
});
export type CompatCase = z.infer<typeof CompatCase>;

/** Values for the `$NAME` placeholders the cases use. An unknown placeholder is an error, so a new case that needs
 *  a new value cannot pass silently. */
export interface CaseVars {
  API_KEY: string;
  MODEL: string;
  TOOL_MODEL: string;
  VISION_MODEL: string;
  SLOW_MODEL: string;
  MODEL_WITHOUT_STRICT_SUPPORT: string;
  UNKNOWN_MODEL_ID: string;
  /** Host of the http image in CC-IMAGE-DATA-URL-AND-HTTP-URL (never contacted: remote images are off). */
  FIXTURE_HOST: string;
}

/** The placeholder values for Patchbay's test setup (the mock provider of tests/harness/opencode-user.ts). */
export function patchbayCaseVars(apiKey: string): CaseVars {
  return {
    API_KEY: apiKey,
    MODEL: "mock/mock-model",
    TOOL_MODEL: "mock/mock-model",
    VISION_MODEL: "mock/mock-vision",
    SLOW_MODEL: "mock/mock-model",
    // The mock provider is `@ai-sdk/openai-compatible`, which knows nothing about `strict`.
    MODEL_WITHOUT_STRICT_SUPPORT: "mock/mock-model",
    UNKNOWN_MODEL_ID: "mock/no-such-model-4711",
    FIXTURE_HOST: "images.example.invalid",
  };
}

/** Reads and validates every case of the cases file, in file order. */
export function loadCompatCases(file = path.join(FIXTURES, "compat-cases.jsonl")): CompatCase[] {
  const lines = fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "");
  const cases = lines.map((line, i) => {
    const parsed = CompatCase.safeParse(JSON.parse(line));
    if (!parsed.success) throw new Error(`${file}:${i + 1}: not a compat case: ${parsed.error.message}`);
    return parsed.data;
  });
  const ids = new Set<string>();
  for (const c of cases) {
    if (ids.has(c.id)) throw new Error(`${file}: duplicate case id ${c.id}`);
    ids.add(c.id);
  }
  return cases;
}

/** The 16×16 red PNG of tests/fixtures/red16.b64 (base64, no data: prefix). */
export function red16Base64(): string {
  return fs.readFileSync(path.join(FIXTURES, "red16.b64"), "utf8").trim();
}

/** Deep copy of `value` with every `$NAME` in strings replaced from `vars`. @throws on an unknown placeholder. */
export function substitute<T>(value: T, vars: CaseVars): T {
  const replace = (s: string): string =>
    s.replace(/\$([A-Z][A-Z0-9_]*)/g, (_m, name: string) => {
      const v = (vars as unknown as Record<string, string | undefined>)[name];
      if (v === undefined) throw new Error(`compat case uses unknown placeholder $${name}`);
      return v;
    });
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return replace(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

/** The case's request with placeholders substituted. */
export function caseRequest(c: CompatCase, vars: CaseVars): CaseRequest {
  return substitute(c.request, vars);
}
