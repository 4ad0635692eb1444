// Page object of Settings: the OpenAI API form (Host, Port, switches), the LAN-exposure confirmation and the web
// search backend.
import type { Page } from "playwright-core";

export class SettingsPage {
  constructor(readonly page: Page) {}
  readonly heading = () => this.page.getByRole("heading", { name: "Settings", level: 1 });
  readonly host = () => this.page.getByRole("textbox", { name: "Host" });
  readonly port = () => this.page.getByRole("spinbutton", { name: "Port" });
  readonly save = () => this.page.getByRole("button", { name: "Save settings" });
  readonly switch = (name: string) => this.page.getByRole("switch", { name });

  readonly webSearch = () => this.page.getByRole("region", { name: "Web search", exact: true });

  /** Web search → Search URL → Save search URL; waits for "Saved". */
  async saveSearchUrl(url: string): Promise<this> {
    await this.webSearch().getByRole("textbox", { name: "Search URL" }).fill(url);
    await this.webSearch().getByRole("button", { name: "Save search URL" }).click();
    await this.webSearch()
      .getByRole("status")
      .filter({ hasText: /^Saved$/ })
      .waitFor();
    return this;
  }

  async ready(): Promise<this> {
    await this.heading().waitFor();
    await this.host().waitFor();
    return this;
  }

  /** Turns "Expose on LAN" on, which must first ask; returns the confirmation dialog. */
  async askLanExposure() {
    await this.switch("Expose on LAN").click();
    const dialog = this.page.getByRole("dialog", { name: "Expose Patchbay on your network?" });
    await dialog.waitFor();
    return dialog;
  }
}
