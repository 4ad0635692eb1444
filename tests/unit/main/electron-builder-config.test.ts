// electron-builder.yml is valid for electron-builder (its own JSON schema, app-builder-lib/scheme.json, via ajv with
// electron-builder's options, plus electron-builder's own validateConfiguration), says what the desktop issue asks
// (targets, tray-only macOS app, Development category), and every file it refers to exists. Packaging itself needs
// the Electron binary and cannot run here.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import { PNG } from "pngjs";
import YAML from "yaml";
import { packagedOpencodeBinary } from "../../../main/opencode-binary";
import { allTrayIconFiles } from "../../../main/tray-icon";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const require = createRequire(import.meta.url);

interface FileSet {
  from: string;
  to: string;
  filter?: string[];
}
type Config = Record<string, unknown> & {
  files: string[];
  asarUnpack: string[];
  directories: { output: string; buildResources: string };
  linux: { target: string[]; category: string; icon: string; extraResources: FileSet[] };
  mac: {
    target: { target: string; arch: string }[];
    icon: string;
    extendInfo: Record<string, unknown>;
    entitlements: string;
    entitlementsInherit: string;
    x64ArchFiles: string;
    extraResources: FileSet[];
  };
  win: { target: { target: string; arch: string[] }[]; icon: string; extraResources: FileSet[] };
};

const config = YAML.parse(readFileSync(path.join(ROOT, "electron-builder.yml"), "utf8")) as Config;
const scheme = JSON.parse(readFileSync(require.resolve("app-builder-lib/scheme.json"), "utf8")) as object;

/** ajv set up exactly like electron-builder's schemaValidator.js. */
function schemaErrors(cfg: unknown): string[] {
  const ajv = new Ajv({ allErrors: true, verbose: true, coerceTypes: true, strict: false });
  const validate = ajv.compile(scheme);
  // coerceTypes mutates; validate a copy.
  return validate(structuredClone(cfg)) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

const pngSize = (file: string) => {
  const png = PNG.sync.read(readFileSync(file));
  return [png.width, png.height];
};

describe("electron-builder.yml schema", () => {
  test("valid against app-builder-lib/scheme.json", () => {
    assert.deepEqual(schemaErrors(config), []);
  });

  test("control: a misspelt option and a wrong type are rejected", () => {
    assert.notDeepEqual(schemaErrors({ ...config, linux: { ...config.linux, categroy: "Development" } }), []);
    assert.notDeepEqual(schemaErrors({ ...config, asarUnpack: { not: "a list" } }), []);
  });

  test("electron-builder's own validateConfiguration accepts it", async () => {
    const { validateConfiguration } = require("app-builder-lib/out/util/config/config") as {
      validateConfiguration(c: unknown, log: { isEnabled: boolean; add(): void }): Promise<void>;
    };
    await validateConfiguration(structuredClone(config), { isEnabled: false, add() {} });
    await assert.rejects(
      validateConfiguration(
        { ...structuredClone(config), appImage: { systemIntegration: "ask" } },
        { isEnabled: false, add() {} },
      ),
    );
  });
});

describe("electron-builder.yml content", () => {
  test("identity and targets: Linux AppImage+deb (Development), macOS universal dmg tray-only, Windows nsis", () => {
    assert.equal(config.appId, "dev.patchbay.app");
    assert.equal(config.productName, "Patchbay");
    assert.deepEqual(config.linux.target, ["AppImage", "deb"]);
    assert.equal(config.linux.category, "Development");
    assert.deepEqual(config.mac.target, [{ target: "dmg", arch: "universal" }]);
    assert.equal(config.mac.extendInfo.LSUIElement, true);
    assert.equal(config.win.target[0]?.target, "nsis");
  });

  test("the app ships the bundle, the dashboard, server/shared sources, package.json, and no node_modules", () => {
    for (const p of [
      "dist/main/**/*",
      "dist/renderer/**/*",
      "server/**/*",
      "shared/**/*",
      "package.json",
      "!node_modules/**/*",
    ]) {
      assert.ok(config.files.includes(p), p);
    }
  });

  test("files the bundle reads or spawns at run time exist and are unpacked from the asar", () => {
    // Found by the server relative to its modules (build-main.mjs maps import.meta to these source locations).
    for (const file of [
      "server/opencode/protocol/companion-plugin.ts",
      "server/opencode/process/child-guard.mjs",
      "server/opencode/process/child-guard.sh",
      "package.json",
    ]) {
      assert.ok(existsSync(path.join(ROOT, file)), `${file} missing`);
    }
    // Unpacked together with their sibling modules (supervisor.ts, home.ts), which the bundle locates them from.
    assert.deepEqual(config.asarUnpack, ["server/opencode/**", "dist/main/*-worker.cjs"]);
    // The generators of dist/: the main bundle script and the dashboard's vite config.
    assert.ok(existsSync(path.join(ROOT, "build/scripts/build-main.mjs")));
    assert.ok(existsSync(path.join(ROOT, "main/main.ts")));
  });

  test("icons: app icon 1024², Linux icon set, tray icons at 16/32 px for every state and theme", () => {
    assert.ok(statSync(path.join(ROOT, config.directories.buildResources)).isDirectory());
    assert.deepEqual(pngSize(path.join(ROOT, config.mac.icon)), [1024, 1024]);
    assert.deepEqual(pngSize(path.join(ROOT, config.win.icon)), [1024, 1024]);
    for (const n of [16, 32, 48, 64, 128, 256, 512]) {
      assert.deepEqual(pngSize(path.join(ROOT, config.linux.icon, `${n}x${n}.png`)), [n, n]);
    }
    for (const file of allTrayIconFiles()) {
      const size = file.includes("@2x") ? 32 : 16;
      assert.deepEqual(pngSize(path.join(ROOT, "build", "tray", file)), [size, size], file);
    }
    for (const f of [config.mac.entitlements, config.mac.entitlementsInherit])
      assert.ok(existsSync(path.join(ROOT, f)), f);
  });

  test("OpenCode binary: every packaged location matches main/opencode-binary.ts, from real opencode-ai platform packages", () => {
    const pinned = JSON.parse(readFileSync(path.join(ROOT, "node_modules/opencode-ai/package.json"), "utf8")) as {
      optionalDependencies: Record<string, string>;
    };
    const cases: [NodeJS.Platform, string, FileSet][] = [
      ...(["x64", "arm64"].map((arch) => ["linux", arch, config.linux.extraResources[0]!]) as [
        NodeJS.Platform,
        string,
        FileSet,
      ][]),
      ...(config.mac.extraResources.map((fs) => ["darwin", /darwin-(\w+)/.exec(fs.to)![1]!, fs]) as [
        NodeJS.Platform,
        string,
        FileSet,
      ][]),
      ["win32", "x64", config.win.extraResources[0]!],
    ];
    assert.equal(cases.length, 5);
    for (const [platform, arch, fileSet] of cases) {
      const from = fileSet.from.replace("${arch}", arch);
      const to = fileSet.to.replace("${arch}", arch);
      const pkg = /node_modules\/([^/]+)\/bin$/.exec(from)?.[1];
      assert.ok(pkg && pkg in pinned.optionalDependencies, `${from}: not an opencode-ai platform package`);
      const exe = fileSet.filter?.[0] ?? "";
      assert.equal(exe, platform === "win32" ? "opencode.exe" : "opencode");
      const resolved = packagedOpencodeBinary({ resourcesPath: "/R", platform, arch }).replace(/\\/g, "/");
      assert.equal(resolved, `/R/${to}/${exe}`);
    }
    // The host's own package is installed here; check it really has the binary the filter picks.
    const host = process.platform === "win32" ? "windows" : process.platform;
    if (process.arch === "x64" || process.arch === "arm64") {
      assert.ok(
        existsSync(
          path.join(
            ROOT,
            "node_modules",
            `opencode-${host}-${process.arch}`,
            "bin",
            host === "windows" ? "opencode.exe" : "opencode",
          ),
        ),
      );
    }
  });

  test("macOS universal: both OpenCode binaries are covered by x64ArchFiles (else @electron/universal refuses to merge)", () => {
    const glob = new RegExp(
      `^${config.mac.x64ArchFiles
        .replace(/[.+^${}()|[\]\\]/g, "\\$&")
        .replace(/\*\*/g, ".*")
        .replace(/(?<!\.)\*/g, "[^/]*")}$`,
    );
    for (const fs of config.mac.extraResources) {
      assert.match(`Contents/Resources/${fs.to}/opencode`, glob);
    }
  });
});
