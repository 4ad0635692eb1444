// Page object of the global Connect page: the App select and the Connect panel.
import type { Page } from "playwright-core";
import { ConnectPanel } from "./connect-panel";

export class ConnectPage {
  constructor(readonly page: Page) {}
  readonly heading = () => this.page.getByRole("heading", { name: "Connect", level: 1 });
  readonly panel = () => new ConnectPanel(this.page.getByRole("main"));

  async ready(): Promise<this> {
    await this.heading().waitFor();
    await this.panel().ready();
    return this;
  }

  /** Picks an app in the "App" select (its aliases and allowlist then shape the snippets). */
  async chooseApp(name: string): Promise<this> {
    await this.page.getByRole("main").getByRole("combobox", { name: "App", exact: true }).selectOption(name);
    return this;
  }
}
