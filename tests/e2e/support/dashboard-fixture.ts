// E2E fixture that owns the whole stack for one test file: a headless Patchbay (mock upstream + isolated OpenCode,
// via startPatchbayFixture) and a headless Debian Chromium with a fresh profile. Must not log in or click anything.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { startPatchbayFixture, type FixtureOptions, type PatchbayFixture } from "../../harness/patchbay-fixture";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
/** Where screenshots go (gitignored `test-artifacts/`). */
export const SCREENSHOT_DIR = path.join(ROOT, "test-artifacts", "screenshots");
const RENDERER_INDEX = path.join(ROOT, "dist", "renderer", "index.html");

/** Flags for Debian Chromium in a container: no sandbox (root), no GPU, and no traffic beyond 127.0.0.1. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/** The default desktop viewport of the screenshots (px). */
export const DESKTOP_VIEWPORT = { width: 1280, height: 800 };

/** A running Patchbay plus a browser page on a fresh context (clipboard permission granted for the dashboard). */
export interface DashboardFixture {
  fx: PatchbayFixture;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Uncaught exceptions thrown in the page (`pageerror`), as messages. */
  pageErrors: string[];
  /** Console messages of type "error", as text. */
  consoleErrors: string[];
  /** Saves `test-artifacts/screenshots/<name>.png` of the viewport and returns its path. */
  screenshot(name: string): Promise<string>;
  /** Closes the browser, then stops Patchbay; safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Starts Patchbay (with `opts`, e.g. a temp HOME for the connect rows) and Chromium. Throws with the fix when the renderer is not built (`npm run build:renderer`) or
 * Chromium is missing (`apt-get install chromium`; override the path with PATCHBAY_CHROMIUM).
 */
export async function startDashboardFixture(opts: FixtureOptions = {}): Promise<DashboardFixture> {
  if (!fs.existsSync(RENDERER_INDEX))
    throw new Error(`The dashboard is not built (${RENDERER_INDEX} is missing): run npm run build:renderer`);
  const executablePath = process.env.PATCHBAY_CHROMIUM ?? "/usr/bin/chromium";
  if (!fs.existsSync(executablePath))
    throw new Error(
      `Chromium not found at ${executablePath}: run the tests through npm test (it finds or installs one), or set PATCHBAY_CHROMIUM`,
    );

  const fx = await startPatchbayFixture(opts);
  let browser: Browser;
  try {
    browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, timeout: 60_000 });
  } catch (err) {
    await fx.stop();
    throw err;
  }
  // A new context is a fresh profile: no cookies, no storage. Fixed locale and zone keep formatted text stable.
  const context = await browser.newContext({
    viewport: DESKTOP_VIEWPORT,
    deviceScaleFactor: 1,
    locale: "en-US",
    timezoneId: "UTC",
    colorScheme: "light",
  });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: fx.urls.adminUrl });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const pageErrors: string[] = [];
  const consoleErrors: string[] = [];
  page.on("pageerror", (err) => pageErrors.push(err.message));
  page.on("console", (msg) => {
    if (msg.type() === "error") consoleErrors.push(msg.text());
  });
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });

  let stopped = false;
  return {
    fx,
    browser,
    context,
    page,
    pageErrors,
    consoleErrors,
    async screenshot(name) {
      const file = path.join(SCREENSHOT_DIR, `${name}.png`);
      // Let transitions (dialog fade, "fresh" row highlight) settle so the image shows the resting state.
      await page.waitForTimeout(250);
      await page.screenshot({ path: file, animations: "disabled" });
      return file;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await context.close().catch(() => undefined);
      await browser.close().catch(() => undefined);
      await fx.stop();
    },
  };
}
