// Reads the page's clipboard (the context must have been granted "clipboard-read"). No other browser logic.
import type { Page } from "playwright-core";

/** The text currently on the clipboard, as the page sees it. */
export async function readClipboard(page: Page): Promise<string> {
  return page.evaluate(() => navigator.clipboard.readText());
}

/** Puts `text` on the clipboard, so a later read proves that a copy button replaced it. */
export async function writeClipboard(page: Page, text: string): Promise<void> {
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
}
