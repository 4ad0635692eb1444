// Page objects of an app's Sessions tab (issue 6): the "Sessions" table with infinite scroll, the session view
// drawer and the delete confirmation. Each action returns the page object of where it lands. Role locators only.
import type { Locator, Page } from "playwright-core";
import { eventually } from "../support/eventually";

/** The drawer of one session (a dialog named like the session's title). */
export class SessionViewDialog {
  constructor(
    readonly page: Page,
    readonly title: string,
  ) {}
  readonly dialog = () => this.page.getByRole("dialog", { name: this.title, exact: true });
  readonly messages = () => this.dialog().getByRole("article");

  /** Waits until the messages are loaded (at least one message article). */
  async ready(): Promise<this> {
    await this.dialog().waitFor();
    await this.messages().first().waitFor();
    return this;
  }

  /** Texts of the messages of one role, oldest first ("User message" / "Assistant message" articles). */
  async texts(role: "User" | "Assistant"): Promise<string[]> {
    return (
      await this.dialog()
        .getByRole("article", { name: `${role} message`, exact: true })
        .allInnerTexts()
    ).map((t) => t.trim());
  }

  /** Close → back to the Sessions tab, the drawer gone. */
  async close(): Promise<SessionsTab> {
    await this.dialog().getByRole("button", { name: "Close", exact: true }).click();
    await this.dialog().waitFor({ state: "detached" });
    return new SessionsTab(this.page).ready();
  }
}

/** The "Delete session" / "Delete N sessions" confirmation. */
export class DeleteSessionsDialog {
  constructor(
    readonly page: Page,
    readonly name: string,
  ) {}
  readonly dialog = () => this.page.getByRole("dialog", { name: this.name, exact: true });

  async ready(): Promise<this> {
    await this.dialog().waitFor();
    return this;
  }

  /** "Yes, delete" → back to the tab once the dialog closed and the outcome ("Deleted N.") is shown. */
  async confirm(): Promise<SessionsTab> {
    await this.dialog().getByRole("button", { name: "Yes, delete", exact: true }).click();
    await this.dialog().waitFor({ state: "detached" });
    const tab = await new SessionsTab(this.page).ready();
    await tab
      .region()
      .getByText(/^Deleted \d+/)
      .waitFor();
    return tab;
  }

  /** Cancel → back to the tab, nothing deleted. */
  async cancel(): Promise<SessionsTab> {
    await this.dialog().getByRole("button", { name: "Cancel", exact: true }).click();
    await this.dialog().waitFor({ state: "detached" });
    return new SessionsTab(this.page).ready();
  }
}

export class SessionsTab {
  constructor(readonly page: Page) {}
  readonly region = () => this.page.getByRole("main").getByRole("region", { name: "Sessions", exact: true });
  readonly table = () => this.region().getByRole("table", { name: "Sessions", exact: true });
  /** The list's footer once every page is loaded: "N sessions" (the "Load more" button until then). */
  readonly endNote = () => this.region().getByText(/^[\d,]+ sessions?$/);

  /** Waits for the region and its first rows (or its empty state). */
  async ready(): Promise<this> {
    await this.region().waitFor();
    await this.region().getByRole("button", { name: "Refresh", exact: true }).waitFor();
    await this.table()
      .or(this.region().getByText(/^No (matching )?sessions/))
      .first()
      .waitFor();
    return this;
  }

  /** Body rows (header excluded). */
  rows(): Locator {
    return this.table().locator("tbody").getByRole("row");
  }

  /** The row of the session with this exact title. */
  row(title: string): Locator {
    return this.rows().filter({ has: this.page.getByRole("button", { name: `Delete ${title}`, exact: true }) });
  }

  /** The titles shown, top to bottom. */
  async titles(): Promise<string[]> {
    const buttons = this.table().locator("tbody tr td:nth-child(2)").getByRole("button");
    return (await buttons.allInnerTexts()).map((t) => t.trim());
  }

  /**
   * Scrolls the list with the mouse wheel (the way a user does; no "Load more" click) until the end note shows,
   * waiting after each scroll for more rows. Returns how many scrolls loaded a page. Throws if a scroll loads nothing
   * within 10 s or more than `maxPages` scrolls are needed.
   */
  async scrollToEnd(maxPages = 20): Promise<number> {
    let loads = 0;
    for (; loads <= maxPages; loads++) {
      if (await this.endNote().isVisible()) return loads;
      const before = await this.rows().count();
      const box = await this.table().boundingBox();
      if (box) await this.page.mouse.move(box.x + box.width / 2, Math.min(box.y + box.height / 2, 400));
      await this.page.mouse.wheel(0, 100_000);
      await eventually(`more than ${before} rows, or the end of the list, after scrolling`, async () => {
        if ((await this.rows().count()) > before || (await this.endNote().isVisible())) return;
        throw new Error(`${await this.rows().count()} rows`);
      });
    }
    throw new Error(`the list did not end after ${maxPages} pages`);
  }

  /** Opens a session by its title button; returns its drawer with the messages loaded. */
  async open(title: string): Promise<SessionViewDialog> {
    await this.row(title).getByRole("button", { name: title, exact: true }).click();
    return new SessionViewDialog(this.page, title).ready();
  }

  /** The row's "Delete <title>" action; returns the confirmation (nothing is deleted yet). */
  async askDelete(title: string): Promise<DeleteSessionsDialog> {
    await this.region()
      .getByRole("button", { name: `Delete ${title}`, exact: true })
      .click();
    return new DeleteSessionsDialog(this.page, "Delete session").ready();
  }
}
