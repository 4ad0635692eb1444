// Entry page object: logging in through a one-time URL and the sidebar ("Main" navigation). Each method returns the
// page object of where it lands. Knows only role locators and routes, never the admin API.
import type { Page } from "playwright-core";
import { AppsPage } from "./apps-page";
import { ConnectPage } from "./connect-page";
import { LogsPage } from "./logs-page";
import { OverviewPage } from "./overview-page";
import { SettingsPage } from "./settings-page";

export class Dashboard {
  constructor(readonly page: Page) {}

  /** Opens a one-time login URL; the page trades it for a session token and lands on the Overview. */
  async login(loginUrl: string): Promise<OverviewPage> {
    await this.page.goto(loginUrl);
    return new OverviewPage(this.page).ready();
  }

  private link(name: string) {
    return this.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true });
  }

  async overview(): Promise<OverviewPage> {
    await this.link("Overview").click();
    return new OverviewPage(this.page).ready();
  }

  async apps(): Promise<AppsPage> {
    await this.link("Apps").click();
    return new AppsPage(this.page).ready();
  }

  async logs(): Promise<LogsPage> {
    await this.link("Logs").click();
    return new LogsPage(this.page).ready();
  }

  async connect(): Promise<ConnectPage> {
    await this.link("Connect").click();
    return new ConnectPage(this.page).ready();
  }

  async settings(): Promise<SettingsPage> {
    await this.link("Settings").click();
    return new SettingsPage(this.page).ready();
  }
}
