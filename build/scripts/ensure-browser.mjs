// Finds or fetches a Chromium for the dashboard tests and prints its path; `run-tests.mjs` passes it on as
// PATCHBAY_CHROMIUM. Order: PATCHBAY_CHROMIUM, a system Chromium/Chrome, Playwright's own cached browser, Playwright's
// download (`playwright-core install chromium`), and where that fails (no network to its CDN) the OS package
// (`apt-get install chromium` on Debian/Ubuntu, as root or with passwordless sudo). Exits 1 with what to do otherwise.
//
// Contract: stdout carries exactly one line, the browser's path, and nothing else. Every installer's output goes to
// stderr (a child inheriting stdout once put Playwright's download progress where the path belongs: issue 21).
// tests/unit/build/ensure-browser.test.ts pins this with installers that print to stdout.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);

/** Browsers a developer machine may already have. */
export const SYSTEM_CANDIDATES = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
  "/snap/bin/chromium",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
  "/Applications/Chromium.app/Contents/MacOS/Chromium",
];

function log(line) {
  process.stderr.write(`[browser] ${line}\n`);
}

/**
 * Runs an installer step. Its stdout and stderr both go to our stderr (fd 2), never to our stdout, which carries the
 * result. Returns true when it exited 0 within `timeoutMs`.
 */
export function runQuietly(cmd, args, timeoutMs, env = process.env) {
  const r = spawnSync(cmd, args, { stdio: ["ignore", 2, 2], timeout: timeoutMs, env });
  return r.status === 0;
}

async function playwrightPath() {
  try {
    const { chromium } = await import("playwright-core");
    return chromium.executablePath();
  } catch {
    return null;
  }
}

/** Playwright's own download of its Chromium; true when the download command succeeded. */
function playwrightDownload() {
  log("no Chromium found; trying Playwright's browser download (playwright-core install chromium)…");
  const cli = path.join(path.dirname(require.resolve("playwright-core/package.json")), "cli.js");
  return runQuietly(process.execPath, [cli, "install", "chromium"], 10 * 60_000);
}

/** Debian/Ubuntu's chromium package, as root or with passwordless sudo; true when apt-get succeeded. */
function systemPackage() {
  if (process.platform !== "linux" || !existsSync("/usr/bin/apt-get")) return false;
  const asRoot = process.getuid?.() === 0;
  const sudo = !asRoot && runQuietly("sudo", ["-n", "true"], 10_000);
  if (!asRoot && !sudo) return false;
  log("installing the system package (apt-get install chromium)…");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const apt = (args) =>
    asRoot
      ? runQuietly("apt-get", args, 15 * 60_000, env)
      : runQuietly("sudo", ["-n", "apt-get", ...args], 15 * 60_000, env);
  return apt(["update", "-qq"]) && apt(["install", "-y", "-qq", "chromium"]);
}

/**
 * Finds a Chromium: `override`, then `candidates`, then Playwright's cache, then each installer in turn (each followed
 * by a fresh look). Returns the path or null. Pure of stdout: nothing here writes to it.
 * @param {{override?: string, candidates?: string[], cachedPath?: () => Promise<string|null>,
 *   installers?: {name: string, run: () => boolean, paths: () => Promise<(string|null)[]>}[]}} options
 */
export async function findChromium(options = {}) {
  const {
    override = process.env.PATCHBAY_CHROMIUM,
    candidates = SYSTEM_CANDIDATES,
    cachedPath = playwrightPath,
    installers = defaultInstallers(),
  } = options;
  if (override) {
    if (existsSync(override)) return override;
    log(`PATCHBAY_CHROMIUM=${override} does not exist; looking elsewhere`);
  }
  const system = candidates.find((p) => existsSync(p));
  if (system) return system;
  const cached = await cachedPath();
  if (cached && existsSync(cached)) return cached;
  for (const installer of installers) {
    if (!installer.run()) {
      log(`${installer.name} did not succeed; trying the next way`);
      continue;
    }
    const found = (await installer.paths()).find((p) => p && existsSync(p));
    if (found) return found;
  }
  return null;
}

function defaultInstallers() {
  return [
    { name: "Playwright's download", run: playwrightDownload, paths: async () => [await playwrightPath()] },
    { name: "the system package", run: systemPackage, paths: async () => SYSTEM_CANDIDATES },
  ];
}

/** The command: prints the path as the only line on stdout, or explains on stderr and exits 1. */
export async function main(options) {
  const found = await findChromium(options);
  if (!found) {
    log(
      "could not find or install Chromium for the dashboard tests. Install one (Debian/Ubuntu: `sudo apt-get install " +
        "chromium`; elsewhere `npx playwright-core install chromium`) or set PATCHBAY_CHROMIUM to its path.",
    );
    process.exitCode = 1;
    return;
  }
  process.stdout.write(`${found}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
