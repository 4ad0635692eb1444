// Starts one of Patchbay's worker_threads in whichever form the server runs: from the TypeScript sources (tsx: a
// small bootstrap registers tsx in the worker, as workers do not inherit the parent's loader), or from a bundle
// (the CLI build and the Electron main bundle emit each worker as a file of its own and announce their folder in
// `globalThis.__patchbayWorkers`, see build/scripts/build-cli.mjs and build-main.mjs).
import { Worker, type ResourceLimits } from "node:worker_threads";
import path from "node:path";

/** Set by a bundle's banner: the folder holding its compiled workers and their file extension. */
interface BundledWorkers {
  dir: string;
  ext: string;
}

/**
 * A new Worker running `name` (the worker's bundle name, e.g. "token-count-worker") whose source module is `source`
 * (a `.ts` file URL, `new URL("./x.ts", import.meta.url)`), with V8 `resourceLimits` (sizes in MB) if given.
 * Errors of the worker come as its `error` event.
 */
export function startWorker(name: string, source: URL, resourceLimits?: ResourceLimits): Worker {
  const limits = resourceLimits ? { resourceLimits } : {};
  const bundled = (globalThis as { __patchbayWorkers?: BundledWorkers }).__patchbayWorkers;
  if (bundled) return new Worker(path.join(bundled.dir, `${name}${bundled.ext}`), limits);
  if (!source.pathname.endsWith(".ts")) return new Worker(source, limits);
  return new Worker(new URL("./worker-bootstrap.mjs", import.meta.url), {
    workerData: { entry: source.href },
    ...limits,
  });
}
