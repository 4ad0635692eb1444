// Page object of Apps: the list and the "New app" dialog. Creating an app lands on its detail page.
import type { Page } from "playwright-core";
import { AppDetailPage } from "./app-detail-page";

export class AppsPage {
  constructor(readonly page: Page) {}

  readonly heading = () => this.page.getByRole("heading", { name: "Apps", level: 1 });
  readonly table = () => this.page.getByRole("table", { name: "Apps" });

  async ready(): Promise<this> {
    await this.heading().waitFor();
    return this;
  }

  /** New app → name → Create app; returns the new app's detail page (Keys tab). */
  async createApp(name: string): Promise<AppDetailPage> {
    await this.page.getByRole("button", { name: "New app", exact: true }).click();
    const dialog = this.page.getByRole("dialog", { name: "New app" });
    await dialog.getByRole("textbox", { name: "App name" }).fill(name);
    await dialog.getByRole("button", { name: "Create app" }).click();
    await dialog.waitFor({ state: "detached" });
    return new AppDetailPage(this.page, name).ready();
  }

  /** Opens an app from the list by its link. */
  async open(name: string): Promise<AppDetailPage> {
    await this.table().getByRole("link", { name, exact: true }).click();
    return new AppDetailPage(this.page, name).ready();
  }
}
