// Runs a TypeScript worker module from the sources (development, tests): workers do not inherit the parent's tsx
// loader, so register it here, then import the worker (its URL in workerData.entry). Bundled builds never use this.
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
await import(workerData.entry);
