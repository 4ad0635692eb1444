// Page object of the Connect panel (global Connect page and an app's Connect tab): the model picker, the base URL,
// and the "Clients" tabs with one copyable snippet each.
import type { Locator } from "playwright-core";

export class ConnectPanel {
  constructor(readonly root: Locator) {}
  readonly tabs = () => this.root.getByRole("tablist", { name: "Clients" });

  async ready(): Promise<this> {
    await this.tabs().waitFor();
    return this;
  }

  /** The base URL shown beside "Copy base URL". */
  async baseUrl(): Promise<string> {
    return (await this.root.locator(".readonly-value code").innerText()).trim();
  }

  /** Selects a client tab and returns its snippet text. */
  async snippet(client: string): Promise<string> {
    await this.tabs().getByRole("tab", { name: client, exact: true }).click();
    const panel = this.root.getByRole("tabpanel", { name: client, exact: true });
    return panel.getByLabel(`${client} snippet`, { exact: true }).innerText();
  }

  async copySnippet(client: string): Promise<void> {
    await this.root.getByRole("button", { name: `Copy ${client} snippet` }).click();
  }
}
