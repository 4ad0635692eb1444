// One Patchbay (and its OpenCode) shared by the integration files of a test group, so a group pays for one boot
// instead of one per file. build/scripts/test-group.mjs runs the files of a group one after another in one process
// and stops the shared Patchbay once at the end; a file run on its own gets its own Patchbay, stopped by its `after`.
// Between files the fixture is put back to a clean state: every app deleted (which ends its runs and removes its
// data), the mock upstream's queue, responder and recordings cleared, and every OpenCode session used so far fenced
// off at the mock (MockUpstream.fence), so a leftover retry of an earlier file never takes a later file's reply.
import { startPatchbayFixture, type PatchbayFixture } from "./patchbay-fixture";

/** Set by build/scripts/test-group.mjs: the group's root `after` stops the shared Patchbay. */
const GROUP_FLAG = "__patchbayTestGroup";

let shared: Promise<PatchbayFixture> | null = null;

function inGroup(): boolean {
  return (globalThis as Record<string, unknown>)[GROUP_FLAG] === true;
}

function groupCleanups(): Array<() => Promise<void>> {
  return ((globalThis as Record<string, unknown>).__patchbayTestGroupCleanups ??= []) as Array<() => Promise<void>>;
}

/**
 * The default Patchbay fixture (mock upstream, no demo, no extra providers) for this file: the group's shared one,
 * cleaned, or a fresh one when the file runs on its own. Pair with {@link releaseSharedPatchbay} in `after`.
 * Files that need other fixture options start their own with `startPatchbayFixture`.
 */
export async function useSharedPatchbay(): Promise<PatchbayFixture> {
  if (!inGroup()) return startPatchbayFixture();
  if (!shared) {
    shared = startPatchbayFixture().catch((err: unknown) => {
      shared = null;
      throw err;
    });
    groupCleanups().push(stopSharedPatchbay);
  }
  const fx = await shared;
  await clean(fx);
  return fx;
}

/** Ends this file's use: stops a file's own Patchbay; in a group, cleans the shared one for the next file. */
export async function releaseSharedPatchbay(fx: PatchbayFixture | undefined): Promise<void> {
  if (!fx) return;
  if (!inGroup()) return fx.stop();
  await clean(fx);
}

/** Stops the group's shared Patchbay (registered as one of the group runner's last steps). */
async function stopSharedPatchbay(): Promise<void> {
  const pending = shared;
  shared = null;
  if (pending) await (await pending).stop();
}

async function clean(fx: PatchbayFixture): Promise<void> {
  const { apps } = await fx.admin.listApps();
  for (const app of apps as Array<{ name: string }>) await fx.admin.deleteApp({ params: { name: app.name } });
  fx.mock.reset();
  // What OpenCode still does for the sessions used so far (a retry of a call scripted to fail) answers plainly
  // instead of taking the next file's scripted replies.
  fx.mock.fence();
}
