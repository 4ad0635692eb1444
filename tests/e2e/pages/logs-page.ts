// Page object of Logs: the live badge, Pause/Resume, the filters, the "Request log" table and the
// "Request details" drawer.
import type { Locator, Page } from "playwright-core";

/** The "Request details" drawer of one entry. */
export class RequestDetailsDrawer {
  constructor(readonly page: Page) {}
  readonly dialog = () => this.page.getByRole("dialog", { name: "Request details" });

  async ready(): Promise<this> {
    await this.dialog().waitFor();
    return this;
  }

  async text(): Promise<string> {
    return this.dialog().innerText();
  }

  /** The curl command as shown in the drawer. */
  async curl(): Promise<string> {
    return this.dialog().getByLabel("curl command").innerText();
  }

  async copyCurl(): Promise<this> {
    await this.dialog().getByRole("button", { name: "Copy as curl" }).click();
    return this;
  }

  /** Done → back to Logs, the drawer gone. */
  async done(): Promise<LogsPage> {
    await this.dialog().getByRole("button", { name: "Done" }).click();
    await this.dialog().waitFor({ state: "detached" });
    return new LogsPage(this.page).ready();
  }
}

export class LogsPage {
  constructor(readonly page: Page) {}
  readonly heading = () => this.page.getByRole("heading", { name: "Logs", level: 1 });
  readonly table = () => this.page.getByRole("table", { name: "Request log" });
  /** The live-stream badge: "Live" once the SSE stream is open. */
  readonly liveBadge = () => this.page.getByRole("main").locator(".page-header .badge").first();

  async ready(): Promise<this> {
    await this.heading().waitFor();
    return this;
  }

  /** Waits until the live stream is open (the badge reads "Live"). */
  async waitLive(): Promise<this> {
    await this.page.getByRole("main").locator(".page-header .badge", { hasText: "Live" }).waitFor();
    return this;
  }

  /** Body rows of the table (header row excluded). */
  rows(): Locator {
    return this.table().locator("tbody").getByRole("row");
  }

  /** Rows whose text contains `text` (e.g. a model id). */
  rowsWith(text: string): Locator {
    return this.rows().filter({ hasText: text });
  }

  /** Cell texts of a row, in column order (Time, App, Model, Status, Tokens in/out, TTFT, Total, Endpoint). */
  async cells(row: Locator): Promise<string[]> {
    return (await row.getByRole("cell").allInnerTexts()).map((t) => t.trim());
  }

  /** Opens the drawer of `row` through its "Details <time>" button. */
  async openDetails(row: Locator): Promise<RequestDetailsDrawer> {
    await row.getByRole("button", { name: /^Details / }).click();
    return new RequestDetailsDrawer(this.page).ready();
  }

  /** Chooses an option of the Status filter by its label. */
  async filterStatus(label: string): Promise<this> {
    await this.page.getByRole("combobox", { name: "Status" }).selectOption({ label });
    return this;
  }
}
