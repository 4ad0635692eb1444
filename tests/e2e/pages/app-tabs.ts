// Page objects of the App detail tabs the suite drives: Keys (create → reveal once → revoke), Models (allowlist)
// and Aliases. Each returns the next page object of its flow.
import type { Locator, Page } from "playwright-core";

/** The "Your new key" dialog: the only place the full key is ever shown. */
export class KeyRevealDialog {
  constructor(readonly page: Page) {}
  readonly dialog = () => this.page.getByRole("dialog", { name: "Your new key" });

  async ready(): Promise<this> {
    await this.dialog().waitFor();
    return this;
  }

  /** The full key as shown in the read-only "API key" textbox. */
  async key(): Promise<string> {
    return this.dialog().getByRole("textbox", { name: "API key" }).inputValue();
  }

  async copy(): Promise<this> {
    await this.dialog().getByRole("button", { name: "Copy key" }).click();
    return this;
  }

  /** Done → back to the Keys tab, the dialog gone. */
  async done(): Promise<KeysTab> {
    await this.dialog().getByRole("button", { name: "Done" }).click();
    await this.dialog().waitFor({ state: "detached" });
    return new KeysTab(this.page).ready();
  }
}

export class KeysTab {
  constructor(readonly page: Page) {}
  readonly region = () => this.page.getByRole("region", { name: "Keys", exact: true });
  readonly table = () => this.region().getByRole("table", { name: "API keys" });

  async ready(): Promise<this> {
    await this.region().getByRole("button", { name: "New key" }).waitFor();
    return this;
  }

  /** New key → label → Create key; returns the reveal dialog. */
  async createKey(label: string): Promise<KeyRevealDialog> {
    await this.region().getByRole("button", { name: "New key" }).click();
    const dialog = this.page.getByRole("dialog", { name: "New key" });
    await dialog.getByRole("textbox", { name: "Label (optional)" }).fill(label);
    await dialog.getByRole("button", { name: "Create key" }).click();
    return new KeyRevealDialog(this.page).ready();
  }

  /** The table row of the key with this prefix. */
  row(prefix: string): Locator {
    return this.table()
      .getByRole("row")
      .filter({ has: this.page.getByRole("button", { name: `Revoke ${prefix}` }) });
  }

  /** Revoke <prefix> → "Yes, revoke"; waits until the row is gone. */
  async revoke(prefix: string): Promise<this> {
    await this.region()
      .getByRole("button", { name: `Revoke ${prefix}` })
      .click();
    const dialog = this.page.getByRole("dialog", { name: "Revoke key" });
    await dialog.getByRole("button", { name: "Yes, revoke" }).click();
    await dialog.waitFor({ state: "detached" });
    await this.region()
      .getByRole("button", { name: `Revoke ${prefix}` })
      .waitFor({ state: "detached" });
    return this;
  }
}

export class ModelsTab {
  constructor(readonly page: Page) {}
  readonly region = () => this.page.getByRole("region", { name: "Models", exact: true });
  readonly allowlist = () => this.region().getByRole("list", { name: "Allowlist" });

  async ready(): Promise<this> {
    await this.region().getByRole("combobox", { name: "Add a model or pattern" }).waitFor();
    return this;
  }

  /** Types `pattern` and presses Enter (adds the typed text), then waits for its chip. */
  async add(pattern: string): Promise<this> {
    const box = this.region().getByRole("combobox", { name: "Add a model or pattern" });
    await box.fill(pattern);
    await box.press("Enter");
    await this.allowlist()
      .getByRole("button", { name: `Remove ${pattern}` })
      .waitFor();
    return this;
  }

  /** Save allowlist → waits for "Saved" (the tab's first status: Routes by request role has its own below). */
  async save(): Promise<this> {
    await this.region().getByRole("button", { name: "Save allowlist" }).click();
    await this.region()
      .getByRole("status")
      .first()
      .filter({ hasText: /^Saved$/ })
      .waitFor();
    return this;
  }
}

export class AliasesTab {
  constructor(readonly page: Page) {}
  readonly region = () => this.page.getByRole("region", { name: "Aliases", exact: true });
  readonly table = () => this.region().getByRole("table", { name: "Aliases" });

  async ready(): Promise<this> {
    await this.region().getByRole("button", { name: "Add alias" }).waitFor();
    return this;
  }

  /** Fills Alias and Target model (typed, the suggestion list closed with Escape), Add alias; waits for its row. */
  async add(alias: string, target: string): Promise<this> {
    await this.region().getByRole("textbox", { name: "Alias" }).fill(alias);
    const combo = this.region().getByRole("combobox", { name: "Target model" });
    await combo.fill(target);
    await combo.press("Escape");
    await this.region().getByRole("button", { name: "Add alias" }).click();
    await this.region()
      .getByRole("button", { name: `Remove alias ${alias}` })
      .waitFor();
    return this;
  }

  /** The cells of `alias`'s row: alias, target, fallbacks, routed roles (and the empty actions cell). */
  async row(alias: string): Promise<string[]> {
    const row = this.table()
      .getByRole("row")
      .filter({ has: this.page.getByRole("cell", { name: alias, exact: true }) });
    await row.waitFor();
    return (await row.getByRole("cell").allInnerTexts()).map((t) => t.trim());
  }

  /** The read-only "Routes" table's rows as [role, where it goes]. */
  async routes(): Promise<string[][]> {
    const rows = this.region().getByRole("table", { name: "Routes", exact: true }).locator("tbody").getByRole("row");
    await rows.first().waitFor();
    const out: string[][] = [];
    for (const row of await rows.all()) out.push((await row.getByRole("cell").allInnerTexts()).map((t) => t.trim()));
    return out;
  }

  /** Save aliases → waits for "Saved" (the tab's first status: Fallback chains has its own below). */
  async save(): Promise<this> {
    await this.region().getByRole("button", { name: "Save aliases" }).click();
    await this.region()
      .getByRole("status")
      .first()
      .filter({ hasText: /^Saved$/ })
      .waitFor();
    return this;
  }
}
