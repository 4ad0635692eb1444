// Page object of Overview: the OpenAI API region (state badge, base URL, Start/Stop) and today's numbers.
import type { Page } from "playwright-core";

export class OverviewPage {
  constructor(readonly page: Page) {}

  readonly heading = () => this.page.getByRole("heading", { name: "Overview", level: 1 });
  readonly apiRegion = () => this.page.getByRole("region", { name: "OpenAI API" });
  readonly openCodeRegion = () => this.page.getByRole("region", { name: "OpenCode" });
  /** The Limits card (rate-limited models, tightest budget); absent when there is nothing to show. */
  readonly limitsRegion = () => this.page.getByRole("region", { name: "Limits", exact: true });
  /** One rate-limited model's row. */
  readonly rateLimited = (model: string) =>
    this.limitsRegion()
      .getByRole("list", { name: "Rate-limited models" })
      .getByRole("listitem")
      .filter({ hasText: model });

  async ready(): Promise<this> {
    await this.heading().waitFor();
    await this.apiRegion().waitFor();
    return this;
  }

  /** The base URL shown while the API runs (`http://127.0.0.1:<port>/v1`). */
  async baseUrl(): Promise<string> {
    const code = this.apiRegion().locator("code").first();
    await code.waitFor();
    return (await code.innerText()).trim();
  }

  /** The "Stop the API?" confirmation (a modal dialog). */
  readonly stopDialog = () => this.page.getByRole("dialog", { name: "Stop the API?", exact: true });

  /** Clicks "Stop API": the confirmation opens, nothing is stopped yet. */
  async askStopApi(): Promise<this> {
    await this.apiRegion().getByRole("button", { name: "Stop API" }).click();
    await this.stopDialog().waitFor();
    return this;
  }

  /** Clicks "Stop API", confirms, and waits until the page shows the stopped state ("Start API"). */
  async stopApi(): Promise<this> {
    await this.askStopApi();
    await this.stopDialog().getByRole("button", { name: "Yes, stop", exact: true }).click();
    await this.stopDialog().waitFor({ state: "detached" });
    await this.apiRegion().getByRole("button", { name: "Start API" }).waitFor();
    return this;
  }

  /** Clicks "Start API" and waits until the page shows the running state ("Stop API" and a base URL). */
  async startApi(): Promise<this> {
    await this.apiRegion().getByRole("button", { name: "Start API" }).click();
    await this.apiRegion().getByRole("button", { name: "Stop API" }).waitFor();
    await this.apiRegion().getByRole("button", { name: "Copy base URL" }).waitFor();
    return this;
  }
}
