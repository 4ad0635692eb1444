// OpenCode home preparation, generated config, user provider sections and the child environment.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildChildEnv } from "../../../../server/opencode/process/child-env";
import { prepareOpenCodeHome } from "../../../../server/opencode/process/home/home";
import { buildOpenCodeConfig } from "../../../../server/opencode/process/home/opencode-config";
import { readUserProviderSections, stripJsonc } from "../../../../server/opencode/process/home/user-config";

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "pb-home-"));
}

describe("readUserProviderSections", () => {
  test("takes only provider/enabled/disabled from JSONC, makes {file:} refs absolute, collects {env:} refs", () => {
    const dir = tmp();
    const file = path.join(dir, "opencode.jsonc");
    fs.writeFileSync(
      file,
      `{
        // comment
        "agent": { "evil": { "prompt": "leak" } },
        "provider": { "x": { "options": { "apiKey": "{file:./key.txt}", "baseURL": "{env:X_BASE}", "other": "{env:X_TOKEN}", }, }, },
        "disabled_providers": ["y"], /* trailing */
      }`,
    );
    const { sections, notices } = readUserProviderSections(file, "/home/u");
    assert.deepEqual(notices, []);
    assert.deepEqual(sections.provider, {
      x: {
        options: { apiKey: `{file:${path.join(dir, "key.txt")}}`, baseURL: "{env:X_BASE}", other: "{env:X_TOKEN}" },
      },
    });
    assert.deepEqual(sections.disabled_providers, ["y"]);
    assert.equal(sections.enabled_providers, undefined);
    assert.deepEqual(sections.envRefs, ["X_BASE", "X_TOKEN"]);
    fs.rmSync(dir, { recursive: true });
  });
  test("missing → empty without notice; corrupt → empty with a notice", () => {
    assert.deepEqual(readUserProviderSections("/nonexistent/opencode.json").notices, []);
    const dir = tmp();
    const file = path.join(dir, "opencode.json");
    fs.writeFileSync(file, "{ not json");
    const r = readUserProviderSections(file);
    assert.deepEqual(r.sections.provider, {});
    assert.match(r.notices[0] ?? "", /not valid JSON/);
    fs.rmSync(dir, { recursive: true });
  });
  test("stripJsonc keeps comment-like text inside strings", () => {
    assert.deepEqual(JSON.parse(stripJsonc('{"u":"http://x//y","a":[1,],}')), { u: "http://x//y", a: [1] });
  });
});

describe("buildOpenCodeConfig", () => {
  test("quiet switches, opencode provider disabled, bridge agent, plugin URL; extra providers stay enabled", () => {
    const c = buildOpenCodeConfig({
      user: {
        provider: { mine: {} },
        enabled_providers: ["mine"],
        disabled_providers: ["demo", "z", "patchbay-warm-up"],
        envRefs: [],
      },
      extraProviders: { demo: { npm: "x" } },
      pluginFile: "/p/companion.ts",
    });
    assert.equal(c.autoupdate, false);
    assert.equal(c.share, "disabled");
    assert.equal(c.snapshot, false);
    assert.deepEqual(c.compaction, { auto: false, prune: false });
    assert.deepEqual(c.disabled_providers, ["opencode", "z"]);
    // The hidden warm-up model (prime-instance.ts) is always there and enabled, whatever the user's lists say.
    assert.deepEqual(c.enabled_providers, ["mine", "demo", "patchbay-warm-up"]);
    assert.deepEqual(Object.keys(c.provider as object), ["mine", "demo", "patchbay-warm-up"]);
    assert.deepEqual(c.plugin, ["file:///p/companion.ts"]);
    const bridge = (c.agent as Record<string, { permission: unknown; prompt: string }>).bridge!;
    assert.deepEqual(bridge.permission, { "*": "deny", patchbay_client_tool: "ask" });
    assert.ok(bridge.prompt.length > 0);
  });
});

describe("prepareOpenCodeHome", () => {
  test("creates the isolated dirs, pre-seeds the config dir, copies the plugin and links (never copies) auth.json", () => {
    const dataDir = tmp();
    const userDir = tmp();
    const auth = path.join(userDir, "auth.json");
    fs.writeFileSync(auth, '{"openai":{"type":"api","key":"k"}}');
    const home = prepareOpenCodeHome({ dataDir, user: { authFile: auth, configFile: null } });
    for (const v of Object.values(home.env)) assert.ok(fs.statSync(v).isDirectory());
    assert.ok(home.env.HOME?.startsWith(path.join(dataDir, "opencode")));
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(home.configDir, "package.json"), "utf8")), {
      dependencies: { "@opencode-ai/plugin": "1.18.33" },
    });
    assert.ok(fs.existsSync(path.join(home.configDir, "package-lock.json")));
    assert.ok(fs.statSync(path.join(home.configDir, "node_modules")).isDirectory());
    assert.match(fs.readFileSync(home.pluginFile, "utf8"), /export const PatchbayCompanion/);
    assert.ok(!home.pluginFile.startsWith(home.configDir), "outside the auto-loaded config dir");
    const link = path.join(home.env.XDG_DATA_HOME!, "opencode", "auth.json");
    assert.equal(fs.readlinkSync(link), auth);
    // Idempotent, and a removed auth.json removes the link.
    fs.rmSync(auth);
    const again = prepareOpenCodeHome({ dataDir, user: { authFile: auth, configFile: null } });
    assert.deepEqual(again.notices, []);
    assert.equal(fs.existsSync(link) || isLink(link), false);
    fs.rmSync(dataDir, { recursive: true });
    fs.rmSync(userDir, { recursive: true });
  });
});

function isLink(p: string): boolean {
  try {
    return fs.lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

describe("buildChildEnv", () => {
  test("isolated HOME/XDG, flags never empty, password + side channel in env, provider keys pass, user's OpenCode env does not", () => {
    const env = buildChildEnv({
      parent: {
        PATH: "/bin",
        HOME: "/home/real",
        XDG_CONFIG_HOME: "/home/real/.config",
        OPENCODE_CONFIG: "/home/real/oc.json",
        OPENAI_API_KEY: "sk-1",
        ANTHROPIC_API_KEY: "sk-2",
        MY_CUSTOM: "c",
        SECRET_STUFF: "no",
        HTTPS_PROXY: "http://proxy",
      },
      home: { HOME: "/d/home", XDG_CONFIG_HOME: "/d/config" },
      password: "pw",
      sideChannel: { url: "http://127.0.0.1:1", token: "t" },
      passthrough: ["MY_CUSTOM"],
    });
    assert.equal(env.HOME, "/d/home");
    assert.equal(env.XDG_CONFIG_HOME, "/d/config");
    assert.equal(env.OPENCODE_CONFIG, undefined);
    assert.equal(env.OPENAI_API_KEY, "sk-1");
    assert.equal(env.ANTHROPIC_API_KEY, "sk-2");
    assert.equal(env.MY_CUSTOM, "c");
    assert.equal(env.SECRET_STUFF, undefined);
    assert.equal(env.HTTPS_PROXY, "http://proxy");
    assert.equal(env.OPENCODE_SERVER_PASSWORD, "pw");
    assert.equal(env.PATCHBAY_SIDE_CHANNEL_TOKEN, "t");
    assert.equal(env.OPENCODE_DISABLE_MODELS_FETCH, "true");
    for (const [k, v] of Object.entries(env))
      if (k.startsWith("OPENCODE_DISABLE")) assert.ok(v === "true" || v === "1", `${k}=${v}`);
  });
});
