// The companion plugin ships into OpenCode as one self-contained file, so it keeps its own copies of the protocol
// constants it shares with the server. This test reads the plugin's SOURCE and checks each copy against the server's.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  BRIDGE_AGENT,
  CLIENT_TOOL_PERMISSION,
  TOOLSET_FILE,
} from "../../../../server/opencode/process/home/opencode-config";
import { SIDE_CHANNEL_TOKEN_HEADER } from "../../../../server/opencode/protocol/side-channel";
import { FAIL_CLOSED_PREFIX, SINGLE_STEP_REFUSAL } from "../../../../server/opencode/session/upstream-errors";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const pluginSource = fs.readFileSync(path.join(root, "server/opencode/protocol/companion-plugin.ts"), "utf8");
const childEnvSource = fs.readFileSync(path.join(root, "server/opencode/process/child-env.ts"), "utf8");

/** The string literal assigned to `const NAME = "…"` in the plugin. */
function pluginString(name: string): string {
  const m = new RegExp(`^const ${name} = "([^"]*)";$`, "m").exec(pluginSource);
  assert.ok(m, `the plugin defines const ${name} as a string literal`);
  return m[1]!;
}

test("the plugin's protocol strings equal the server's", () => {
  assert.equal(pluginString("BRIDGE_AGENT"), BRIDGE_AGENT);
  assert.equal(pluginString("CLIENT_TOOL_PERMISSION"), CLIENT_TOOL_PERMISSION);
  assert.equal(pluginString("SINGLE_STEP_REFUSAL"), SINGLE_STEP_REFUSAL);
  assert.equal(pluginString("FAIL_CLOSED_PREFIX"), FAIL_CLOSED_PREFIX);
  assert.equal(pluginString("SIDE_CHANNEL_TOKEN_HEADER"), SIDE_CHANNEL_TOKEN_HEADER);
});

test("the plugin reads the toolset file where the instance pool writes it", () => {
  const m = /^const TOOLSET_FILE = path\.join\(([^)]*)\);$/m.exec(pluginSource);
  assert.ok(m, "the plugin defines TOOLSET_FILE with path.join");
  const parts = [...m[1]!.matchAll(/"([^"]*)"/g)].map((x) => x[1]!);
  assert.equal(path.join(...parts), TOOLSET_FILE);
});

test("the plugin reads the environment variables the child environment sets", () => {
  const read = [...pluginSource.matchAll(/process\.env\.(PATCHBAY_[A-Z_]+)/g)].map((x) => x[1]!);
  assert.ok(read.length >= 2, "the plugin reads its side-channel settings from the environment");
  for (const name of read) assert.match(childEnvSource, new RegExp(`env\\.${name} = `), `child-env.ts sets ${name}`);
});
