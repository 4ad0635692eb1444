// `patchbay install-cli [--dir D] [--remove]`: puts `patchbay` on the user's PATH as a small shim that runs this
// checkout's launcher (server/cli/cli-shim.ts), or removes it. Never touches a file it did not write.
import os from "node:os";
import path from "node:path";
import type { Command } from "commander";
import { PatchbayError } from "../../core/errors";
import { UsageError } from "../errors";
import { PATCHBAY_BIN_SCRIPT, patchbayCommand } from "../../connect/patchbay-command";
import type { CliContext } from "../context";

/** What a file-system error means for the folder given (errno code → reason). */
const FS_REASONS: Record<string, string> = {
  ENOENT: "it cannot be created there",
  EACCES: "no permission",
  EPERM: "not allowed",
  EROFS: "the file system is read-only",
  ENOTDIR: "a part of the path is a file, not a folder",
  EISDIR: "a folder named patchbay is in the way",
  EEXIST: "a file appeared there meanwhile",
};

/** Registers `install-cli`. */
export function registerInstallCliCommand(program: Command, ctx: CliContext): void {
  program
    .command("install-cli")
    .description("Put `patchbay` on your PATH (a small shim in ~/.local/bin that runs this Patchbay), or remove it")
    .option("--dir <dir>", "folder to write the shim into (default: ~/.local/bin)")
    .option("--remove", "remove the shim (only one that install-cli wrote)")
    .addHelpText(
      "after",
      `
The shim runs ${PATCHBAY_BIN_SCRIPT};
a file named patchbay that install-cli did not write is never replaced.
Use it rather than npx: outside this folder, npx fetches and runs an unrelated
npm package named patchbay.`,
    )
    .action(async (opts: { dir?: string; remove?: boolean }) => {
      const { installCliShim, removeCliShim, dirOnPath, ForeignFileError } = await import("../cli-shim");
      const { shellQuote } = await import("../../connect/patchbay-command");
      if (opts.dir !== undefined && opts.dir.trim() === "")
        throw new UsageError("--dir needs a folder (it was empty); leave it out for ~/.local/bin.");
      const home = ctx.io.env.HOME?.trim() || os.homedir();
      const dir = path.resolve(opts.dir ?? path.join(home, ".local", "bin"));
      const target = { dir, binScript: PATCHBAY_BIN_SCRIPT, nodePath: process.execPath, platform: process.platform };
      try {
        if (opts.remove) {
          const r = await removeCliShim(target);
          ctx.io.out(r.action === "removed" ? `Removed ${r.file}.\n` : `There is no ${r.file}; nothing to remove.\n`);
          return;
        }
        const r = await installCliShim(target);
        const did = { written: "Wrote", updated: "Updated", unchanged: "Already up to date:" }[
          r.action as "written" | "updated" | "unchanged"
        ];
        ctx.io.out(`${did} ${r.file} (runs ${PATCHBAY_BIN_SCRIPT}).\n`);
        if (!dirOnPath(dir, ctx.io.env))
          ctx.io.out(
            // The folder is quoted as one shell word: a pasted line must never run part of a folder name.
            `${dir} is not on your PATH yet: add this line to your shell's profile (e.g. ~/.profile)\n` +
              `  export PATH=${shellQuote(dir)}:"$PATH"\nand open a new terminal.\n`,
          );
        // Named as it runs right now: `patchbay` only once the folder is on PATH.
        const removeArgs = `install-cli --remove${opts.dir ? ` --dir ${shellQuote(dir)}` : ""}`;
        ctx.io.out(`Remove it with: ${patchbayCommand(removeArgs, ctx.io.env)}\n`);
      } catch (err) {
        if (err instanceof ForeignFileError) throw new PatchbayError("conflict", err.message);
        const code = (err as NodeJS.ErrnoException).code;
        if (code && FS_REASONS[code])
          throw new PatchbayError(
            "storage_error",
            `Cannot ${opts.remove ? "remove the shim from" : "write the shim into"} ${dir}: ${FS_REASONS[code]} (${code}). Choose another folder with --dir.`,
          );
        throw err;
      }
    });
}
