// The CLI's command groups, in the order `patchbay --help` lists them. Registration point for new groups:
// add `commands/<group>.ts` exporting a CommandRegistrar and append it here (e.g. `sessions list|prune`).
import type { CommandRegistrar } from "../context";
import { registerAppCommands } from "./app";
import { registerConnectCommand } from "./connect";
import { registerInstallCliCommand } from "./install-cli";
import { registerDashboardCommand } from "./dashboard";
import { registerDoctorCommand } from "./doctor";
import { registerKeyCommands } from "./key";
import { registerLaunchCommand } from "./launch";
import { registerModelsCommand } from "./models";
import { registerServeCommand } from "./serve";
import { registerSessionsCommands } from "./sessions";

/** Every command group of `patchbay`. */
export const COMMAND_GROUPS: readonly CommandRegistrar[] = [
  registerServeCommand,
  registerDashboardCommand,
  registerModelsCommand,
  registerAppCommands,
  registerKeyCommands,
  registerSessionsCommands,
  registerLaunchCommand,
  registerConnectCommand,
  registerDoctorCommand,
  registerInstallCliCommand,
];
