// Page objects of an app's History tab (issue 6): the history limits editor, the "Prune" region with its live
// preview, "Prune now" and its confirmation, and the last sweep. Each action returns where it lands. Role locators only.
import type { Page } from "playwright-core";

/** What the preview says a prune would delete now. */
export interface PreviewCounts {
  /** Sessions that would be deleted. */
  count: number;
  /** Sessions looked at. */
  scanned: number;
}

const num = (s: string | undefined) => Number((s ?? "").replace(/,/g, ""));

/** The "Prune now" confirmation. */
export class PruneDialog {
  constructor(readonly page: Page) {}
  readonly dialog = () => this.page.getByRole("dialog", { name: "Prune now", exact: true });

  async ready(): Promise<this> {
    await this.dialog().waitFor();
    return this;
  }

  /** "Yes, prune" → back to the tab once the sweep returned (the dialog closes when it has). */
  async confirm(): Promise<HistoryTab> {
    await this.dialog().getByRole("button", { name: "Yes, prune", exact: true }).click();
    await this.dialog().waitFor({ state: "detached", timeout: 60_000 });
    return new HistoryTab(this.page).ready();
  }
}

export class HistoryTab {
  constructor(readonly page: Page) {}
  readonly region = () => this.page.getByRole("main").getByRole("region", { name: "History", exact: true });
  readonly keepAll = () => this.region().getByRole("switch", { name: "Keep all sessions", exact: true });
  readonly maxSessions = () => this.region().getByRole("spinbutton", { name: "Max sessions", exact: true });
  readonly saveButton = () => this.region().getByRole("button", { name: "Save history limits", exact: true });
  readonly prune = () => this.region().getByRole("region", { name: "Prune", exact: true });
  readonly preview = () => this.prune().getByRole("status", { name: "Prune preview", exact: true });
  readonly pruneButton = () => this.prune().getByRole("button", { name: "Prune now", exact: true });
  readonly lastSweep = () => this.prune().getByRole("group", { name: "Last sweep", exact: true });

  async ready(): Promise<this> {
    await this.keepAll().waitFor();
    await this.prune().waitFor();
    return this;
  }

  /** Turns "Keep all sessions" off and types `n` into "Max sessions" (not saved yet). */
  async setMaxSessions(n: number): Promise<this> {
    if (await this.keepAll().isChecked()) await this.keepAll().uncheck();
    await this.maxSessions().fill(String(n));
    return this;
  }

  /** The preview's numbers as shown now, or null while it shows no count ("Counting…", no limits, an error). */
  async previewCounts(): Promise<PreviewCounts | null> {
    const m = /would delete ([\d,]+) of ([\d,]+) sessions/.exec(await this.preview().innerText());
    return m ? { count: num(m[1]), scanned: num(m[2]) } : null;
  }

  /** Save history limits → waits for "Saved" (the save bar's status). */
  async save(): Promise<this> {
    await this.saveButton().click();
    await this.region()
      .getByRole("status")
      .filter({ hasText: /^Saved$/ })
      .waitFor();
    return this;
  }

  /** Prune now → its confirmation (nothing deleted yet). */
  async askPrune(): Promise<PruneDialog> {
    await this.pruneButton().click();
    return new PruneDialog(this.page).ready();
  }
}
