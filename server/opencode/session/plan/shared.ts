// What the planner's parts share: the bridge's JSON nesting bound, the empty tool schema, a stable hash, the
// provider packages whose options differ.
import crypto from "node:crypto";
import type { JsonSchema } from "../../../core/contract";

/** The bridge's own bound, above the decoders' (64): a safety net, never the first check. */
export const BRIDGE_JSON_DEPTH = 256;
/** Parameters of a tool declared without a schema. */
export const EMPTY_OBJECT_SCHEMA: JsonSchema = { type: "object", properties: {} };
/** The AI SDK package of OpenAI-compatible providers (takes OpenAI's wire parameters as provider options). */
export const OPENAI_COMPATIBLE = "@ai-sdk/openai-compatible";

/** Hex SHA-256 of `value`'s JSON. */
export function sha256(value: unknown): string {
  return crypto.createHash("sha256").update(JSON.stringify(value)).digest("hex");
}
