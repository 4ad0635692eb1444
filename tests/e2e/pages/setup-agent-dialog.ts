// Page object of the Connect page's "Coding agents" card and its "Set up <agent>" dialog (role locators only).
import type { Locator, Page } from "playwright-core";

export class CodingAgentsCard {
  constructor(readonly page: Page) {}
  readonly card = () => this.page.getByRole("region", { name: "Coding agents" });

  /** Clicks "Set up <agent>…" and returns the dialog once its preview is shown. */
  async setUp(agent: string): Promise<SetupAgentDialog> {
    await this.card()
      .getByRole("button", { name: `Set up ${agent}` })
      .click();
    return new SetupAgentDialog(this.page, agent).ready();
  }

  /** Clicks "Verify" for `agent` and returns the result callout's text. */
  async verify(agent: string): Promise<string> {
    await this.card()
      .getByRole("button", { name: `Verify ${agent}` })
      .click();
    // The bold "OK:" / "Check failed:" opens the result; its parent holds the whole sentence.
    const result = this.card()
      .getByText(/^(OK|Check failed):/)
      .locator("xpath=..");
    await result.waitFor();
    return (await result.textContent()) ?? "";
  }
}

export class SetupAgentDialog {
  constructor(
    readonly page: Page,
    readonly agent: string,
  ) {}
  readonly dialog = (): Locator => this.page.getByRole("dialog", { name: `Set up ${this.agent}` });
  readonly changes = (): Locator => this.dialog().getByLabel("Changes", { exact: true });

  /** Waits for the diff (or the "already has these settings" note). */
  async ready(): Promise<this> {
    await this.changes().or(this.dialog().getByText("already has these settings")).first().waitFor();
    return this;
  }

  async diff(): Promise<string> {
    return (await this.changes().textContent()) ?? "";
  }

  /** Writes the settings and returns the verify result's text. */
  async write(): Promise<string> {
    await this.dialog().getByRole("button", { name: "Write settings" }).click();
    const result = this.dialog()
      .getByText(/^(OK|Check failed):/)
      .locator("xpath=..");
    await result.waitFor({ timeout: 90_000 });
    return (await result.textContent()) ?? "";
  }

  async cancel(): Promise<void> {
    await this.dialog().getByRole("button", { name: "Cancel" }).click();
    await this.dialog().waitFor({ state: "detached" });
  }

  async done(): Promise<void> {
    await this.dialog().getByRole("button", { name: "Done" }).click();
    await this.dialog().waitFor({ state: "detached" });
  }
}
