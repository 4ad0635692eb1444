// Finds or fetches a Chromium for the dashboard tests and prints its path; `run-tests.mjs` passes it on as
// PATCHBAY_CHROMIUM. Order: PATCHBAY_CHROMIUM, a system Chromium/Chrome, Playwright's own cached browser, Playwright's
// download (`playwright-core install chromium`), and where that fails (no network to its CDN) the OS package
// (`apt-get install chromium` on Debian/Ubuntu, as root or with passwordless sudo). Exits 1 with what to do otherwise.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);

/** Browsers a developer machine may already have. */
const SYSTEM_CANDIDATES = [
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

function run(cmd, args, timeoutMs) {
  const r = spawnSync(cmd, args, { stdio: ["ignore", "inherit", "inherit"], timeout: timeoutMs });
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

async function main() {
  const override = process.env.PATCHBAY_CHROMIUM;
  if (override) {
    if (existsSync(override)) return override;
    log(`PATCHBAY_CHROMIUM=${override} does not exist; looking elsewhere`);
  }
  const system = SYSTEM_CANDIDATES.find((p) => existsSync(p));
  if (system) return system;

  const cached = await playwrightPath();
  if (cached && existsSync(cached)) return cached;

  log("no Chromium found; trying Playwright's browser download (playwright-core install chromium)…");
  const cli = path.join(path.dirname(require.resolve("playwright-core/package.json")), "cli.js");
  if (run(process.execPath, [cli, "install", "chromium"], 10 * 60_000)) {
    const fetched = await playwrightPath();
    if (fetched && existsSync(fetched)) return fetched;
  }

  if (process.platform === "linux" && existsSync("/usr/bin/apt-get")) {
    const asRoot = process.getuid?.() === 0;
    const sudo = !asRoot && run("sudo", ["-n", "true"], 10_000);
    if (asRoot || sudo) {
      log("Playwright's download failed; installing the system package instead (apt-get install chromium)…");
      const pre = asRoot ? [] : ["-n"];
      const apt = (args) =>
        asRoot ? run("apt-get", args, 15 * 60_000) : run("sudo", [...pre, "apt-get", ...args], 15 * 60_000);
      process.env.DEBIAN_FRONTEND = "noninteractive";
      if (apt(["update", "-qq"]) && apt(["install", "-y", "-qq", "chromium"]) && existsSync("/usr/bin/chromium")) {
        return "/usr/bin/chromium";
      }
    }
  }
  return null;
}

const found = await main();
if (!found) {
  log(
    "could not find or install Chromium for the dashboard tests. Install one (Debian/Ubuntu: `sudo apt-get install " +
      "chromium`; elsewhere `npx playwright-core install chromium`) or set PATCHBAY_CHROMIUM to its path.",
  );
  process.exit(1);
}
process.stdout.write(`${found}\n`);
