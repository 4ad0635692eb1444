// `patchbay key create|list|revoke`: an app's API keys. The full key is printed once, by `create`, alone on stdout.
// Must never print a key anywhere else (lists show the visible prefix only).
import type { Command } from "commander";
import { KEY_SCHEME, keyPrefixOf } from "../../stores/keys-store";
import { withStores, type CliContext } from "../context";
import { localTime, table } from "../format";
import { cliHint, noSuchApp } from "../cli-hint";

/** Registers the `key` command group. */
export function registerKeyCommands(program: Command, ctx: CliContext): void {
  const key = program
    .command("key")
    .description("Manage an app's API keys (stored hashed; the full key is shown once)")
    .addHelpText(
      "after",
      `
Examples:
  $ KEY=$(patchbay key create my-editor --label laptop)
  $ patchbay key list my-editor
  $ patchbay key revoke my-editor pb-AbCdEfGhIjKl`,
    );

  key
    .command("create")
    .description("Create a key and print it (alone, on stdout); it cannot be shown again")
    .argument("<app>", "app name")
    .option("--label <label>", "a note to recognise the key by (max 80 characters)")
    .action(async (app: string, opts: { label?: string }) => {
      const created = await withStores(ctx, ({ keys }) => keys.create(app, opts.label ?? ""));
      ctx.io.out(`${created.key}\n`);
      if (ctx.io.stdoutIsTTY)
        ctx.io.err("Save this key now: Patchbay stores only its hash and cannot show it again.\n");
    });

  key
    .command("list")
    .description("List an app's keys (visible prefixes only, shown as pb-<prefix> like the dashboard)")
    .argument("<app>", "app name")
    .option("--json", "print JSON (an array of {prefix, app, label, createdAt, lastUsedAt})")
    .action(async (app: string, opts: { json?: boolean }) => {
      await withStores(ctx, async ({ apps, keys }) => {
        if (!apps.get(app)) throw noSuchApp(ctx, app);
        const list = keys.list(app);
        if (opts.json) {
          ctx.io.out(`${JSON.stringify(list, null, 2)}\n`);
          return;
        }
        if (list.length === 0) {
          ctx.io.out(`No keys for app "${app}". Create one with: ${cliHint(ctx, `key create ${app}`)}\n`);
          return;
        }
        const rows = list.map((k) => [
          shownPrefix(k.prefix),
          k.label || "-",
          localTime(k.createdAt),
          localTime(k.lastUsedAt),
        ]);
        ctx.io.out(table([["PREFIX", "LABEL", "CREATED", "LAST USED"], ...rows]));
      });
    });

  key
    .command("revoke")
    .description("Revoke a key; a running server refuses it within about a second")
    .argument("<app>", "app name")
    .argument(
      "<prefix>",
      "the key's prefix as `patchbay key list` and the dashboard show it (pb-AbCdEfGhIjKl; the pb- is optional), " +
        "or the whole key",
    )
    .action(async (app: string, given: string) => {
      // Accept what a user copies: `pb-AbCdEfGhIjKl…` (dashboard), `pb-AbCdEfGhIjKl` (key list), the whole key.
      const prefix = revokeArgument(given);
      await withStores(ctx, async ({ apps, keys }) => {
        if (!apps.get(app)) throw noSuchApp(ctx, app);
        await keys.revoke(app, prefix);
      });
      ctx.io.out(`Revoked key ${shownPrefix(prefix)} of app "${app}".\n`);
    });
}

/** The prefix in what a user pasted: trimmed, without a trailing `…` or `...`; a whole key gives its prefix. */
export function revokeArgument(given: string): string {
  const text = given.trim().replace(/(…|\.\.\.)$/, "");
  return FULL_KEY.test(text) ? keyPrefixOf(text) : text;
}

/** A whole key as `key create` prints it: `pb-` + 43 base64url characters. */
const FULL_KEY = /^pb-[A-Za-z0-9_-]{43}$/;

/** A key's prefix as the dashboard and the request log show it: with its `pb-`. */
function shownPrefix(prefix: string): string {
  return prefix.startsWith(KEY_SCHEME) ? prefix : `${KEY_SCHEME}${prefix}`;
}
