// Page objects of an app's routing and budget panels (issue 24): "Routes by request role" on the Models tab,
// "Budgets" on the Limits tab, and the budget use on the Usage tab. Role locators only.
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
