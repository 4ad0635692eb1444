// Small rules about tools shared by both decoders: argument normalisation and unique names.
// No wire shapes here.
import type { ToolDefinition } from "../core/contract";
import { invalidRequest } from "../core/errors";

/** Tool-call arguments as JSON text: "" / whitespace / null / absent become "{}" (a call without arguments); a JSON
 *  object sent instead of a string is serialised. Other strings pass through untouched (history is not re-validated). */
export function normaliseArguments(args: string | Record<string, unknown> | null | undefined): string {
  if (args == null) return "{}";
  if (typeof args !== "string") return JSON.stringify(args);
  return args.trim() === "" ? "{}" : args;
}

/** Throws a 400 naming the second definition when two tools share a name (`paramOf(i)` gives its field). */
export function uniqueToolNames(tools: ToolDefinition[], paramOf: (index: number) => string): void {
  const seen = new Set<string>();
  tools.forEach((tool, i) => {
    if (seen.has(tool.name))
      throw invalidRequest(`Duplicate tool name '${tool.name}': tool names must be unique.`, paramOf(i));
    seen.add(tool.name);
  });
}
