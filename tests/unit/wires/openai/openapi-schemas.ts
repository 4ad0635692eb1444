// Validators built from the vendored official OpenAI OpenAPI spec (tests/fixtures/openapi/openapi.json, see its
// README for repository and commit), with the spec's known quirks patched in ONE place (SPEC_QUIRKS). Test-only.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";

type Json = Record<string, unknown>;
type Schemas = Record<string, Json>;

/** A place where the published spec disagrees with what the API (and every client) actually sends, and how the
 *  validator is relaxed for it. Each entry names the schema it touches; the patch fails loudly when the spec changed
 *  so the quirk no longer applies. */
interface SpecQuirk {
  schema: string;
  why: string;
  patch(schemas: Schemas): void;
}

function nullable(schema: Json | undefined, where: string): Json {
  assert.ok(schema, `spec quirk target ${where} is gone: review SPEC_QUIRKS`);
  assert.ok(!JSON.stringify(schema).includes('"null"'), `spec quirk ${where} is fixed upstream: remove it`);
  return { anyOf: [schema, { type: "null" }] };
}
function props(schemas: Schemas, name: string): Json {
  const s = schemas[name];
  const p = (s?.properties ?? (s?.allOf as Json[] | undefined)?.find((x) => x.properties)?.properties) as Json;
  assert.ok(p, `spec quirk target ${name} has no properties: review SPEC_QUIRKS`);
  return p;
}

/** Rewrites OpenAPI 3.0's `nullable: true` (still used in places of this 3.1 document) as JSON Schema; returns how
 *  many it rewrote. */
function rewriteNullable(node: unknown): number {
  if (Array.isArray(node)) return node.reduce((n: number, x) => n + rewriteNullable(x), 0);
  if (typeof node !== "object" || node === null) return 0;
  const o = node as Json;
  let n = 0;
  for (const v of Object.values(o)) n += rewriteNullable(v);
  if (o.nullable === true) {
    delete o.nullable;
    if (typeof o.type === "string") {
      o.type = [o.type, "null"];
      if (Array.isArray(o.enum) && !o.enum.includes(null)) o.enum = [...(o.enum as unknown[]), null];
    } else {
      const inner = { ...o };
      for (const k of Object.keys(o)) delete o[k];
      o.anyOf = [inner, { type: "null" }];
    }
    n++;
  }
  return n;
}

/** Every known quirk of the vendored spec, in one place. */
export const SPEC_QUIRKS: readonly SpecQuirk[] = [
  {
    schema: "(whole document) nullable",
    why: "Parts of the 3.1 document (chat completion schemas) still use OpenAPI 3.0's `nullable: true`, which JSON Schema 2020-12 validators reject or ignore; it is rewritten as `type: [T, 'null']` (null added to an `enum`) / `anyOf: [S, null]`.",
    patch(schemas) {
      assert.ok(rewriteNullable(schemas) > 0, "no `nullable` left in the spec: remove this quirk");
    },
  },
  {
    schema: "ResponseErrorCode",
    why: "The API sends `context_length_exceeded` and `insufficient_quota` in `response.error.code` (openai/codex's SSE parser acts on both: codex-rs/codex-api/src/sse/responses.rs), but the spec's enum lacks them.",
    patch(schemas) {
      const codes = (schemas.ResponseErrorCode as { enum?: string[] } | undefined)?.enum;
      assert.ok(codes && !codes.includes("context_length_exceeded"), "ResponseErrorCode changed: review SPEC_QUIRKS");
      codes.push("context_length_exceeded", "insufficient_quota");
    },
  },
  {
    schema: "ModelResponseProperties.user",
    why: "The response object repeats `user: null` when the request set none (the API does, and the SDKs type it `string | null`); the spec types it as a string.",
    patch(schemas) {
      const p = props(schemas, "ModelResponseProperties");
      p.user = nullable(p.user as Json, "ModelResponseProperties.user");
    },
  },
  {
    schema: "Response.usage",
    why: "`usage` is null until a response finishes (response.created / in_progress / failed events); the spec's Response.usage is a bare ResponseUsage.",
    patch(schemas) {
      const p = props(schemas, "Response");
      p.usage = nullable(p.usage as Json, "Response.usage");
    },
  },
];

/** The validators; built once (the spec is 3 MB). */
export interface OpenApiValidators {
  /** Validator of a component schema by name, e.g. `Response`. */
  schema(name: string): ValidateFunction;
  /** Validator of one Responses stream event, chosen by its `type` (from the `ResponseStreamEvent` union). */
  responseEvent(type: string): ValidateFunction;
}

let cached: OpenApiValidators | null = null;

/** Loads the vendored spec, applies {@link SPEC_QUIRKS}, and compiles validators lazily. */
export function openApiValidators(): OpenApiValidators {
  if (cached) return cached;
  const doc = JSON.parse(readFileSync(new URL("../../../fixtures/openapi/openapi.json", import.meta.url), "utf8")) as {
    components: { schemas: Schemas };
  };
  const schemas = doc.components.schemas;
  for (const quirk of SPEC_QUIRKS) quirk.patch(schemas);
  // strict: false ignores OpenAPI's own keywords (discriminator, x-oaiMeta, x-stainless-const, example, deprecated).
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ $id: "openapi", components: doc.components });
  const byType = new Map<string, string>();
  const union = schemas.ResponseStreamEvent as { anyOf?: Json[]; oneOf?: Json[] };
  for (const member of union.anyOf ?? union.oneOf ?? []) {
    const name = String(member.$ref).split("/").pop() ?? "";
    const type = (schemas[name]?.properties as { type?: { enum?: string[] } } | undefined)?.type?.enum?.[0];
    if (type) byType.set(type, name);
  }
  const compiled = new Map<string, ValidateFunction>();
  const schema = (name: string): ValidateFunction => {
    let v = compiled.get(name);
    if (!v) {
      assert.ok(schemas[name], `no schema ${name} in the spec`);
      v = ajv.getSchema(`openapi#/components/schemas/${name}`);
      assert.ok(v, `schema ${name} did not compile`);
      compiled.set(name, v);
    }
    return v;
  };
  cached = {
    schema,
    responseEvent(type) {
      const name = byType.get(type);
      assert.ok(name, `the spec's ResponseStreamEvent has no event of type ${type}`);
      return schema(name);
    },
  };
  return cached;
}

/** Asserts `value` is valid against the spec schema `name` (or the Responses event schema for its `type`). */
export function assertConforms(validate: ValidateFunction, value: unknown, what: string): void {
  if (validate(value)) return;
  const errors = (validate.errors ?? []).slice(0, 8).map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`);
  assert.fail(
    `${what} does not conform to the OpenAI OpenAPI spec:\n${errors.join("\n")}\n${JSON.stringify(value).slice(0, 600)}`,
  );
}
