// zod building blocks shared by the chat and Responses request schemas (ranges from the OpenAI API reference).
// Schemas only: mapping to the neutral request lives in each decoder.
import { z } from "zod";

/** A finite number in [min, max], with a message that states the range. */
export function numberBetween(min: number, max: number) {
  const error = `must be a number between ${min} and ${max}`;
  return z.number({ error }).min(min, { error }).max(max, { error });
}

/** An integer >= min. */
export function integerAtLeast(min: number) {
  const error = `must be an integer >= ${min}`;
  return z.int({ error }).min(min, { error });
}

/** `temperature`: 0..2. */
export const Temperature = numberBetween(0, 2);
/** `top_p`: 0..1. */
export const TopP = numberBetween(0, 1);
/** `presence_penalty` / `frequency_penalty`: -2..2. */
export const Penalty = numberBetween(-2, 2);
/** Token limits (`max_tokens`, `max_output_tokens`, ...): integers >= 1. */
export const TokenLimit = integerAtLeast(1);

/** A JSON Schema object, passed through untouched. */
export const JsonSchemaObject = z.record(z.string(), z.unknown(), { error: "must be a JSON Schema object" });

/** Function/tool names: what OpenAI accepts plus `.` and `:` (MCP-style names), 1..128 characters. */
export const FunctionName = z
  .string({ error: "must be a string" })
  .regex(/^[A-Za-z0-9_.:-]{1,128}$/, { error: "must be 1-128 characters of a-z, A-Z, 0-9, '_', '-', '.', ':'" });

/** Structured-output schema names (OpenAI: a-z, A-Z, 0-9, '_' and '-', at most 64 characters). */
export const SchemaName = z
  .string({ error: "must be a string" })
  .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: "must be 1-64 characters of a-z, A-Z, 0-9, '_', '-'" });
