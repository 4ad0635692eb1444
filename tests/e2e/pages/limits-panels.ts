// Page objects of an app's routing and limits panels (issue 24): "Routes by request role" on the Models tab,
// "Fallback chains" on the Aliases tab, "Budgets" and "Web search" on the Limits tab, and the budget use on the Usage
// tab. Role locators only.
import type { Locator, Page } from "playwright-core";

/** The Models tab's "Routes by request role" panel: one text field per role. */
export class RoutesPanel {
  constructor(readonly page: Page) {}
  readonly region = () => this.page.getByRole("region", { name: "Routes by request role", exact: true });
  readonly field = (role: string) => this.region().getByRole("textbox", { name: role, exact: true });
  readonly saveButton = () => this.region().getByRole("button", { name: "Save routes" });
  /** The save error (a danger callout), when the server refused. */
  readonly error = () => this.region().getByRole("alert");

  async ready(): Promise<this> {
    await this.saveButton().waitFor();
    return this;
  }

  /** Sets `role`'s target ("" removes the route). */
  async set(role: string, target: string): Promise<this> {
    await this.field(role).fill(target);
    return this;
  }

  /** Save routes, without waiting for the outcome. */
  async clickSave(): Promise<this> {
    await this.saveButton().click();
    return this;
  }

  /** Save routes → waits for "Saved". */
  async save(): Promise<this> {
    await this.clickSave();
    await this.region()
      .getByRole("status")
      .filter({ hasText: /^Saved$/ })
      .waitFor();
    return this;
  }
}

/** The Limits tab's "Budgets" panel: chips of the draft, Count + Budget fields, Add budget, Save budgets. */
export class BudgetsPanel {
  constructor(readonly page: Page) {}
  readonly region = () => this.page.getByRole("region", { name: "Budgets", exact: true });
  readonly specField = () => this.region().getByRole("textbox", { name: "Budget", exact: true });
  readonly saveButton = () => this.region().getByRole("button", { name: "Save budgets" });
  readonly chips = () => this.region().getByRole("list", { name: "App budgets" }).getByRole("listitem");

  async ready(): Promise<this> {
    await this.saveButton().waitFor();
    return this;
  }

  /** Chooses Requests or Tokens, types `spec` (e.g. `300/5h`) and clicks Add budget. */
  async add(metric: "Requests" | "Tokens", spec: string): Promise<this> {
    await this.region().getByRole("combobox", { name: "Count" }).selectOption({ label: metric });
    await this.specField().fill(spec);
    await this.region().getByRole("button", { name: "Add budget" }).click();
    return this;
  }

  /** Clicks the chip's remove button (`describeBudget` text, e.g. "1000 tokens per day"). */
  async remove(described: string): Promise<this> {
    await this.region()
      .getByRole("button", { name: `Remove ${described}`, exact: true })
      .click();
    return this;
  }

  /** The chips' texts. */
  async listed(): Promise<string[]> {
    return (await this.chips().allInnerTexts()).map((t) => t.trim());
  }

  /** Save budgets → waits for "Saved". */
  async save(): Promise<this> {
    await this.saveButton().click();
    await this.region()
      .getByRole("status")
      .filter({ hasText: /^Saved$/ })
      .waitFor();
    return this;
  }
}

/** The Usage tab's "Budgets" card: one item per budget, named like "3 requests per 5 hours". */
export class BudgetUse {
  constructor(readonly page: Page) {}
  readonly region = () => this.page.getByRole("main").getByRole("region", { name: "Budgets", exact: true });
  readonly item = (described: string): Locator =>
    this.region().getByRole("list", { name: "Budget use" }).getByRole("listitem", { name: described, exact: true });

  async ready(): Promise<this> {
    await this.region().waitFor();
    return this;
  }
}

/** The Aliases tab's "Fallback chains" panel: one group per saved alias, one Save fallbacks for all. */
export class FallbackChains {
  constructor(readonly page: Page) {}
  readonly region = () => this.page.getByRole("region", { name: "Fallback chains", exact: true });
  /** The chain editor of `alias`. */
  readonly chain = (alias: string) => this.region().getByRole("group", { name: `Fallbacks of ${alias}`, exact: true });
  readonly picker = (alias: string) =>
    this.chain(alias).getByRole("combobox", { name: `Add a fallback to ${alias}`, exact: true });
  /** A move or remove button of one entry: "Move <model> up", "Move <model> down", "Remove fallback <model>". */
  readonly button = (alias: string, name: string) => this.chain(alias).getByRole("button", { name, exact: true });
  /** The server's refusal shown at `alias`'s chain. */
  readonly error = (alias: string) => this.chain(alias).getByRole("alert");
  readonly saveButton = () => this.region().getByRole("button", { name: "Save fallbacks" });
  readonly status = () => this.region().getByRole("status");

  async ready(): Promise<this> {
    await this.saveButton().waitFor();
    return this;
  }

  /** The models of `alias`'s draft chain, in order (empty when it has none). */
  async listed(alias: string): Promise<string[]> {
    await this.chain(alias).waitFor();
    const items = this.chain(alias)
      .getByRole("list", { name: `Fallback chain of ${alias}` })
      .getByRole("listitem");
    return (await items.allInnerTexts()).map((t) => t.trim().replace(/^\d+\.\s*/, ""));
  }

  /** Types `text` into the alias's picker and picks the suggestion `model` with the mouse. */
  async pick(alias: string, text: string, model: string): Promise<this> {
    await this.picker(alias).fill(text);
    await this.chain(alias)
      .getByRole("option")
      .filter({ has: this.page.getByText(model, { exact: true }) })
      .click();
    return this;
  }

  /** Types `model` into the alias's picker and presses Enter (adds what was typed, checked first). */
  async type(alias: string, model: string): Promise<this> {
    await this.picker(alias).fill(model);
    await this.picker(alias).press("Enter");
    return this;
  }

  /** Save fallbacks, without waiting for the outcome. */
  async clickSave(): Promise<this> {
    await this.saveButton().click();
    return this;
  }

  /** Save fallbacks → waits for "Saved". */
  async save(): Promise<this> {
    await this.clickSave();
    await this.status()
      .filter({ hasText: /^Saved$/ })
      .waitFor();
    return this;
  }
}

/** The Limits tab's "Web search" panel: the app's switch and where its searches go. */
export class WebSearchPanel {
  constructor(readonly page: Page) {}
  readonly region = () => this.page.getByRole("region", { name: "Web search", exact: true });
  readonly toggle = () => this.region().getByRole("switch", { name: "Run web search and web fetch for this app" });

  async ready(): Promise<this> {
    await this.toggle().waitFor();
    return this;
  }
}
