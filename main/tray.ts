// Renders the tray: menu model → Electron menu template, status → icon and tooltip, clicks → TrayAction.
// The menu content itself is decided in tray-menu.ts; this file only maps it.
import path from "node:path";
import type { PatchbayStatus } from "../shared/status";
import type { ElectronPorts, MenuTemplateItem, TrayPort } from "./ports";
import { buildTrayMenu, type MenuItemModel, type TrayAction } from "./tray-menu";
import { trayIconFile, trayIconState, trayToolTip } from "./tray-icon";

/** Maps the menu model to Electron's template shape; each clickable item calls `onAction` with its action. */
export function toMenuTemplate(model: MenuItemModel[], onAction: (action: TrayAction) => void): MenuTemplateItem[] {
  return model.map((item): MenuTemplateItem => {
    switch (item.kind) {
      case "separator":
        return { type: "separator" };
      case "label":
        return { type: "normal", label: item.label, enabled: false };
      case "action":
        return {
          type: "normal",
          label: item.label,
          enabled: item.enabled,
          ...(item.toolTip ? { toolTip: item.toolTip } : {}),
          click: () => onAction(item.action),
        };
      case "checkbox":
        return { type: "checkbox", label: item.label, checked: item.checked, click: () => onAction(item.action) };
      case "submenu":
        return { type: "submenu", label: item.label, submenu: toMenuTemplate(item.items, onAction) };
    }
  });
}

/** Left-click opens the dashboard where the platform delivers clicks without a menu (Windows); elsewhere it shows the menu. */
export function clickOpensDashboard(platform: NodeJS.Platform): boolean {
  return platform === "win32";
}

export interface TrayControllerDeps {
  ports: Pick<ElectronPorts, "createTray" | "trayIsDark" | "onThemeChanged" | "platform">;
  /** Folder with the tray PNGs (build/tray, copied next to the bundle). */
  iconDir: string;
  onAction(action: TrayAction): void;
}

/** Owns the tray icon; re-renders on every status change, theme change or launch-at-login change. */
export class TrayController {
  private tray: TrayPort | null = null;
  private status: PatchbayStatus | null = null;
  private launchAtLogin = false;

  constructor(private readonly deps: TrayControllerDeps) {}

  /** Creates the tray icon for the first status. */
  create(status: PatchbayStatus, launchAtLogin: boolean): void {
    this.status = status;
    this.launchAtLogin = launchAtLogin;
    this.tray = this.deps.ports.createTray(this.iconPath(status));
    this.tray.onClick(() => {
      if (clickOpensDashboard(this.deps.ports.platform)) this.deps.onAction({ type: "open-dashboard" });
    });
    this.deps.ports.onThemeChanged(() => this.render());
    this.render();
  }

  update(status: PatchbayStatus): void {
    this.status = status;
    this.render();
  }

  setLaunchAtLogin(enabled: boolean): void {
    this.launchAtLogin = enabled;
    this.render();
  }

  destroy(): void {
    this.tray?.destroy();
    this.tray = null;
  }

  private render(): void {
    if (!this.tray || !this.status) return;
    const model = buildTrayMenu(this.status, { launchAtLogin: this.launchAtLogin, platform: this.deps.ports.platform });
    this.tray.setImage(this.iconPath(this.status));
    this.tray.setToolTip(trayToolTip(this.status));
    this.tray.setMenu(toMenuTemplate(model, (a) => this.deps.onAction(a)));
  }

  private iconPath(status: PatchbayStatus): string {
    const file = trayIconFile(trayIconState(status), {
      platform: this.deps.ports.platform,
      darkTray: this.deps.ports.trayIsDark(),
    });
    return path.join(this.deps.iconDir, file);
  }
}
