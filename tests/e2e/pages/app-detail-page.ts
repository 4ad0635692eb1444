// Page object of App detail: its heading and the "App sections" navigation. Each tab method returns that tab's
// page object; tabs without actions in the suite are returned as a plain AppTab (for screenshots and checks).
import type { Page } from "playwright-core";
import { AliasesTab, KeysTab, ModelsTab } from "./app-tabs";
import { ConnectPanel } from "./connect-panel";
import { HistoryTab } from "./history-tab";
import { SessionsTab } from "./sessions-tab";

/** A tab with nothing to drive: its region is enough to wait for. */
export class AppTab {
  constructor(
    readonly page: Page,
    readonly name: string,
  ) {}
  readonly region = () => this.page.getByRole("main").getByRole("region", { name: this.name, exact: true }).first();
  async ready(): Promise<this> {
    await this.region().waitFor();
    return this;
  }
}

export class AppDetailPage {
  constructor(
    readonly page: Page,
    readonly app: string,
  ) {}

  readonly heading = () => this.page.getByRole("heading", { name: this.app, level: 1 });
  readonly sections = () => this.page.getByRole("navigation", { name: "App sections" });

  async ready(): Promise<this> {
    await this.heading().waitFor();
    await this.sections().waitFor();
    return this;
  }

  /** The section links' names, in order (APP_TABS). */
  async tabNames(): Promise<string[]> {
    return (await this.sections().getByRole("link").allInnerTexts()).map((t) => t.trim());
  }

  private async open(name: string): Promise<void> {
    await this.sections().getByRole("link", { name, exact: true }).click();
  }

  async keys(): Promise<KeysTab> {
    await this.open("Keys");
    return new KeysTab(this.page).ready();
  }

  async models(): Promise<ModelsTab> {
    await this.open("Models");
    return new ModelsTab(this.page).ready();
  }

  async aliases(): Promise<AliasesTab> {
    await this.open("Aliases");
    return new AliasesTab(this.page).ready();
  }

  async sessions(): Promise<SessionsTab> {
    await this.open("Sessions");
    return new SessionsTab(this.page).ready();
  }

  async history(): Promise<HistoryTab> {
    await this.open("History");
    return new HistoryTab(this.page).ready();
  }

  /** Opens a tab by its link text and waits for its region (named like the link). */
  async tab(name: "Limits" | "History" | "Usage" | "Connect" | (string & {})): Promise<AppTab> {
    await this.open(name);
    return new AppTab(this.page, name).ready();
  }

  async connect(): Promise<ConnectPanel> {
    await this.open("Connect");
    await new AppTab(this.page, "Connect").ready();
    return new ConnectPanel(this.page.getByRole("main").getByRole("region", { name: "Connect", exact: true })).ready();
  }
}
