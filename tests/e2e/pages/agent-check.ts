// Page object of the Connect page's "Check your agents" card (the dashboard's `patchbay doctor`; role locators only).
import type { Locator, Page } from "playwright-core";
import { DOCTOR_CLIENT_NAMES } from "../../../shared/admin/doctor";

export class AgentCheckCard {
  constructor(readonly page: Page) {}
  readonly card = (): Locator => this.page.getByRole("region", { name: "Check your agents" });
  readonly results = (): Locator => this.card().getByRole("table", { name: "Agent check results" });
  readonly progress = (): Locator => this.card().getByRole("log", { name: "Check progress" });

  /** Ticks exactly the agents named (display names: "Codex", "Claude Code", "GitHub Copilot CLI"). */
  async pick(agents: string[]): Promise<this> {
    for (const name of Object.values(DOCTOR_CLIENT_NAMES))
      await this.card().getByRole("checkbox", { name, exact: true }).setChecked(agents.includes(name));
    return this;
  }

  /** Clicks "Run check" and waits for the run to be under way (its progress log shown). */
  async run(): Promise<this> {
    await this.card().getByRole("button", { name: "Run check" }).click();
    await this.card().getByRole("button", { name: "Running…" }).waitFor();
    return this;
  }

  /** Waits (up to `timeoutMs`) for the results table and returns `agent`'s row as cell texts: version, each check
   *  (`ok` / `FAILED`), last passed version. */
  async row(agent: string, timeoutMs: number): Promise<string[]> {
    await this.results().waitFor({ timeout: timeoutMs });
    const row = this.results()
      .getByRole("row")
      .filter({ has: this.page.getByRole("rowheader", { name: agent }) });
    return (await row.getByRole("cell").allTextContents()).map((t) => t.trim());
  }
}
